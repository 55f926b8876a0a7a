// The condition form names its operators in words of the reader's language (they used to be the
// engine's ids, "greater_or_equal", "is_not_subscribed", in Russian too), and an operator the list
// does not know (a file from elsewhere) shows as itself instead of as the first in the list. So do
// the set_variable node's assignment modes ("regex_extract", "json_push" before).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { haveChromium, warnIfNoChromium } from "../support/browser";
import { editorEnv, newProject, openEditor, pick, type EditorEnv } from "./editor-support";

warnIfNoChromium("editor: condition form");

const node = (id: string, type: string, x: number, y: number, data: Record<string, unknown>) => ({ id, type, position: { x, y }, data });
const branch = (id: string, operator: string, value = "") => ({ id, label: id, operator, value, target: "" });
const doc = () => ({
  version: 2,
  sheets: [{ id: "main", name: "Main", nodes: [
    node("start", "command_trigger", 0, 0, { command: "/start", autoTransitionTo: "age" }),
    node("age", "condition", 320, 0, { variable: "age", branches: [branch("adult", "greater_or_equal", "18"), branch("given", "filled"), branch("odd", "some_future_op", "x"), branch("rest", "else")] }),
    node("calc", "set_variable", 640, 0, { assignments: [{ id: "a1", variable: "code", value: "{text}", mode: "regex_extract", pattern: "(\\d+)" }, { id: "a2", variable: "cart", value: "{item}", mode: "json_push" }, { id: "a3", variable: "x", value: "", mode: "some_future_mode" }] }),
  ], edges: [] }],
});

describe.skipIf(!haveChromium)("editor: condition form", () => {
  let env: EditorEnv;
  let projectId: number;
  beforeAll(async () => {
    env = await editorEnv({ viewport: { width: 1440, height: 900 } });
    projectId = await newProject(env, "Ages", doc());
  }, 60_000);
  afterAll(async () => env?.close(), 30_000);

  for (const [lang, words] of [["en", ["is at least", "is filled in", "some_future_op", "otherwise (always)"]], ["ru", ["не меньше", "заполнено", "some_future_op", "иначе (всегда)"]]] as const) {
    test(`${lang.toUpperCase()}: each branch's operator reads as words; the unknown one as itself; a pick by words saves the id`, async () => {
      const { page } = env.b;
      await page.evaluate((l) => localStorage.setItem("botloom.lang", l), lang);
      await openEditor(page, env.base, projectId);
      await pick(page, "age");
      const selects = page.getByRole("complementary").locator(".ed-group select[aria-label]").filter({ has: page.locator("option[value=else]") });
      await expect(selects.count()).resolves.toBe(4);
      const shown = await selects.evaluateAll((els) => els.map((e) => (e as HTMLSelectElement).selectedOptions[0]?.textContent));
      await page.screenshot({ path: `/tmp/editor-shots/condition-form-${lang}.png` });
      expect(shown).toEqual([...words]);
      const options = await selects.first().locator("option").allTextContents();
      expect(options.filter((o) => /_/.test(o))).toEqual([]);
      // picking by the words writes the engine's id
      await selects.nth(1).selectOption({ label: lang === "en" ? "is empty" : "пусто" });
      await page.getByRole("button", { name: lang === "en" ? "Save" : "Сохранить", exact: true }).click();
      await page.getByTestId("save-status").filter({ hasText: lang === "en" ? /^Saved$/ : /^Сохранено$/ }).waitFor();
      const saved = (await env.t.call("GET", `/api/projects/${projectId}`, { cookie: env.cookie })).body.data;
      expect(saved.sheets[0].nodes[1].data.branches.map((b: any) => b.operator)).toEqual(["greater_or_equal", "empty", "some_future_op", "else"]);
      // back as it was for the other language's run
      await selects.nth(1).selectOption("filled");
      await page.keyboard.press("Control+s");
      await page.getByTestId("save-status").filter({ hasText: lang === "en" ? /^Saved$/ : /^Сохранено$/ }).waitFor();
      expect(env.b.errors).toEqual([]);
    }, 45_000);

    test(`${lang.toUpperCase()}: each assignment's mode reads as words; the unknown one as itself`, async () => {
      const { page } = env.b;
      await page.evaluate((l) => localStorage.setItem("botloom.lang", l), lang);
      await openEditor(page, env.base, projectId);
      await pick(page, "calc");
      const modes = page.getByRole("complementary").locator(".ed-group select[aria-label]").filter({ has: page.locator("option[value=regex_extract]") });
      await expect(modes.count()).resolves.toBe(3);
      const shown = await modes.evaluateAll((els) => els.map((e) => (e as HTMLSelectElement).selectedOptions[0]?.textContent));
      expect(shown).toEqual(lang === "en" ? ["extract by a pattern (regex)", "add to a JSON list", "some_future_mode"] : ["извлечь по шаблону (regex)", "добавить в JSON-список", "some_future_mode"]);
      expect((await modes.first().locator("option").allTextContents()).filter((o) => /_/.test(o))).toEqual([]);
      expect(env.b.errors).toEqual([]);
    }, 45_000);
  }
});
