// Nothing of an imported sheet lies under the editor's floating parts when it opens: the warnings
// box over the top middle of the canvas used to cover the header of a node the fit put there
// (kotik-simple-anketa: its "Message" card under "⚠ Warnings (17)", docs/editor.md "Layout").
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { haveChromium, warnIfNoChromium } from "../support/browser";
import { compatData, compatFiles, editorEnv, newProject, openEditor, settled, zoomOf, type EditorEnv } from "./editor-support";

warnIfNoChromium("editor: nothing covered");
const files = compatFiles("editor: nothing covered");

describe.skipIf(!haveChromium || files.length === 0)("editor: nothing covered", () => {
  let env: EditorEnv;
  beforeAll(async () => {
    env = await editorEnv({ viewport: { width: 1440, height: 900 } });
  }, 60_000);
  afterAll(async () => env?.close(), 30_000);

  for (const file of files) {
    test(`${file}: on every sheet, no node under the warnings box (nor, fitted whole, the palette or the minimap)`, async () => {
      const { page } = env.b;
      const id = await newProject(env, file, compatData(file));
      await openEditor(page, env.base, id);
      const tabs = page.getByRole("tab");
      const n = await tabs.count();
      for (let i = 0; i < n; i++) {
        await tabs.nth(i).click();
        await settled(page);
        // a sheet fitted whole keeps clear of every panel; a bigger one (at the readable floor, shown
        // from its start) may run on under the palette, to be panned to, but never under the warnings
        const whole = (await zoomOf(page)) > 0.601;
        const covered = await page.evaluate((whole) => {
          const panels = [...document.querySelectorAll(whole ? ".ed-warnbox, .ed-palette, .react-flow__minimap" : ".ed-warnbox")].map((e) => ({ name: e.className, r: e.getBoundingClientRect() }));
          const out: string[] = [];
          for (const e of document.querySelectorAll(".react-flow__node")) {
            const a = e.getBoundingClientRect();
            for (const { name, r } of panels)
              if (a.left < r.right && r.left < a.right && a.top < r.bottom && r.top < a.bottom) out.push(`${e.getAttribute("data-id")} under ${name}`);
          }
          return out;
        }, whole);
        expect({ sheet: i, covered }).toEqual({ sheet: i, covered: [] });
      }
    }, 60_000);
  }
});
