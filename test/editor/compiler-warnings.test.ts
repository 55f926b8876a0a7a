// The generator's warnings in the reader's language (docs/editor.md "Warnings"): every key of the
// generator's one table (src/scenario/codegen/warnings.ts) has a Russian sentence using each of its
// slots and no other, and the Studio says a generate's warnings in Russian with nodes named by their
// text, while English shows the server's own sentence.
import { beforeAll, describe, expect, test } from "bun:test";
import type { TFunction } from "i18next";
import { generateBot } from "../../src/scenario";
import { COMPILE_WARNINGS, slotsOf } from "../../src/scenario/codegen/warnings";
import { COMPILER_WARNINGS_RU } from "../../web/src/editor/compiler-warnings-ru";
import type { Doc } from "../../web/src/editor/document";
import { editorStrings } from "./editor-strings";
import { editorWarnings } from "../../web/src/editor/warnings";

const ruSlots = (s: string) => [...new Set([...s.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]!))].sort();
const cyrillicWords = (s: string) => s.match(/[а-яё]{3,}/giu) ?? [];

describe("the generator's warnings in Russian", () => {
  let ru: TFunction;
  let en: TFunction;
  beforeAll(async () => {
    ({ ru, en } = await editorStrings());
  });

  test("every key of the table has a Russian sentence that uses each of its slots and no other", () => {
    const keys = Object.keys(COMPILE_WARNINGS);
    expect(keys.length).toBeGreaterThan(70);
    expect(Object.keys(COMPILER_WARNINGS_RU).sort()).toEqual(keys.sort());
    for (const key of keys) {
      const sentence = COMPILER_WARNINGS_RU[key as keyof typeof COMPILER_WARNINGS_RU];
      expect({ key, slots: ruSlots(sentence) }).toEqual({ key, slots: slotsOf(COMPILE_WARNINGS[key as keyof typeof COMPILE_WARNINGS].en).sort() });
      expect({ key, words: cyrillicWords(sentence).length >= 3 }).toEqual({ key, words: true });
      // no single-brace slot (the server's form) left in by mistake
      expect(sentence.replace(/\{\{\w+\}\}/g, "")).not.toMatch(/[{}]/);
    }
  });

  const node = (id: string, type: string, data: Record<string, unknown> = {}) => ({ id, type, position: { x: 0, y: 0 }, data });
  const doc = {
    version: 2,
    sheets: [{ id: "main", name: "Main", edges: [], nodes: [
      node("cmd_1", "command_trigger", { command: "/go", autoTransitionTo: "pick_7f" }),
      node("cmd_2", "command_trigger", { command: "/go", autoTransitionTo: "pick_7f" }),
      node("pick_7f", "message", { messageText: "Pick one", collectUserInput: true, inputVariable: "x", inputValidation: "(", keyboardType: "inline",
        buttons: [{ id: "b1", text: "Go", action: "goto", target: "ub_3" }, { id: "b2", text: "Copy", action: "copy_text" }], autoTransitionTo: "cmd_1" }),
      node("ub_3", "userbot_message", {}),
      node("loop_9", "loop", { sourceVariable: "items", autoTransitionTo: "ub_3" }),
    ] }],
  };
  const generated = () =>
    generateBot(doc, { projectName: "w", userDatabaseEnabled: false }).warnings.map((w) => ({
      nodeId: w.nodeId ?? null, sheetId: w.sheetId ?? null, code: w.code ?? "INVALID_DATA", message: w.message, ...(w.detail?.key && { detail: { key: w.detail.key, params: w.detail.params! } }),
    }));

  test("a generate's warnings read Russian, nodes named by kind and text, links by their words", () => {
    const fromServer = generated();
    expect(fromServer.filter((w) => w.detail).length).toBeGreaterThanOrEqual(6);
    const said = editorWarnings(doc as unknown as Doc, fromServer, ru, "ru").map((w) => w.message);
    for (const m of said) {
      expect(m).not.toMatch(/\bNode\b|\bis\b|\bthe\b|\{\{/);
      expect(m).not.toMatch(/pick_7f|cmd_1|cmd_2/);
    }
    expect(said).toContain("Сообщение «Pick one»: проверка ответа «(» — некорректное регулярное выражение; она не применяется.");
    expect(said).toContain("Сообщение «Pick one»: у кнопки копирования «Copy» нет текста для копирования; она не показывается.");
    expect(said).toContain("Команда «/go»: команду /go уже обрабатывает Команда «/go»; этот триггер не сработает.");
    expect(said).toContain("Сообщение «Pick one»: связь «далее» ведёт к триггеру Команда «/go»; триггер сам запускается событием, поэтому сценарий на этом останавливается.");
    expect(said.some((m) => m.startsWith("Сообщение «Pick one»: кнопка «Go» ведёт к шагу ") && m.includes("бот пропускает"))).toBe(true);
    expect(said).toContain("Цикл «loop_9»: связь «для каждого» ведёт к шагу userbot_message «ub_3», а шаги вида «userbot_message» бот пропускает; сценарий на этом останавливается.");
  });

  test("English shows the server's sentence, nodes named by their text", () => {
    const said = editorWarnings(doc as unknown as Doc, generated(), en, "en").map((w) => w.message);
    expect(said).toContain('Message “Pick one”: inputValidation "(" is not a valid regular expression; it is ignored.');
    expect(said).toContain("Command “/go”: command /go is already handled by Command “/go”; this trigger is ignored.");
  });

  test("a key the Studio does not know (a newer server) and a value holding {{…}} stay as given", () => {
    const w = (key: string, params: Record<string, string | number>) => ({ nodeId: "pick_7f", sheetId: "main", code: "INVALID_DATA", message: `Node "pick_7f": ${key}`, detail: { key, params } });
    const [unknown, odd] = editorWarnings(doc as unknown as Doc, [w("future.thing", {}), w("input.badRegex", { node: "pick_7f", pattern: "{{node}}" })], ru, "ru").filter((x) => x.code === "INVALID_DATA");
    expect(unknown!.message).toBe("Сообщение «Pick one»: future.thing");
    expect(odd!.message).toBe("Сообщение «Pick one»: проверка ответа «{{node}}» — некорректное регулярное выражение; она не применяется.");
  });
});
