// A readable canvas in Chromium: after importing every compat file, no node box lies on another on
// any sheet, nor after auto-layout, and the view after auto-layout stays readable (zoom ≥ 0.6).
// The compat files are read from ../shared/compat (never copied into the repo).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { haveChromium, warnIfNoChromium } from "../support/browser";
import { compatData, compatFiles, editorEnv, newProject, openEditor, overlaps, settled, zoomOf, type EditorEnv } from "./editor-support";

warnIfNoChromium("editor: layout");
const files = compatFiles("editor: layout");

describe.skipIf(!haveChromium || files.length === 0)("editor: no overlapping nodes", () => {
  let env: EditorEnv;
  beforeAll(async () => {
    env = await editorEnv({ viewport: { width: 1440, height: 900 } });
  }, 60_000);
  afterAll(async () => env?.close(), 30_000);

  for (const file of files) {
    test(`${file}: no node box on another after import and after auto-layout, on every sheet`, async () => {
      const { page } = env.b;
      const data = compatData(file);
      const id = await newProject(env, file, data);
      await openEditor(page, env.base, id);
      const tabs = page.getByRole("tab");
      const found: string[] = [];
      for (let i = 0; i < data.sheets.length; i++) {
        await tabs.nth(i).click();
        await page.waitForFunction((n: number) => document.querySelectorAll(".react-flow__node-scenario").length === n, data.sheets[i].nodes.length);
        await page.locator(`.ed-canvas[data-settled="${data.sheets[i].id}"]`).waitFor({ timeout: 20_000 });
        await settled(page);
        for (const o of await overlaps(page)) found.push(`import, sheet ${i}: ${o}`);
        const fits = Number(await page.getByTestId("canvas").getAttribute("data-fitted"));
        await page.getByRole("button", { name: "Auto-layout" }).click();
        await page.waitForFunction((n: number) => Number(document.querySelector(".ed-canvas")?.getAttribute("data-fitted")) > n, fits);
        await settled(page);
        for (const o of await overlaps(page)) found.push(`auto-layout, sheet ${i}: ${o}`);
        expect(await zoomOf(page)).toBeGreaterThanOrEqual(0.6 - 1e-6);
      }
      expect(found).toEqual([]);
      expect(env.b.errors).toEqual([]);
    }, 120_000);
  }
});
