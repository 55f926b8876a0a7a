// The generator's warnings come from one table (src/scenario/codegen/warnings.ts): each carries its
// key and slot values, and its message is the table's English sentence filled with them
// (docs/api.md "Scenario warnings").
import { describe, expect, test } from "bun:test";
import { generateBot } from "../../src/scenario";
import { COMPILE_WARNINGS, slotsOf, warningMessage, type WarningKey } from "../../src/scenario/codegen/warnings";

const node = (id: string, type: string, data: Record<string, unknown> = {}) => ({ id, type, position: { x: 0, y: 0 }, data });
const CODES = ["TARGET_NOT_RUNNABLE", "COMMAND_CONFLICT", "INVALID_DATA"];

describe("the generator's warning table", () => {
  test("every sentence has slots the message fills, and a code clients know", () => {
    for (const [key, row] of Object.entries(COMPILE_WARNINGS)) {
      const slots = slotsOf(row.en);
      const filled = warningMessage(key as WarningKey, Object.fromEntries(slots.map((s) => [s, `<${s}>`])));
      for (const s of slots) expect(filled).toContain(`<${s}>`);
      expect(filled).not.toMatch(/\{\w+\}/);
      expect(CODES).toContain((row as { code?: string }).code ?? "INVALID_DATA");
    }
  });

  test("a slot value is put in once, never read again for slots", () => {
    expect(warningMessage("input.badRegex", { node: "a", pattern: "{node}(" })).toBe('Node "a": inputValidation "{node}(" is not a valid regular expression; it is ignored.');
  });

  test("each warning of a scenario with many problems has its key and slots, and its message is the table's sentence", () => {
    const doc = {
      sheets: [{ id: "s", name: "S", edges: [], nodes: [
        node("cmd", "command_trigger", { command: "/go", autoTransitionTo: "ask" }),
        node("twice", "command_trigger", { command: "/go", autoTransitionTo: "ask" }),
        node("ask", "message", { messageText: "Pick", collectUserInput: true, inputVariable: "x", inputValidation: "(", keyboardType: "inline",
          buttons: [{ id: "b1", text: "Go", action: "goto", target: "note" }, { id: "b2", text: "Copy", action: "copy_text" }] }),
        node("note", "userbot_message", {}),
        node("pay", "invoice", { title: "Tea", description: "A cup", amount: "0" }),
      ] }],
    };
    const { warnings } = generateBot(doc, { projectName: "w", userDatabaseEnabled: false });
    const compiled = warnings.filter((w) => w.detail?.key);
    expect(compiled.map((w) => w.detail!.key).sort()).toEqual(["button.copyNoText", "command.taken", "input.badRegex", "invoice.amountRange", "target.buttonSkipped"]);
    for (const w of compiled) {
      const key = w.detail!.key as WarningKey;
      expect(w.message).toBe(warningMessage(key, w.detail!.params!));
      expect(Object.keys(w.detail!.params!).sort()).toEqual(slotsOf(COMPILE_WARNINGS[key].en).sort());
      expect<string | undefined>(w.code).toBe((COMPILE_WARNINGS[key] as { code?: string }).code ?? "INVALID_DATA");
    }
    const taken = compiled.find((w) => w.detail!.key === "command.taken")!;
    expect(taken.message).toBe('Node "twice": command /go is already handled by trigger "cmd"; this trigger is ignored.');
    expect(taken.detail!.params).toEqual({ node: "twice", command: "go", triggerNode: "cmd" });
  });

  test("a link to a comment says the flow stops at a skipped note, not at a trigger", () => {
    const doc = {
      sheets: [{ id: "s", name: "S", edges: [], nodes: [
        node("cmd", "command_trigger", { command: "/go", autoTransitionTo: "hi" }),
        node("hi", "message", { messageText: "Hi", autoTransitionTo: "note" }),
        node("note", "comment", { text: "to do" }),
      ] }],
    };
    const { warnings } = generateBot(doc, { projectName: "w", userDatabaseEnabled: false });
    expect(warnings.map((w) => [w.code, w.message, w.detail?.key])).toEqual([
      ["TARGET_NOT_RUNNABLE", 'Node "hi": autoTransitionTo leads to "note" (comment), which is skipped; the flow stops there.', "target.skipped"],
    ]);
  });
});
