// The reaction and member triggers' lists are edited in their forms (they used to be reachable only
// through JSON mode): emoji picked from Telegram's set and removed again, the message nodes picked
// from the scenario, member changes ticked by name, in English and Russian. What the form writes is
// what JSON mode then shows and what the save stores; a value the lists do not know stays.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { haveChromium, warnIfNoChromium } from "../support/browser";
import { editorEnv, newProject, openEditor, pick, type EditorEnv } from "./editor-support";

warnIfNoChromium("editor: trigger forms");

const node = (id: string, type: string, x: number, y: number, data: Record<string, unknown>) => ({ id, type, position: { x, y }, data });
const doc = () => ({
  version: 2,
  sheets: [{ id: "main", name: "Main", nodes: [
    node("rated", "reaction_trigger", 0, 0, { emoji: ["👍"], messageNodes: [], autoTransitionTo: "thanks" }),
    node("answer", "message", 0, 240, { messageText: "Here is the answer" }),
    node("thanks", "message", 320, 0, { messageText: "Thanks for rating" }),
    node("joins", "member_trigger", 0, 480, { memberEvents: ["joined", "kicked_by_moon"], autoTransitionTo: "thanks" }),
  ], edges: [] }],
});

const WORDS = {
  en: { remove: "Remove", add: "Add", addReaction: "Add a reaction", addNode: "Add a node…", answer: "Main · Message: Here is the answer", left: "Left the group", joined: "Joined the group", save: "Save", saved: /^Saved$/ },
  ru: { remove: "Убрать", add: "Добавить", addReaction: "Добавить реакцию", addNode: "Добавить узел…", answer: "Main · Сообщение: Here is the answer", left: "Вышел из группы", joined: "Вступил в группу", save: "Сохранить", saved: /^Сохранено$/ },
};

/** The node's data as JSON mode shows it (and back to the form). */
async function jsonOf(page: Page): Promise<Record<string, unknown>> {
  const props = page.getByRole("complementary");
  await props.getByRole("checkbox", { name: "JSON" }).check();
  const text = await props.locator("#ed-raw").inputValue();
  await props.getByRole("checkbox", { name: "JSON" }).uncheck();
  return JSON.parse(text);
}

