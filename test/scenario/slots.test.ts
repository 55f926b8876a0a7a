// Issue 28 item 1: one table of transition slots (src/scenario/slots.ts) that validation, editing
// (MCP delete_node), the compiler and the web editor all read. The conformance tests hold the table
// to the compiler: every field a compile-*.ts follows is in it, and for every node type the targets
// the compiler follows are exactly the table's slots.
import { afterAll, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { CompileContext } from "../../src/scenario/codegen/compile-context";
import { compileScenario } from "../../src/scenario/codegen/compile";
import { connectNodes, deleteNode, type Doc } from "../../src/scenario/edit";
import { SLOTS, slotsOfNode, slotSpecsOf, targetFields, targetsOfNode } from "../../src/scenario/slots";
import { validateScenario } from "../../src/scenario/validate";
import { slotsOf } from "../../web/src/editor/document";
import { logicDataScenario } from "./fixtures-logic";

const CODEGEN = join(import.meta.dir, "..", "..", "src", "scenario", "codegen");
const node = (id: string, type: string, data: Record<string, unknown> = {}) => ({ id, type, position: { x: 0, y: 0 }, data });
const doc = (...nodes: ReturnType<typeof node>[]) => ({ version: 2, sheets: [{ id: "s1", name: "Main", nodes, edges: [] }] });

/** Every target the compiler asks ctx.target about, while the test runs. */
const followed: { from: string; id: string }[] = [];
const original = CompileContext.prototype.target;
CompileContext.prototype.target = function (this: CompileContext, from, id, what) {
  if (id) followed.push({ from: from.id, id });
  return original.call(this, from, id, what);
};
afterAll(() => {
  CompileContext.prototype.target = original;
});

/** Data that sets every place a target may be written, each to its own id. */
function everyPlace(): Record<string, unknown> {
  const button = (id: string, extra: Record<string, unknown> = {}) => ({ id, text: id, action: "goto", target: `to-${id}`, ...extra });
  const variant = (id: string, extra: Record<string, unknown>) => ({
    id,
    condition: "user_data_exists",
    variableName: "v",
    messageText: "hi",
    keyboardType: "inline",
    buttons: [button(`${id}-b`), { id: `${id}-s`, text: "S", action: "selection" }],
    multiSelectVariable: "picked",
    continueButtonTarget: `to-${id}-continue`,
    keyboardNodeId: `to-${id}-keyboard`,
    ...extra,
  });
  const data: Record<string, unknown> = {
    messageText: "hi",
    inputPrompt: "Your answer?",
    enableAutoTransition: true,
    collectUserInput: true,
    inputVariable: "answer",
    variable: "v",
    sourceVariable: "list",
    command: "/go",
    textSynonyms: ["go"],
    editMode: "markup",
    editKeyboardMode: "node",
    enableConditionalMessages: true,
    multiSelectVariable: "picked",
    keyboardType: "inline",
    buttons: [
      button("goto"),
      button("contact", { action: "contact" }),
      button("asks", { requestLocation: true }),
      { id: "sel", text: "Sel", action: "selection" },
      { id: "url", text: "Url", action: "url", url: "https://example.com" },
    ],
    branches: [{ id: "br", label: "Br", operator: "equals", value: "1", target: "to-br" }],
    parallelBranches: [{ id: "pb", label: "Pb", target: "to-pb", onErrorTarget: "to-pb-error" }],
    conditionalMessages: [
      variant("cm1", { collectUserInput: true, inputTargetNodeId: "to-cm1-input" }),
      variant("cm2", { waitForTextInput: true, nextNodeAfterInput: "to-cm2-after" }),
    ],
  };
  for (const f of targetFields()) if (!f.includes("[]")) data[f] = `to-${f}`;
  return data;
}

/** The ids the compiler follows from a node of `type` holding every place. */
function compilerTargets(type: string, data: Record<string, unknown>): Set<string> {
  followed.length = 0;
  // a keyboard node compiles only once a transition reaches it
  const entry = type === "keyboard" ? [node("entry", "command_trigger", { command: "/k", autoTransitionTo: "n" })] : [];
  // every target exists (a parallel branch's onErrorTarget is read only once its target runs)
  const targets = [...new Set(JSON.stringify(data).match(/"to-[^"]+"/g)!.map((s) => JSON.parse(s) as string))].map((id) => node(id, "message", { messageText: id }));
  compileScenario(doc(...entry, node("n", type, data), ...targets) as never);
  return new Set(followed.filter((f) => f.from === "n" && f.id.startsWith("to-")).map((f) => f.id));
}

describe("the slot table", () => {
  test("every field a compiler follows with ctx.target is a field of the table", () => {
    const known = new Set([...targetFields()].map((f) => f.split(".").pop()!));
    const fields: string[] = [];
    for (const file of readdirSync(CODEGEN).filter((f) => /^compile-.*\.ts$|^compile\.ts$/.test(f) && f !== "compile-context.ts")) {
      for (const m of readFileSync(join(CODEGEN, file), "utf8").matchAll(/ctx\.target\(\s*\w+,\s*([^,]+),/g)) {
        const names = [...m[1]!.matchAll(/\.(\w+)(?![\w.(])/g)].map((x) => x[1]!);
        expect(names.length).toBeGreaterThan(0); // a call site the scan cannot read is a failure, not a pass
        fields.push(...names.map((n) => `${file}: ${n}`));
      }
    }
    expect(fields.length).toBeGreaterThan(20);
    expect(fields.filter((f) => !known.has(f.split(": ")[1]!))).toEqual([]);
  });

  test("for every node type, the compiler follows exactly the table's targets (keyboards are attached, not followed)", () => {
    const data = everyPlace();
    const mismatches: string[] = [];
    for (const type of Object.keys(SLOTS)) {
      const table = new Set(targetsOfNode(type, data).filter((s) => s.kind !== "keyboard").map((s) => s.target));
      const compiler = compilerTargets(type, data);
      for (const id of compiler) if (!table.has(id)) mismatches.push(`${type}: compiler follows ${id}, the table does not list it`);
      for (const id of table) if (!compiler.has(id)) mismatches.push(`${type}: the table lists ${id}, the compiler does not follow it`);
    }
    expect(mismatches).toEqual([]);
  });

  test("the compiler's keyboard attachments are keyboard slots of the table", () => {
    const data = everyPlace();
    for (const type of ["message", "sticker", "edit_message"]) {
      const slots = targetsOfNode(type, data).filter((s) => s.kind === "keyboard").map((s) => s.what);
      expect(slots.length).toBeGreaterThan(0);
    }
    expect(targetsOfNode("message", data).filter((s) => s.kind === "keyboard").map((s) => s.path)).toEqual([
      "conditionalMessages[cm1].keyboardNodeId",
      "conditionalMessages[cm2].keyboardNodeId",
      "keyboardNodeId",
    ]);
  });

  test("the editor's slots are the table's, for every type and for a type the bot does not run", () => {
    const data = everyPlace();
    for (const type of [...Object.keys(SLOTS), "userbot_message", "made_up"]) {
      const editor = slotsOf({ id: "n", type, data });
      expect(editor).toEqual(slotsOfNode(type, data));
      expect(editor.length).toBe(type === "comment" ? 0 : editor.length);
    }
    expect(slotSpecsOf("made_up").length).toBeGreaterThan(3);
  });

  test("the table is pure code the web app can bundle: it imports nothing", () => {
    const text = readFileSync(join(import.meta.dir, "..", "..", "src", "scenario", "slots.ts"), "utf8");
    expect(text).not.toMatch(/^\s*import\b/m);
    expect(text).not.toMatch(/\brequire\(|process\.|Bun\./);
  });
});

describe("what the one table fixes", () => {
  test("fixtures-logic validates with no warning (loop and parallel targets reach their nodes)", () => {
    // its questions are typed after a command with no prompt on purpose (bot-logic tests answer them)
    const result = validateScenario(logicDataScenario);
    expect({ ...result, warnings: result.warnings.filter((w) => w.code !== "QUESTION_MISSING") }).toEqual({ errors: [], warnings: [] });
  });

  test("a loop whose afterLoopTo names a missing node, and a parallel branch to one, get DANGLING_TARGET", () => {
    const d = doc(
      node("go", "command_trigger", { command: "/go", autoTransitionTo: "loop" }),
      node("loop", "loop", { sourceVariable: "xs", autoTransitionTo: "body", afterLoopTo: "ghost" }),
      node("body", "parallel_split", { parallelBranches: [{ id: "p", label: "P", target: "phantom", onErrorTarget: "body" }] }),
    );
    const dangling = validateScenario(d).warnings.filter((w) => w.code === "DANGLING_TARGET");
    expect(dangling.map((w) => w.message)).toEqual([
      'Node "loop": afterLoopTo points to node "ghost", which does not exist.',
      'Node "body": branch "P" points to node "phantom", which does not exist.',
    ]);
  });

  test("delete_node clears afterLoopTo, parallel-branch and conditional-message targets, and says so", () => {
    const before = doc(
      node("loop", "loop", { sourceVariable: "xs", afterLoopTo: "gone" }),
      node("par", "parallel_split", { parallelBranches: [{ id: "p", target: "gone", onErrorTarget: "gone" }, { id: "q", target: "loop" }] }),
      node("msg", "message", {
        enableConditionalMessages: true,
        conditionalMessages: [{ id: "c", keyboardNodeId: "gone", nextNodeAfterInput: "gone", buttons: [{ id: "b", text: "B", target: "gone" }] }],
      }),
      node("gone", "message", { messageText: "bye" }),
    ) as unknown as Doc;
    const { doc: after, clearedReferences } = deleteNode(before, "gone");
    expect(clearedReferences.sort()).toEqual([
      "loop.afterLoopTo",
      "msg.conditionalMessages[c].buttons[b]",
      "msg.conditionalMessages[c].keyboardNodeId",
      "msg.conditionalMessages[c].nextNodeAfterInput",
      "par.parallelBranches[p]",
      "par.parallelBranches[p].onErrorTarget",
    ]);
    const nodes = after.sheets[0]!.nodes;
    expect(nodes.map((n) => n.id)).toEqual(["loop", "par", "msg"]);
    expect(JSON.stringify(nodes)).not.toContain('"gone"');
    expect((nodes[1]!.data.parallelBranches as { target: string }[])[1]!.target).toBe("loop"); // others stay
  });

  test("connect_nodes writes the slot the table names for the node's type, and refuses a kind the type lacks", () => {
    const base = doc(
      node("loop", "loop", { sourceVariable: "xs" }),
      node("par", "parallel_split", { parallelBranches: [{ id: "p1", label: "First" }, { label: "Second" }] }),
      node("ask", "input", { inputVariable: "a" }),
      node("msg", "message", { messageText: "hi", buttons: [{ id: "u", text: "Site", action: "url", url: "https://example.com" }] }),
    ) as unknown as Doc;
    const after = connectNodes(base, { sourceId: "loop", targetId: "msg", via: "default" });
    expect(after.wrote).toBe("afterLoopTo");
    expect(after.doc.sheets[0]!.nodes[0]!.data.afterLoopTo).toBe("msg");
    const second = connectNodes(base, { sourceId: "par", targetId: "msg", via: "branch", branch: "Second" });
    expect((second.doc.sheets[0]!.nodes[1]!.data.parallelBranches as { target?: string }[]).map((b) => b.target)).toEqual([undefined, "msg"]);
    expect(second.doc.sheets[0]!.edges).toEqual([{ id: "e_par_pbranch:1_msg", source: "par", target: "msg", sourceHandle: "pbranch:1" }]);
    // the handle is the editor's, so the canvas draws the same edge
    expect(slotsOf(second.doc.sheets[0]!.nodes[1] as never).find((s) => s.target === "msg")!.handle).toBe("pbranch:1");
    const button = connectNodes(base, { sourceId: "msg", targetId: "ask", via: "button", button: "Site" });
    expect((button.doc.sheets[0]!.nodes[3]!.data.buttons as object[])[0]).toMatchObject({ action: "goto", target: "ask" });
    expect(() => connectNodes(base, { sourceId: "ask", targetId: "msg", via: "auto" })).toThrow('Node "ask" (input) takes no "auto" connection; it takes: button, keyboard, input');
    expect(() => connectNodes(base, { sourceId: "msg", targetId: "ask", via: "branch", branch: "x" })).toThrow("takes no \"branch\" connection");
    expect(() => connectNodes(base, { sourceId: "par", targetId: "msg", via: "branch" })).toThrow("Name the branch to connect");
    expect(() => connectNodes(base, { sourceId: "par", targetId: "msg", via: "branch", branch: "Third" })).toThrow('Node "par" has no branch "Third"');
    expect(() => connectNodes(base, { sourceId: "par", targetId: "msg", via: "sideways" as never })).toThrow('Unknown connection kind "sideways"');
  });
});
