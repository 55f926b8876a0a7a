// Screenshots of the editor's toolbar and shortcut help (both drawn from the actions table,
// web/src/editor/actions.ts) at 1280×900 and 390×844, light and dark, for review by eye:
// `bun test/browser/editor-actions-screens.ts [outDir]` (default /tmp/editor-actions-shots). Not part of the suite.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { editorEnv, newProject, openEditor, pick } from "./editor-support";

const out = process.argv[2] ?? "/tmp/editor-actions-shots";
mkdirSync(out, { recursive: true });
const at = (id: string, x: number, text: string) => ({ id, type: "message", position: { x, y: 0 }, data: { messageText: text } });
const scenario = { sheets: [{ id: "s1", name: "Main", nodes: [at("one", 0, "One"), at("two", 360, "Two")], edges: [] }] };

for (const [w, h, tag] of [[1280, 900, "desktop"], [390, 844, "phone"]] as const) {
  for (const scheme of ["light", "dark"] as const) {
    const env = await editorEnv({ viewport: { width: w, height: h }, colorScheme: scheme });
    const { page } = env.b;
    await page.evaluate((s) => localStorage.setItem("botloom.theme", s), scheme);
    const shot = async (name: string) => void (await page.screenshot({ path: join(out, `${tag}-${scheme}-${name}.png`) }));
    try {
      const id = await newProject(env, "Actions", scenario);
      await openEditor(page, env.base, id);
      await page.getByTestId("canvas").and(page.locator("[data-settled=s1]")).waitFor();
      if (tag === "desktop") {
        await pick(page, "one");
        await shot("toolbar");
        await page.locator(".react-flow__pane").click({ position: { x: 5, y: 5 } });
        await page.keyboard.press("?");
        await page.getByRole("dialog", { name: "Keyboard shortcuts" }).waitFor();
        await shot("help");
      } else {
        await shot("toolbar");
      }
    } finally {
      await env.close();
    }
  }
}
console.log(`screenshots in ${out}`);