describe.skipIf(!haveChromium)("editor: reaction and member trigger forms", () => {
  let env: EditorEnv;
  beforeAll(async () => {
    env = await editorEnv({ viewport: { width: 1440, height: 900 } });
  }, 60_000);
  afterAll(async () => env?.close(), 30_000);

  test("a chosen ❤️ (typed with U+FE0F) is the ❤ of Telegram's set: the grid does not offer it again", async () => {
    const { page } = env.b;
    const data = doc();
    data.sheets[0]!.nodes[0]!.data.emoji = ["\u2764\uFE0F"];
    const projectId = await newProject(env, "Hearts", data);
    await page.evaluate(() => localStorage.setItem("botloom.lang", "en"));
    await openEditor(page, env.base, projectId);
    await pick(page, "rated");
    const props = page.getByRole("complementary");
    await props.getByRole("button", { name: "Remove \u2764\uFE0F", exact: true }).waitFor();
    await props.getByText("Add a reaction", { exact: true }).click();
    await props.getByRole("button", { name: "Add 👍", exact: true }).waitFor();
    await expect(props.getByRole("button", { name: "Add \u2764", exact: true }).count()).resolves.toBe(0);
  }, 60_000);

  for (const lang of ["en", "ru"] as const) {
    const w = WORDS[lang];
    test(`${lang.toUpperCase()}: reactions and their message nodes are picked in the form; JSON mode and the saved document follow`, async () => {
      const { page } = env.b;
      const projectId = await newProject(env, `Ratings ${lang}`, doc());
      await page.evaluate((l) => localStorage.setItem("botloom.lang", l), lang);
      await openEditor(page, env.base, projectId);
      await pick(page, "rated");
      const props = page.getByRole("complementary");
      await props.getByRole("button", { name: `${w.remove} 👍`, exact: true }).click();
      await props.getByText(w.addReaction, { exact: true }).click();
      await props.getByRole("button", { name: `${w.add} 🔥`, exact: true }).click();
      await props.getByRole("button", { name: `${w.add} ❤`, exact: true }).click();
      // a chosen emoji leaves the grid and shows as a chip that removes it
      await expect(props.getByRole("button", { name: `${w.add} 🔥`, exact: true }).count()).resolves.toBe(0);
      await expect(props.getByRole("button", { name: `${w.remove} 🔥`, exact: true }).count()).resolves.toBe(1);
      await props.getByRole("combobox", { name: w.addNode }).selectOption({ label: w.answer });
      await expect(props.getByRole("button", { name: `${w.remove} ${w.answer}`, exact: true }).count()).resolves.toBe(1);
      await page.screenshot({ path: `/tmp/editor-shots/reaction-form-${lang}.png` });
      // the card says what the trigger waits for
      await expect(page.locator('.ed-node[data-node-id="rated"] .ed-cmd').textContent()).resolves.toBe("🔥 ❤");
      const data = await jsonOf(page);
      expect(data.emoji).toEqual(["🔥", "❤"]);
      expect(data.messageNodes).toEqual(["answer"]);
      expect(data.autoTransitionTo).toBe("thanks");
      await page.getByRole("button", { name: w.save, exact: true }).click();
      await page.getByTestId("save-status").filter({ hasText: w.saved }).waitFor();
      const saved = (await env.t.call("GET", `/api/projects/${projectId}`, { cookie: env.cookie })).body.data;
      expect(saved.sheets[0].nodes[0].data).toEqual({ emoji: ["🔥", "❤"], messageNodes: ["answer"], autoTransitionTo: "thanks" });
      expect(env.b.errors).toEqual([]);
    }, 60_000);

    test(`${lang.toUpperCase()}: member changes are ticked by name; an unknown one stays until unticked; JSON mode and the saved document follow`, async () => {
      const { page } = env.b;
      const projectId = await newProject(env, `Members ${lang}`, doc());
      await page.evaluate((l) => localStorage.setItem("botloom.lang", l), lang);
      await openEditor(page, env.base, projectId);
      await pick(page, "joins");
      const props = page.getByRole("complementary");
      await expect(props.getByRole("checkbox", { name: w.joined }).isChecked()).resolves.toBe(true);
      await expect(props.getByRole("checkbox", { name: "kicked_by_moon" }).isChecked()).resolves.toBe(true);
      await props.getByRole("checkbox", { name: w.left }).check();
      await props.getByRole("checkbox", { name: w.joined }).uncheck();
      await page.screenshot({ path: `/tmp/editor-shots/member-form-${lang}.png` });
      await expect(page.locator('.ed-node[data-node-id="joins"] .ed-meta').textContent()).resolves.toBe(`${w.left}, kicked_by_moon`);
      expect((await jsonOf(page)).memberEvents).toEqual(["left", "kicked_by_moon"]);
      // unticked, the unknown value is gone from the data and so from the form
      await props.getByRole("checkbox", { name: "kicked_by_moon" }).click();
      await expect(props.getByRole("checkbox", { name: "kicked_by_moon" }).count()).resolves.toBe(0);
      expect((await jsonOf(page)).memberEvents).toEqual(["left"]);
      await page.getByRole("button", { name: w.save, exact: true }).click();
      await page.getByTestId("save-status").filter({ hasText: w.saved }).waitFor();
      const saved = (await env.t.call("GET", `/api/projects/${projectId}`, { cookie: env.cookie })).body.data;
      expect(saved.sheets[0].nodes[3].data).toEqual({ memberEvents: ["left"], autoTransitionTo: "thanks" });
      expect(env.b.errors).toEqual([]);
    }, 60_000);
  }
});
