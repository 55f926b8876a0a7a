import { describe, expect, test } from "bun:test";
import { diffDocs } from "../../web/src/editor/version-diff";

const n = (id: string, text: string, x = 0) => ({ id, type: "message", position: { x, y: 0 }, data: { messageText: text } });
const doc = (...sheets: { id: string; nodes: ReturnType<typeof n>[] }[]) => ({ version: 2, sheets: sheets.map((s) => ({ ...s, name: s.id, edges: [] })) });

describe("diffDocs", () => {
  test("added, removed, changed and same; a move alone is no change", () => {
    const before = doc({ id: "main", nodes: [n("a", "hi"), n("b", "bye"), n("c", "keep")] });
    const after = doc({ id: "main", nodes: [n("a", "hello"), n("c", "keep", 300), n("d", "new")] });
    const d = diffDocs(before, after);
    expect(d.counts).toEqual({ added: 1, removed: 1, changed: 1, same: 1 });
    expect(d.sheets[0]!.nodes.map((x) => [x.node.id, x.change])).toEqual([["a", "changed"], ["c", "same"], ["d", "added"], ["b", "removed"]]);
  });

  test("a removed sheet's nodes are shown as removed on a sheet of their own; the first version is all new", () => {
    const before = doc({ id: "main", nodes: [n("a", "hi")] }, { id: "shop", nodes: [n("s", "shop")] });
    const after = doc({ id: "main", nodes: [n("a", "hi")] });
    const d = diffDocs(before, after);
    expect(d.sheets.map((s) => s.id)).toEqual(["main", "shop"]);
    expect(d.sheets[1]!.nodes[0]!.change).toBe("removed");
    expect(diffDocs(null, after).counts).toEqual({ added: 1, removed: 0, changed: 0, same: 0 });
  });
});
