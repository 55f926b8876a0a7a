// The editor's document rules without a browser: transitions ↔ node data, derived and stored
// edges, deletes and pastes, the undo history, and the lossless round trip of the compat files.
import { describe, expect, setSystemTime, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { deriveEdges, normalizeDoc, sheetIndex, slotsOf, variablesOf, withTarget, type Doc, type SNode } from "../../web/src/editor/document";
import { addSheet, cloneNodes, deleteNodes, deleteSheet, duplicateSheet, insertNode, makeNode, moveSheet, nodesFromClipboard, pasteNodes } from "../../web/src/editor/ops";
import { EditorStore, HISTORY_LIMIT, MERGE_MS, toSaved, updateNode } from "../../web/src/editor/store";
import { boxesOf, GAP, needsLayout, layoutSheet, separate, type Box } from "../../web/src/editor/layout";

const COMPAT = join(import.meta.dir, "..", "..", "..", "shared", "compat");
const compatFiles = existsSync(COMPAT) ? ["current", "legacy"].flatMap((f) => readdirSync(join(COMPAT, f)).filter((n) => n.endsWith(".json")).map((n) => join(COMPAT, f, n))) : [];
if (!compatFiles.length) console.warn("[editor document] compat round trip SKIPPED: ../shared/compat/*/*.json not found");

const n = (id: string, type: string, data: Record<string, unknown> = {}): SNode => ({ id, type, position: { x: 0, y: 0 }, data });
const docOf = (...sheets: SNode[][]): Doc => ({ sheets: sheets.map((nodes, i) => ({ id: `s${i}`, name: `S${i}`, nodes, edges: [] })) });

describe("transitions live in node data", () => {
  test("every slot kind writes its own field", () => {
    const msg = n("m", "message", { buttons: [{ id: "b1", text: "A", action: "url", url: "x" }, { id: "b2", text: "B" }] });
    expect(slotsOf(msg).map((s) => s.handle)).toEqual(["btn:b2", "keyboard", "auto"]);
    expect(withTarget(msg, "auto", "t").data).toMatchObject({ autoTransitionTo: "t", enableAutoTransition: true });
    expect(withTarget(msg, "btn:b2", "t").data!.buttons[1]).toEqual({ id: "b2", text: "B", target: "t", action: "goto" });
    expect(withTarget(msg, "btn:b2", "t").data!.buttons[0]).toBe(msg.data!.buttons[0]);
    expect(withTarget(msg, "keyboard", "k").data!.keyboardNodeId).toBe("k");
    expect(withTarget(msg, "input", "i").data).toMatchObject({ inputTargetNodeId: "i", collectUserInput: true });
    const cond = n("c", "condition", { branches: [{ id: "x", operator: "equals", value: "1" }] });
    expect(slotsOf(cond).map((s) => s.handle)).toEqual(["branch:x", "default"]);
    expect(withTarget(cond, "branch:x", "t").data!.branches[0].target).toBe("t");
    expect(withTarget(cond, "default", "d").data!.defaultTargetId).toBe("d");
    const trig = n("tr", "command_trigger", { command: "/start" });
    expect(withTarget(trig, "auto", "m").data).toEqual({ command: "/start", autoTransitionTo: "m" });
    expect(slotsOf(n("i", "input")).map((s) => s.handle)).toEqual(["input"]);
    // unknown handle: nothing changes
    expect(withTarget(msg, "nope", "t")).toBe(msg);
  });

  test("edges are derived; targets on another sheet become portals; dangling targets are neither", () => {
    const doc = docOf([n("a", "command_trigger", { autoTransitionTo: "b" }), n("b", "message", { buttons: [{ id: "x", text: "X", target: "c" }, { id: "y", text: "Y", target: "ghost" }] })], [n("c", "message")]);
    const { local, portals } = deriveEdges(doc.sheets[0]!, sheetIndex(doc));
    expect(local.map((e) => `${e.source}:${e.sourceHandle}>${e.target}`)).toEqual(["a:auto>b"]);
    expect(portals.map((e) => `${e.source}:${e.sourceHandle}>${e.target}`)).toEqual(["b:btn:x>c"]);
  });

  test("deleting nodes clears every transition into them; a sheet delete does too", () => {
    const doc = docOf([n("a", "command_trigger", { autoTransitionTo: "b" }), n("b", "message")], [n("c", "condition", { branches: [{ id: "1", target: "b" }], defaultTargetId: "b" })]);
    const after = deleteNodes(doc, new Set(["b"]));
    expect(after.sheets[0]!.nodes.map((x) => x.id)).toEqual(["a"]);
    expect(after.sheets[0]!.nodes[0]!.data!.autoTransitionTo).toBe("");
    expect(after.sheets[1]!.nodes[0]!.data).toMatchObject({ defaultTargetId: "", branches: [{ id: "1", target: "" }] });
    const noFirst = deleteSheet(doc, "s0");
    expect(noFirst.sheets.map((s) => s.id)).toEqual(["s1"]);
    expect(noFirst.sheets[0]!.nodes[0]!.data!.defaultTargetId).toBe("");
    expect(deleteSheet(noFirst, "s1")).toBe(noFirst); // the last sheet stays
  });

  test("copies get fresh ids; transitions inside the copy follow it, outside ones stay", () => {
    const a = n("a", "message", { autoTransitionTo: "b", buttons: [{ id: "k", text: "K", target: "z" }] });
    const b = n("b", "message");
    const [ca, cb] = cloneNodes([a, b], { x: 10, y: 20 }, new Set(["a", "b", "z"]));
    expect(ca!.id).not.toBe("a");
    expect(ca!.data!.autoTransitionTo).toBe(cb!.id);
    expect(ca!.data!.buttons[0].target).toBe("z");
    expect(ca!.position).toEqual({ x: 10, y: 20 });
    expect(a.data!.autoTransitionTo).toBe("b"); // the original is untouched
    const pasted = pasteNodes(docOf([a, b]), "s0", [a], { x: 0, y: 0 });
    expect(pasted.doc.sheets[0]!.nodes).toHaveLength(3);
    expect(new Set(pasted.doc.sheets[0]!.nodes.map((x) => x.id)).size).toBe(3);
  });

  test("clipboard text: nodes, {nodes}, a document; garbage and hostile shapes are refused", () => {
    expect(nodesFromClipboard(JSON.stringify({ kind: "botloom/nodes", nodes: [n("a", "message")] }))).toHaveLength(1);
    expect(nodesFromClipboard(JSON.stringify([n("a", "message")]))).toHaveLength(1);
    expect(nodesFromClipboard(JSON.stringify(docOf([n("a", "message"), n("b", "delay")])))).toHaveLength(2);
    for (const bad of ["", "hello", "{", "null", "42", '{"nodes":"x"}', '[{"id":1,"type":"message"}]', '[{"id":"a"}]', '{"__proto__":{"x":1}}']) expect(nodesFromClipboard(bad)).toBeNull();
  });

  test("sheets: add, duplicate with fresh node ids, reorder", () => {
    const doc = docOf([n("a", "command_trigger", { autoTransitionTo: "b" }), n("b", "message")]);
    const added = addSheet(doc, "Two");
    expect(added.doc.sheets.map((s) => s.name)).toEqual(["S0", "Two"]);
    const dup = duplicateSheet(doc, "s0", "Copy");
    const copy = dup.doc.sheets[1]!;
    expect(copy.name).toBe("Copy");
    expect(copy.nodes.map((x) => x.id)).not.toContain("a");
    expect(copy.nodes[0]!.data!.autoTransitionTo).toBe(copy.nodes[1]!.id);
    expect(moveSheet(dup.doc, dup.id, -1).sheets.map((s) => s.name)).toEqual(["Copy", "S0"]);
    expect(moveSheet(dup.doc, dup.id, 1)).toBe(dup.doc);
  });

  test("variables the scenario sets, for the picker", () => {
    const doc = docOf([n("i", "input", { inputVariable: "age" }), n("s", "set_variable", { assignments: [{ variable: "total" }, null, 5] }), n("h", "http_request", { httpRequestResponseVariable: "resp" })]);
    expect(variablesOf(doc)).toEqual(expect.arrayContaining(["age", "total", "resp", "user_id", "first_name"]));
  });
});

describe("loading hostile or old documents", () => {
  test("flat legacy form, json_data, and shapes that are not documents", () => {
    expect(normalizeDoc({ nodes: [n("a", "start")], connections: [{ id: "c" }] }).sheets[0]).toMatchObject({ id: "sheet-1", nodes: [{ id: "a" }], edges: [{ id: "c" }] });
    expect(normalizeDoc({ json_data: JSON.stringify(docOf([n("a", "message")])) }).sheets[0]!.nodes).toHaveLength(1);
    for (const bad of [null, 5, "x", [], { sheets: [] }, { nodes: "x" }]) expect(normalizeDoc(bad).sheets).toHaveLength(1);
    expect(normalizeDoc({ sheets: [{ id: "s", nodes: "nope" }] }).sheets[0]!.nodes).toEqual([]);
  });

  test("a node without data or with odd buttons does not break slots", () => {
    expect(slotsOf({ id: "x", type: "message" }).map((s) => s.handle)).toEqual(["keyboard", "auto"]);
    expect(slotsOf(n("x", "message", { buttons: [null, "b", 3, { text: "ok" }] })).map((s) => s.handle)).toEqual(["btn:0", "keyboard", "auto"]);
    expect(slotsOf(n("x", "condition", { branches: "oops" })).map((s) => s.handle)).toEqual(["default"]);
  });
});

describe("undo history", () => {
  test("steps undo and redo; a new edit clears redo; at most 100 steps kept", () => {
    const s = new EditorStore(docOf([n("a", "message", { messageText: "0" })]));
    const set = (v: string) => s.commit(updateNode(s.state.doc, "a", (x) => ({ ...x, data: { messageText: v } })));
    set("1");
    set("2");
    s.undo();
    expect(s.state.doc.sheets[0]!.nodes[0]!.data!.messageText).toBe("1");
    s.redo();
    expect(s.state.doc.sheets[0]!.nodes[0]!.data!.messageText).toBe("2");
    s.undo();
    set("3");
    expect(s.state.future).toEqual([]);
    for (let i = 0; i < 150; i++) set(`x${i}`);
    expect(s.state.past).toHaveLength(HISTORY_LIMIT);
    for (let i = 0; i < 200; i++) s.undo();
    expect(s.state.doc.sheets[0]!.nodes[0]!.data!.messageText).toBe("x49");
  });

  test("typing into one field is one step per burst; a pause, another field or another edit starts a new one", () => {
    const s = new EditorStore(docOf([n("a", "message", { messageText: "", buttonText: "" }), n("b", "message")]));
    const text = () => s.state.doc.sheets[0]!.nodes[0]!.data!.messageText;
    const type = (node: string, field: string, v: string) => s.commit(updateNode(s.state.doc, node, (x) => ({ ...x, data: { ...x.data, [field]: v } })), {}, `${node}\n${field}`);
    let now = Date.parse("2026-11-29T00:00:00Z");
    setSystemTime(now);
    try {
      const para = "A paragraph typed a key at a time, far longer than the history is deep: ".repeat(3);
      for (let i = 1; i <= para.length; i++) {
        type("a", "messageText", para.slice(0, i));
        setSystemTime((now += 120));
      }
      expect(s.state.past).toHaveLength(1);
      s.undo();
      expect(text()).toBe("");
      s.redo();
      expect(text()).toBe(para);
      // after an undo or redo, typing is a step of its own
      type("a", "messageText", para + "!");
      expect(s.state.past).toHaveLength(2);
      // a pause
      setSystemTime((now += MERGE_MS));
      type("a", "messageText", para + "!?");
      expect(s.state.past).toHaveLength(3);
      // another field, another node, then an edit that is no typing
      type("a", "buttonText", "Go");
      type("b", "messageText", "B");
      s.commit(updateNode(s.state.doc, "b", (x) => ({ ...x, data: { ...x.data, formatMode: "html" } })));
      type("b", "messageText", "Bo");
      expect(s.state.past).toHaveLength(7);
      // a save, or another selection, ends the burst too
      s.markSaved(s.state.doc);
      type("b", "messageText", "Bob");
      s.select(["a"]);
      type("b", "messageText", "Bobby");
      expect(s.state.past).toHaveLength(9);
      for (const expected of ["Bob", "Bo", "B"]) {
        s.undo();
        expect(s.state.doc.sheets[0]!.nodes[1]!.data!.messageText).toBe(expected);
      }
    } finally {
      setSystemTime();
    }
  });

  test("a drag is one step however many moves it has", () => {
    const s = new EditorStore(docOf([n("a", "message")]));
    for (let i = 1; i <= 10; i++) s.movePositions(new Map([["a", { x: i, y: i }]]), true);
    s.movePositions(new Map([["a", { x: 11, y: 11 }]]), false);
    expect(s.state.past).toHaveLength(1);
    s.undo();
    expect(s.state.doc.sheets[0]!.nodes[0]!.position).toEqual({ x: 0, y: 0 });
    expect(s.dirty).toBe(false);
  });
});

describe("what is saved", () => {
  test("unchanged transitions keep the stored edges; a changed sheet gets edges rebuilt from node data", () => {
    const loaded: Doc = { sheets: [{ id: "s", nodes: [n("a", "command_trigger", { autoTransitionTo: "b" }), n("b", "message")], connections: [{ id: "old", source: "a", target: "b", extra: 1 }] }] };
    const moved = updateNode(loaded, "b", (x) => ({ ...x, position: { x: 500, y: 9 } }));
    expect(toSaved(moved, loaded, "s").sheets[0]!.connections).toEqual(loaded.sheets[0]!.connections);
    const rewired = updateNode(loaded, "a", (x) => withTarget(x, "auto", ""));
    const saved = toSaved(rewired, loaded, "s").sheets[0]!;
    expect(saved.connections).toEqual([]);
    expect(saved.edges).toBeUndefined();
  });

  test.skipIf(!compatFiles.length)("every compat file: opened and saved without edits changes nothing", () => {
    for (const file of compatFiles) {
      const raw = JSON.parse(readFileSync(file, "utf8")).data;
      const doc = normalizeDoc(structuredClone(raw));
      const saved = toSaved(doc, doc, doc.activeSheetId ?? doc.sheets[0]!.id);
      expect(saved).toEqual(raw);
    }
  });

  test.skipIf(!compatFiles.length)("every compat file: an auto-layout moves nodes only, never their data", async () => {
    for (const file of compatFiles.slice(0, 4)) {
      const raw = JSON.parse(readFileSync(file, "utf8")).data;
      let doc = normalizeDoc(structuredClone(raw));
      for (const s of doc.sheets) doc = await layoutSheet(doc, s.id);
      const strip = (d: Doc) => d.sheets.map((s) => s.nodes.map(({ position, ...rest }) => rest));
      expect(strip(toSaved(doc, normalizeDoc(raw), doc.sheets[0]!.id))).toEqual(strip(raw));
      for (const s of doc.sheets) expect(needsLayout(s)).toBe(false);
    }
  }, 60_000);

  test("needsLayout: missing positions or piled-up nodes", () => {
    expect(needsLayout({ id: "s", nodes: [{ id: "a", type: "message" }] })).toBe(true);
    expect(needsLayout({ id: "s", nodes: [n("a", "message"), n("b", "message"), n("c", "message")] })).toBe(true);
    expect(needsLayout({ id: "s", nodes: [n("a", "message"), { ...n("b", "message"), position: { x: 400, y: 0 } }] })).toBe(false);
  });
});

describe("no node on another", () => {
  const hit = (a: Box, b: Box) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
  const apply = (boxes: Box[], moved: Map<string, { x: number; y: number }>) => boxes.map((b) => ({ ...b, ...(moved.get(b.id) ?? {}) }));
  const pairs = (boxes: Box[]) => boxes.flatMap((a, i) => boxes.slice(i + 1).filter((b) => hit(a, b)).map((b) => `${a.id}×${b.id}`));

  test("separate: a pile, a chain of overlaps and a box under fixed ones all come apart; nothing else moves", () => {
    const pile: Box[] = Array.from({ length: 12 }, (_, i) => ({ id: `p${i}`, x: (i % 3) * 10, y: 0, w: 240, h: 90 + i }));
    const spread = apply(pile, separate(pile));
    expect(pairs(spread)).toEqual([]);
    const apart: Box[] = [{ id: "a", x: 0, y: 0, w: 240, h: 90 }, { id: "b", x: 600, y: 0, w: 240, h: 90 }];
    expect(separate(apart).size).toBe(0);
    // a new box dropped on two fixed ones slides below both; they stay
    const fixed: Box[] = [{ id: "f1", x: 0, y: 0, w: 240, h: 100 }, { id: "f2", x: 0, y: 100 + GAP, w: 240, h: 100 }];
    const moved = separate([...fixed, { id: "new", x: 20, y: 20, w: 240, h: 90 }], new Set(["f1", "f2"]));
    expect([...moved.keys()]).toEqual(["new"]);
    expect(moved.get("new")!.y).toBe(100 + GAP + 100 + GAP);
  });

  test("auto-layout with measured sizes leaves no overlap, also for tall cards and a long chain", async () => {
    const nodes = Array.from({ length: 24 }, (_, i) => n(`m${i}`, "message", { autoTransitionTo: i < 23 ? `m${i + 1}` : "" }));
    const sizes = new Map(nodes.map((x, i) => [x.id, { width: 240, height: 80 + (i % 5) * 60 }]));
    const doc = await layoutSheet(docOf(nodes), "s0", sizes, 16 / 9);
    const boxes = boxesOf(doc.sheets[0]!.nodes, sizes);
    expect(pairs(boxes)).toEqual([]);
    // a chain of 24 wraps into rows instead of one 8000 px strip
    const w = Math.max(...boxes.map((b) => b.x + b.w)) - Math.min(...boxes.map((b) => b.x));
    const h = Math.max(...boxes.map((b) => b.y + b.h)) - Math.min(...boxes.map((b) => b.y));
    expect(w / h).toBeLessThan(6);
  });

  test("insertNode puts the node on the transition: source → new → old target", () => {
    const doc = docOf([n("a", "message", { autoTransitionTo: "b", enableAutoTransition: true }), n("b", "message")]);
    const mid = makeNode("delay", { x: 0, y: 0 });
    const next = insertNode(doc, "s0", mid, { source: "a", handle: "auto" }, "b");
    const byId = new Map(next.sheets[0]!.nodes.map((x) => [x.id, x]));
    expect(byId.get("a")!.data!.autoTransitionTo).toBe(mid.id);
    expect(byId.get(mid.id)!.data!.autoTransitionTo).toBe("b");
  });
});
