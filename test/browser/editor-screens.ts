// Screenshots of the editor's canvas screens (issue 27 part B) at 1440×900 and 390×844, light and
// dark, for review by eye: `bun test/browser/editor-screens.ts [outDir]` (default /tmp/editor-shots).
// Not part of the suite. Reads a compat file from ../shared/compat when present.
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { editorEnv, newProject, openEditor, pick, settled } from "./editor-support";

const out = process.argv[2] ?? "/tmp/editor-shots";
mkdirSync(out, { recursive: true });
const compat = join(import.meta.dir, "..", "..", "..", "shared", "compat", "current", "vprogulke-admin-panel.json");
const small = {
  sheets: [
    {
      id: "main",
      name: "Main",
      nodes: [
        { id: "start", type: "command_trigger", position: { x: 0, y: 0 }, data: { command: "/start", autoTransitionTo: "hello" } },
        { id: "hello", type: "message", position: { x: 0, y: 0 }, data: { messageText: "Hi! What would you like?", keyboardType: "inline", buttons: [{ id: "a", text: "About", action: "goto", target: "about" }, { id: "n", text: "Your name", action: "goto", target: "ask" }] } },
        { id: "about", type: "message", position: { x: 0, y: 0 }, data: { messageText: "We make bots." } },
        { id: "ask", type: "input", position: { x: 0, y: 0 }, data: { inputVariable: "name", inputPrompt: "What is your name?", inputTargetNodeId: "greet" } },
        { id: "greet", type: "message", position: { x: 0, y: 0 }, data: { messageText: "Nice to meet you, {name}!" } },
      ],
      edges: [],
    },
  ],
};

for (const [w, h, tag] of [[1440, 900, "desktop"], [390, 844, "phone"]] as const) {
  for (const scheme of ["light", "dark"] as const) {
    const env = await editorEnv({ viewport: { width: w, height: h }, colorScheme: scheme });
    const { page } = env.b;
    await page.evaluate((s) => localStorage.setItem("botloom.theme", s), scheme);
    const shot = async (name: string) => void (await page.screenshot({ path: join(out, `${tag}-${scheme}-${name}.png`) }));
    try {
      const empty = await newProject(env, "Empty");
      await openEditor(page, env.base, empty);
      await shot("empty");
      if (tag === "desktop") {
        await page.getByRole("button", { name: "Take the tour" }).click();
        await page.locator(".ed-tour").waitFor();
        await shot("tour");
        await page.keyboard.press("Escape");
        await page.getByRole("button", { name: "Browse all nodes" }).click();
        await page.getByRole("searchbox", { name: /Search nodes/ }).fill("answer");
        await shot("picker");
        await page.keyboard.press("Escape");
      }
      const id = await newProject(env, "Small bot", small);
      await openEditor(page, env.base, id);
      await page.locator(".ed-canvas[data-settled=main]").waitFor();
      await settled(page);
      await shot("small");
      if (tag === "desktop") {
        await page.locator('.react-flow__edge[data-id="start|auto"]').click({ force: true });
        await shot("edge-selected");
        await page.getByRole("button", { name: "Full screen" }).click();
        await shot("fullscreen");
        await page.keyboard.press("Escape");
        // the shortcut help: the actions table's keys (web/src/editor/actions.ts)
        await page.keyboard.press("?");
        await page.getByRole("dialog", { name: "Keyboard shortcuts" }).waitFor();
        await shot("help");
        await page.keyboard.press("Escape");
        await pick(page, "hello");
        await shot("node-selected");
        await page.getByRole("button", { name: "Hide panel" }).first().click();
        await page.getByRole("button", { name: "Hide panel" }).first().click();
        await shot("panels-hidden");
        await page.getByRole("button", { name: "Nodes" }).click();
        await page.getByRole("button", { name: "Properties" }).click();
      } else {
        await pick(page, "hello");
        await shot("phone-node");
        await page.getByRole("button", { name: "Preview" }).click();
        await shot("phone-preview");
      }
      if (existsSync(compat)) {
        const big = await newProject(env, "vprogulke", JSON.parse(readFileSync(compat, "utf8")).data);
        await openEditor(page, env.base, big);
        await page.getByRole("tab").nth(3).click();
        await page.locator(".ed-canvas[data-settled]:not([data-settled=''])").waitFor({ timeout: 20_000 });
        await page.waitForTimeout(600); // screenshots only: let the fit animation end
        await shot("big-sheet");
      }
    } finally {
      await env.close();
    }
  }
}
console.log(`screenshots in ${out}`);
process.exit(0);
