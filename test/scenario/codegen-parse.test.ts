// The generator parses only the parts of a document it reads (documentNodesSchema). It must accept
// and reject exactly the documents the full documentSchema does, and read the same values from them.
import { describe, expect, test } from "bun:test";
import { documentNodesSchema, documentSchema } from "../../src/scenario/model";

const node = (over: Record<string, unknown> = {}) => ({ id: "n1", type: "message", position: { x: 1, y: 2 }, data: { messageText: "hi" }, ...over });
const sheet = (over: Record<string, unknown> = {}) => ({ id: "s1", name: "Main", nodes: [node()], edges: [], ...over });
const doc = (over: Record<string, unknown> = {}) => ({ version: 2, sheets: [sheet()], ...over });

const HOSTILE: Record<string, unknown> = {
  ok: doc(),
  "no sheets": { version: 2 },
  "sheets a string": doc({ sheets: "x" }),
  "sheet null": doc({ sheets: [null] }),
  "sheet an array": doc({ sheets: [[]] }),
  "nodes missing": doc({ sheets: [{ id: "s1" }] }),
  "nodes an object": doc({ sheets: [sheet({ nodes: {} })] }),
  "node a number": doc({ sheets: [sheet({ nodes: [7] })] }),
  "node id empty": doc({ sheets: [sheet({ nodes: [node({ id: "" })] })] }),
  "node id a number": doc({ sheets: [sheet({ nodes: [node({ id: 5 })] })] }),
  "node type missing": doc({ sheets: [sheet({ nodes: [node({ type: undefined })] })] }),
  "data an array": doc({ sheets: [sheet({ nodes: [node({ data: [1, 2] })] })] }),
  "data a string": doc({ sheets: [sheet({ nodes: [node({ data: "{}" })] })] }),
  "data null": doc({ sheets: [sheet({ nodes: [node({ data: null })] })] }),
  "data with __proto__ key": doc({ sheets: [sheet({ nodes: [node({ data: JSON.parse('{"__proto__": {"x": 1}, "messageText": "a"}') })] })] }),
  "position garbage": doc({ sheets: [sheet({ nodes: [node({ position: "here" })] })] }),
  "edges garbage": doc({ sheets: [sheet({ edges: "x", connections: [1, null] })] }),
  "sheet id a number, name an object": doc({ sheets: [sheet({ id: 3, name: {} })] }),
  "version a string": doc({ version: "2", interSheetConnections: "x", activeSheetId: 1 }),
  "a document that is an array": [doc()],
  "null": null,
};

/** What the generator reads from a parsed document. */
const view = (d: { sheets: { id?: string; name?: string; nodes: { id: string; type: string; data?: Record<string, unknown> }[] }[] }) =>
  d.sheets.map((s) => ({ id: s.id, name: s.name, nodes: s.nodes.map((n) => ({ id: n.id, type: n.type, data: n.data })) }));

describe("documentNodesSchema", () => {
  for (const [name, input] of Object.entries(HOSTILE)) {
    test(`${name}: same verdict and same values as documentSchema`, () => {
      const full = documentSchema.safeParse(input);
      const part = documentNodesSchema.safeParse(input);
      expect(part.success).toBe(full.success);
      if (full.success && part.success) expect(view(part.data)).toEqual(view(full.data));
    });
  }

  test("the hostile set holds both verdicts", () => {
    const verdicts = Object.values(HOSTILE).map((d) => documentSchema.safeParse(d).success);
    expect(verdicts.filter(Boolean).length).toBeGreaterThan(5);
    expect(verdicts.filter((v) => !v).length).toBeGreaterThan(5);
  });

  test("positions, edges and unknown fields are not carried along", () => {
    const parsed = documentNodesSchema.parse(doc({ extra: 1 }));
    expect(Object.keys(parsed)).toEqual(["sheets"]);
    expect(Object.keys(parsed.sheets[0]!).sort()).toEqual(["id", "name", "nodes"]);
    expect(Object.keys(parsed.sheets[0]!.nodes[0]!).sort()).toEqual(["data", "id", "type"]);
  });
});
