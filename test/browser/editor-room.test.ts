// The canvas keeps room to work in: between the floating panels (the palette on the left, the
// properties on the right) at least 320 px of it stay free, at every width an editor has, with the
// preview open or not (docs/editor.md#room-for-the-canvas). At 900 px with the preview open the
// panels left 27 px; at 1280 px, 291. Nothing becomes unreachable on the way: a panel folded for
// room leaves its button, which brings it back (folding the other one instead), and the preview
// that has no room beside the canvas goes under it, where the page scrolls to it.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { haveChromium, warnIfNoChromium } from "../support/browser";
import { chainDoc, editorEnv, newProject, openEditor, pick, settled, type EditorEnv } from "./editor-support";

warnIfNoChromium("editor: room for the canvas");

const MIN_FREE = 320;
const doc = chainDoc(["One", "Two"]);

/** The canvas's width between the panels shown over it, and which panels are shown. */
const room = (page: Page) =>
  page.evaluate(() => {
    const box = (sel: string) => document.querySelector(`.ed-center ${sel}`)?.getBoundingClientRect();
    const canvas = box(".ed-canvas")!;
    const palette = box(".ed-palette");
    const props = box(".ed-props-dock");
    return { free: Math.round((props?.left ?? canvas.right) - (palette?.right ?? canvas.left)), palette: !!palette, props: !!props };
  });

/** Whether a person can reach the element: scrolled to, it is on the page and nothing lies over its middle. */
const reachable = async (page: Page, selector: string) => {
  const el = page.locator(selector).first();
  if (!(await el.count())) return false;
  await el.scrollIntoViewIfNeeded();
  return el.evaluate((e) => {
    const r = e.getBoundingClientRect();
    const at = document.elementFromPoint(r.left + r.width / 2, r.top + Math.min(r.height / 2, 20));
    return r.width > 0 && r.left >= 0 && r.right <= innerWidth + 0.5 && !!at && e.contains(at);
  });
};

describe.skipIf(!haveChromium)("editor: room for the canvas", () => {
  let env: EditorEnv;
  let projectId: number;
  beforeAll(async () => {
    env = await editorEnv({ viewport: { width: 1440, height: 900 } });
    projectId = await newProject(env, "Room", doc);
  }, 60_000);
  afterAll(async () => env?.close(), 30_000);

  for (const withPreview of [true, false])
    test(`a node selected${withPreview ? ", the preview open" : ""}: from 1440 to 800 px at least ${MIN_FREE} px of canvas between the panels, each panel or its button reachable`, async () => {
      const { page } = env.b;
      for (const width of [1440, 1280, 1024, 900, 800]) {
        await page.setViewportSize({ width, height: 900 });
        await openEditor(page, env.base, projectId);
        await page.locator(".ed-canvas[data-settled=main]").waitFor();
        await pick(page, "one");
        if (withPreview) {
          await page.getByRole("toolbar").getByRole("button", { name: "Preview", exact: true }).click();
          await page.getByTestId("editor-preview").waitFor();
        }
        await settled(page);
        await page.screenshot({ path: `/tmp/editor-shots/room-${width}${withPreview ? "-preview" : ""}.png` });
        const first = await room(page);
        expect({ width, free: first.free >= MIN_FREE || first.free }).toEqual({ width, free: true });
        // each floating panel shows, or its button does
        expect({ width, palette: await reachable(page, first.palette ? ".ed-palette" : "[data-action=palette]") }).toEqual({ width, palette: true });
        expect({ width, props: await reachable(page, first.props ? ".ed-props-dock" : "[data-action=properties]") }).toEqual({ width, props: true });
        if (withPreview) expect({ width, preview: await reachable(page, ".ed-preview .pv-input-row input") }).toEqual({ width, preview: true });
        expect({ width, zoom: await reachable(page, ".react-flow__controls [data-action=zoomIn]") }).toEqual({ width, zoom: true });
        // a folded panel's button brings it back, still leaving the room
        for (const [folded, button] of [[!first.palette, "palette"], [!first.props, "properties"]] as const) {
          if (!folded) continue;
          await page.locator(`[data-action=${button}]`).first().click();
          await page.locator(button === "palette" ? ".ed-palette" : ".ed-props-dock").waitFor();
          await settled(page);
          const then = await room(page);
          expect({ width, button, free: then.free >= MIN_FREE || then.free }).toEqual({ width, button, free: true });
          expect({ width, button, other: await reachable(page, button === "palette" ? (then.props ? ".ed-props-dock" : "[data-action=properties]") : then.palette ? ".ed-palette" : "[data-action=palette]") }).toEqual({ width, button, other: true });
        }
      }
      expect(env.b.errors).toEqual([]);
    }, 120_000);
});
