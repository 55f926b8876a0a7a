// Warnings follow the edits without a save, and say what is wrong in plain words, naming each node
// by its text (never its id or field names), in English and in Russian (docs/editor.md "Warnings"):
// the compiler's own warnings too, from their key, in the Russian Studio.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { haveChromium, warnIfNoChromium } from "../support/browser";
import { editorEnv, newProject, nodeEl, openEditor, pick, type EditorEnv } from "./editor-support";

warnIfNoChromium("editor: live warnings");

const node = (id: string, type: string, x: number, data: Record<string, unknown>) => ({ id, type, position: { x, y: 0 }, data });
const scenario = () => ({
  version: 2,
  sheets: [{ id: "main", name: "Main", edges: [], nodes: [
    node("start_x81kq", "command_trigger", 0, { command: "/start", autoTransitionTo: "hello_mwys3vd63fkbl" }),
    node("hello_mwys3vd63fkbl", "message", 320, { messageText: "Pick one", keyboardType: "inline", buttons: [{ id: "b1", text: "Tell my name", action: "goto", target: "" }] }),
    node("input_q2vv1", "input", 640, { inputVariable: "name", inputPrompt: "" }),
  ] }],
});

describe.skipIf(!haveChromium)("editor: live warnings", () => {
  let env: EditorEnv;
  let projectId: number;

  beforeAll(async () => {
    env = await editorEnv({ viewport: { width: 1440, height: 1000 } });
    projectId = await newProject(env, "Warn me", scenario());
  }, 60_000);
  afterAll(async () => env?.close(), 30_000);

  const list = () => env.b.page.locator(".ed-warnbox .ed-warnings li");

  test("an edit without saving updates the warnings; they name nodes by their text", async () => {
    const { page } = env.b;
    await openEditor(page, env.base, projectId);
    await page.locator(".ed-warnbox summary").click();
    await list().filter({ hasText: "The button “Tell my name” of Message “Pick one” goes nowhere yet" }).waitFor();
    await list().filter({ hasText: "Save answer “name” is never reached" }).waitFor();
    for (const text of await list().allTextContents()) {
      expect(text).not.toContain("_mwys3vd63fkbl");
      expect(text).not.toContain("input_q2vv1");
      expect(text).not.toMatch(/inputPrompt|autoTransitionTo|command_trigger/);
    }

    // wire the button to the question: the button warning goes, the input is reached without a question
    await pick(page, "hello_mwys3vd63fkbl");
    const props = page.getByRole("complementary", { name: "Properties" });
    await props.getByLabel("Target node").first().selectOption("input_q2vv1");
    await page.getByTestId("save-status").filter({ hasText: "Unsaved changes" }).waitFor();
    await list().filter({ hasText: "Save answer “name” waits for an answer, but nothing asks the question" }).waitFor();
    await page.waitForFunction(() => ![...document.querySelectorAll(".ed-warnbox .ed-warnings li")].some((li) => li.textContent?.includes("goes nowhere yet")));
    expect(await list().filter({ hasText: "is never reached" }).count()).toBe(0);
    await nodeEl(page, "input_q2vv1").and(page.locator(".has-warning")).waitFor();

    // writing the question clears the last one, still without a save
    await pick(page, "input_q2vv1");
    await props.getByLabel("Question (sent when no message asked it)").fill("What is your name?");
    await page.waitForFunction(() => document.querySelector(".ed-warnbox") === null);
    expect(await page.getByTestId("save-status").textContent()).toBe("Unsaved changes");
    const stored = (await env.t.call("GET", `/api/projects/${projectId}`, { cookie: env.cookie })).body;
    expect(JSON.stringify(stored.data)).not.toContain("What is your name?");
  }, 60_000);

  test("the Russian Studio says the compiler's warnings in Russian, nodes named by their text", async () => {
    const { page } = env.b;
    const compiled = await newProject(env, "Компилятор", {
      version: 2,
      sheets: [{ id: "main", name: "Main", edges: [], nodes: [
        node("cmd_k2w9", "command_trigger", 0, { command: "/go", autoTransitionTo: "pick_mwys3vd63fkbl" }),
        node("cmd_p7q1", "command_trigger", 0, { command: "/go", autoTransitionTo: "pick_mwys3vd63fkbl" }),
        node("pick_mwys3vd63fkbl", "message", 320, { messageText: "Pick one", collectUserInput: true, inputVariable: "x", inputValidation: "(",
          keyboardType: "inline", buttons: [{ id: "b1", text: "Go", action: "goto", target: "ub_q2vv1" }, { id: "b2", text: "Copy", action: "copy_text" }], autoTransitionTo: "cmd_k2w9" }),
        node("ub_q2vv1", "userbot_message", 640, {}),
      ] }],
    });
    await page.evaluate(() => localStorage.setItem("botloom.lang", "ru"));
    try {
      await openEditor(page, env.base, compiled);
      await page.locator(".ed-warnbox summary").click();
      for (const text of [
        "Сообщение «Pick one»: проверка ответа «(» — некорректное регулярное выражение; она не применяется.",
        "Команда «/go»: команду /go уже обрабатывает Команда «/go»; этот триггер не сработает.",
        "Сообщение «Pick one»: связь «далее» ведёт к триггеру Команда «/go»; триггер сам запускается событием, поэтому сценарий на этом останавливается.",
        "Сообщение «Pick one»: кнопка «Go» ведёт к шагу userbot_message «ub_q2vv1», а шаги вида «userbot_message» бот пропускает; сценарий на этом останавливается.",
        "Сообщение «Pick one»: у кнопки копирования «Copy» нет текста для копирования; она не показывается.",
        // validation's, checked live, says it too
        "У кнопки копирования «Copy» шага Сообщение «Pick one» нет текста для копирования.",
      ]) await list().filter({ hasText: text }).waitFor();
      const all = await list().allTextContents();
      expect(all.length).toBe(7); // and validation's: the userbot step is skipped
      for (const text of all) {
        expect(text).toMatch(/[а-яё]{4,}/);
        expect(text).not.toMatch(/\b(Node|is|the|leads|points|button|ignored)\b/);
        expect(text).not.toMatch(/mwys3vd63fkbl|cmd_k2w9|cmd_p7q1/);
      }
      // the ⚠ on the node says the same
      await expect(nodeEl(page, "pick_mwys3vd63fkbl").locator(".ed-warn").getAttribute("title")).resolves.toContain("проверка ответа «(»");
      expect(env.b.errors).toEqual([]);
    } finally {
      await page.evaluate(() => localStorage.setItem("botloom.lang", "en"));
    }
  }, 60_000);
});
