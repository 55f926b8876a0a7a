// Screenshots of the editor's view following the selected node (a neighbour far away, a window
// resized) and of a failed save's status, at 1280×800 and 390×844, light and dark, for review by
// eye: `bun test/browser/editor-view-screenshots.ts [outDir]` (default /tmp/editor-shots). Not part
// of the suite.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { chainDoc, editorEnv, newProject, openEditor, pick, settled } from "./editor-support";

const out = process.argv[2] ?? "/tmp/editor-shots";
mkdirSync(out, { recursive: true });

/** "one" leading to "far" 700 px to its right, and "go" (/start) before "one". */
const far = {
  sheets: [{ id: "main", name: "Main", edges: [], nodes: [
    { id: "go", type: "command_trigger", position: { x: -320, y: 0 }, data: { command: "/start", autoTransitionTo: "one" } },
    { id: "one", type: "message", position: { x: 0, y: 0 }, data: { messageText: "One", autoTransitionTo: "far" } },
    { id: "far", type: "message", position: { x: 700, y: 0 }, data: { messageText: "Far" } },
  ] }],
};
/** Three messages one under another, 220 px apart. */
const column = { sheets: [{ id: "main", name: "Main", edges: [], nodes: ["one", "two", "three"].map((id, i, ids) => ({ id, type: "message", position: { x: 0, y: 220 * i }, data: { messageText: id, ...(ids[i + 1] && { autoTransitionTo: ids[i + 1] }) } })) }] };

for (const [w, h, tag] of [[1280, 800, "desktop"], [390, 844, "phone"]] as const) {
  for (const scheme of ["light", "dark"] as const) {
    const env = await editorEnv({ viewport: { width: w, height: h }, colorScheme: scheme });
    const { page } = env.b;
    await page.evaluate((s) => localStorage.setItem("botloom.theme", s), scheme);
    const shot = async (name: string) => void (await page.screenshot({ path: join(out, `${tag}-${scheme}-${name}.png`) }));
    const open = async (name: string, data: unknown) => {
      await openEditor(page, env.base, await newProject(env, name, data));
      await page.locator(".ed-canvas[data-settled=main]").waitFor();
      await settled(page);
    };
    try {
      // a neighbour far away: the view zooms out to show it beside the node
      await open("Far", far);
      await pick(page, "one");
      await settled(page);
      await shot("far-neighbour");
      // the window made smaller with a node selected (a phone: its window made shorter, then turned and back)
      if (tag === "desktop") {
        await page.setViewportSize({ width: 1600, height: 800 });
        await open("Resized", chainDoc(["One", "Two"]));
        await pick(page, "two");
        await settled(page);
        await page.setViewportSize({ width: w, height: h });
      } else {
        await open("Turned", column);
        await pick(page, "three");
        await settled(page);
        for (const [x, y] of [[390, 640], [844, 390], [w, h]] as const) {
          await page.setViewportSize({ width: x, height: y });
          await settled(page);
        }
      }
      await settled(page);
      await shot("resized");
      // a failed save, in Russian (a phone saves nothing and shows no status: its toolbar)
      await page.evaluate(() => localStorage.setItem("botloom.lang", "ru"));
      const id = await newProject(env, "Failed", chainDoc(["One"]));
      await page.route(`**/api/projects/${id}`, (route) => (route.request().method() === "PUT" ? route.fulfill({ status: 500, contentType: "application/json", body: "{}" }) : route.fallback()));
      await openEditor(page, env.base, id);
      if (tag === "desktop") {
        await page.locator('.ed-palette-item[data-type="message"]').click();
        await page.getByRole("toolbar").getByRole("button", { name: "Сохранить", exact: true }).click();
        await page.locator(".ed-status.error").waitFor();
      } else await page.getByTestId("phone-notice").waitFor();
      await shot("save-failed-ru");
      await page.evaluate(() => localStorage.setItem("botloom.lang", "en"));
    } finally {
      await env.close();
    }
  }
}
console.log(`screenshots in ${out}`);
process.exit(0);
