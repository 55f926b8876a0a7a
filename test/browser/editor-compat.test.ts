// The older platform's real files in the editor: each of the 8 compat files opens with every node
// of every sheet on its canvas, and saving it unedited changes no node data (positions aside).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { haveChromium, warnIfNoChromium } from "../support/browser";
import { compatData, compatFiles, editorEnv, newProject, openEditor, type EditorEnv } from "./editor-support";

warnIfNoChromium("editor: compat files");
const files = compatFiles("editor: compat files");

const withoutPositions = (data: any) => data.sheets.map((s: any) => ({ id: s.id, nodes: s.nodes.map(({ position, ...rest }: any) => rest) }));

describe.skipIf(!haveChromium || files.length === 0)("editor: compat files", () => {
  let env: EditorEnv;
  beforeAll(async () => {
    env = await editorEnv({ viewport: { width: 1440, height: 1000 } });
  }, 60_000);
  afterAll(async () => env?.close(), 30_000);

  for (const file of files) {
    test(`${file}: every node on its sheet's canvas; an unedited save keeps node data`, async () => {
      const { page } = env.b;
      const data = compatData(file);
      const id = await newProject(env, file, data);
      const before = (await env.t.call("GET", `/api/projects/${id}`, { cookie: env.cookie })).body.data;
      await openEditor(page, env.base, id);
      const tabs = page.getByRole("tab");
      expect(await tabs.count()).toBe(before.sheets.length);
      for (let i = 0; i < before.sheets.length; i++) {
        const sheet = before.sheets[i];
        await tabs.nth(i).click();
        await page.waitForFunction(
          (ids: string[]) => {
            const shown = new Set([...document.querySelectorAll(".ed-node")].map((e) => e.getAttribute("data-node-id")));
            return shown.size === ids.length && ids.every((x) => shown.has(x));
          },
          sheet.nodes.map((n: any) => n.id),
          { timeout: 15_000 },
        );
      }
      await page.getByRole("button", { name: "Save", exact: true }).click();
      await page.getByTestId("save-status").filter({ hasText: /^Saved$/ }).waitFor({ timeout: 15_000 });
      const after = (await env.t.call("GET", `/api/projects/${id}`, { cookie: env.cookie })).body.data;
      expect(withoutPositions(after)).toEqual(withoutPositions(before));
      expect(env.b.errors).toEqual([]);
    }, 60_000);
  }
});
