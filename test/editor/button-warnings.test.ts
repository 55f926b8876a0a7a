// Validation's button warnings (BUTTON_INCOMPLETE) in the reader's language (docs/editor.md
// "Warnings"): each problem a button can have — no target, no address, no Mini App address, a Mini
// App not on https, nothing to copy, too much to copy — has its sentence in English and Russian.
import { beforeAll, describe, expect, test } from "bun:test";
import type { TFunction } from "i18next";
import { validateScenario } from "../../src/scenario/validate";
import type { Doc } from "../../web/src/editor/document";
import { editorStrings } from "./editor-strings";
import { editorWarnings } from "../../web/src/editor/warnings";

const BUTTONS = [
  { id: "b1", text: "Next", action: "goto", target: "" },
  { id: "b2", text: "Site", action: "url", url: "" },
  { id: "b3", text: "Shop", action: "web_app" },
  { id: "b4", text: "Plain", action: "web_app", webAppUrl: "http://example.com/app" },
  { id: "b5", text: "Code", action: "copy_text" },
  { id: "b6", text: "Essay", action: "copy_text", copyText: "x".repeat(257) },
];
const doc = {
  version: 2,
  sheets: [{ id: "main", name: "Main", edges: [], nodes: [
    { id: "cmd_k2w9", type: "command_trigger", position: { x: 0, y: 0 }, data: { command: "/start", autoTransitionTo: "menu_mwys3vd63fkbl" } },
    { id: "menu_mwys3vd63fkbl", type: "message", position: { x: 0, y: 0 }, data: { messageText: "Menu", keyboardType: "inline", buttons: BUTTONS } },
  ] }],
} as unknown as Doc;

describe("button warnings in the reader's language", () => {
  let ru: TFunction;
  let en: TFunction;
  beforeAll(async () => {
    ({ ru, en } = await editorStrings());
  });

  test("validation names each problem, one per button", () => {
    const problems = validateScenario(doc).warnings.filter((w) => w.code === "BUTTON_INCOMPLETE").map((w) => [w.detail?.button, w.detail?.problem]);
    expect(problems).toEqual([["Next", "noTarget"], ["Site", "noUrl"], ["Shop", "noMiniAppUrl"], ["Plain", "miniAppNotHttps"], ["Code", "nothingToCopy"], ["Essay", "copyTooLong"]]);
  });

  test("Russian: every one in Russian words, naming the button and the node by its text", () => {
    const said = editorWarnings(doc, [], ru, "ru").map((w) => w.message);
    expect(said).toHaveLength(BUTTONS.length);
    for (const [i, m] of said.entries()) {
      expect(m).toContain(`«${BUTTONS[i]!.text}»`);
      expect(m).toContain("Сообщение «Menu»");
      expect(m).toMatch(/[а-яё]{4,}/);
      expect(m).not.toMatch(/\b(Node|button|has|copies|opens|copyText|webAppUrl)\b|mwys3vd63fkbl/);
    }
    expect(said).toContain("У кнопки копирования «Code» шага Сообщение «Menu» нет текста для копирования.");
  });

  test("English: the same problems in plain English words, no field names", () => {
    const said = editorWarnings(doc, [], en, "en").map((w) => w.message);
    expect(said).toContain("The copy button “Code” of Message “Menu” has nothing to copy.");
    expect(said).toContain("The Mini App button “Plain” of Message “Menu” opens an address that is not https; Telegram refuses it.");
    for (const m of said) expect(m).not.toMatch(/copyText|webAppUrl|mwys3vd63fkbl|^Node /);
  });
});
