// A node added from the palette starts with its texts in the reader's language: Russian in the
// Russian Studio (they were the older editor's English there too), English in the English one.
// Nodes already in the scenario keep their texts.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { haveChromium, warnIfNoChromium } from "../support/browser";
import { editorEnv, newProject, openEditor, type EditorEnv } from "./editor-support";

warnIfNoChromium("editor: new node texts");

const doc = () => ({
  version: 2,
  sheets: [{ id: "main", name: "Main", nodes: [
    { id: "start", type: "command_trigger", position: { x: 0, y: 0 }, data: { command: "/start", description: "Start the bot", autoTransitionTo: "old" } },
    { id: "old", type: "message", position: { x: 320, y: 0 }, data: { messageText: "New message" } },
  ], edges: [] }],
});

const WORDS = {
  en: { props: "Properties", text: "Text", message: "New message", branches: ["Filled", "Else"], save: "Save", saved: /^Saved$/ },
  ru: { props: "Свойства", text: "Текст", message: "Новое сообщение", branches: ["Заполнено", "Иначе"], save: "Сохранить", saved: /^Сохранено$/ },
};

describe.skipIf(!haveChromium)("editor: a new node's texts are in the reader's language", () => {
  let env: EditorEnv;
  beforeAll(async () => {
    env = await editorEnv({ viewport: { width: 1440, height: 900 } });
  }, 60_000);
  afterAll(async () => env?.close(), 30_000);

  for (const lang of ["en", "ru"] as const) {
    const w = WORDS[lang];
    test(`${lang.toUpperCase()}: a message and a condition from the palette start in ${lang === "en" ? "English" : "Russian"}; the existing nodes are untouched`, async () => {
      const { page } = env.b;
      const projectId = await newProject(env, `Defaults ${lang}`, doc());
      await page.evaluate((l) => localStorage.setItem("botloom.lang", l), lang);
      await openEditor(page, env.base, projectId);
      await page.locator('.ed-palette-item[data-type="message"]').click();
      const props = page.getByRole("complementary", { name: w.props });
      await expect(props.getByLabel(w.text, { exact: true }).inputValue()).resolves.toBe(w.message);
      await page.screenshot({ path: `/tmp/editor-shots/new-node-${lang}.png` });
      await page.locator('.ed-palette-item[data-type="condition"]').click();
      await props.locator(".ed-group").first().waitFor();
      await page.getByRole("button", { name: w.save, exact: true }).click();
      await page.getByTestId("save-status").filter({ hasText: w.saved }).waitFor();
      const nodes: { id: string; type: string; data: Record<string, any> }[] = (await env.t.call("GET", `/api/projects/${projectId}`, { cookie: env.cookie })).body.data.sheets[0].nodes;
      expect(nodes.slice(0, 2)).toEqual(doc().sheets[0]!.nodes as never);
      const added = nodes.slice(2);
      expect(added.map((n) => n.type)).toEqual(["message", "condition"]);
      expect(added[0]!.data.messageText).toBe(w.message);
      expect(added[1]!.data.branches.map((b: { label: string }) => b.label)).toEqual(w.branches);
      expect(env.b.errors).toEqual([]);
    }, 60_000);
  }
});
