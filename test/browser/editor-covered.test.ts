// Nothing of an imported sheet lies under the editor's floating parts when it opens: the warnings
// box over the top middle of the canvas used to cover the header of a node the fit put there
// (kotik-simple-anketa: its "Message" card under "⚠ Warnings (17)", docs/editor.md "Layout"), and
// a sheet too big to fit whole, shown from its first trigger at the readable 60 %, had the nodes
// left of the trigger under the palette (vprogulke-admin-panel's "Интересы", "Профиль").
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
    test(`${file}: on every sheet, no node under the warnings box, the palette or the minimap, nor left of the canvas`, async () => {
      const { page } = env.b;
      const id = await newProject(env, file, compatData(file));
      await openEditor(page, env.base, id);
      const tabs = page.getByRole("tab");
      const n = await tabs.count();
      for (let i = 0; i < n; i++) {
        await tabs.nth(i).click();
        await settled(page);
        // a sheet fitted whole keeps clear of every panel; a bigger one (at the readable floor) runs
        // on to the right and below, to be panned to, never under a panel or off the canvas's left
        const zoom = await zoomOf(page);
        await page.screenshot({ path: `/tmp/editor-shots/covered-${file.replace(/\W/g, "_")}-${i}.png` });
        const covered = await page.evaluate(() => {
          const panels = [...document.querySelectorAll(".ed-warnbox, .ed-palette, .react-flow__minimap")].map((e) => ({ name: e.className, r: e.getBoundingClientRect() }));
          const canvas = document.querySelector(".ed-canvas")!.getBoundingClientRect();
          const out: string[] = [];
          for (const e of document.querySelectorAll(".react-flow__node")) {
            const a = e.getBoundingClientRect();
            if (a.right <= canvas.left) out.push(`${e.getAttribute("data-id")} left of the canvas`);
            for (const { name, r } of panels)
              if (a.left < r.right && r.left < a.right && a.top < r.bottom && r.top < a.bottom) out.push(`${e.getAttribute("data-id")} under ${name}`);
          }
          return out;
        });
        expect({ sheet: i, zoom, covered }).toEqual({ sheet: i, zoom, covered: [] });
      }
    }, 60_000);
  }
});
