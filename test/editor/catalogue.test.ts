// The editor's palette names exactly the node types the engine knows (runs or plans to run).
import { describe, expect, test } from "bun:test";
import { LEVEL1_TYPES, LEVEL2_TYPES } from "../../src/scenario/model";
import { GROUPS, NODE_KINDS } from "../../web/src/editor/catalogue";

describe("editor node catalogue", () => {
  test("names every engine type once, and nothing else", () => {
    const engine = [...LEVEL1_TYPES, ...LEVEL2_TYPES].sort();
    const editor = NODE_KINDS.map((k) => k.type);
    expect(new Set(editor).size).toBe(editor.length);
    expect([...editor].sort()).toEqual(engine);
  });

  test("every kind sits in a known group and gets fresh default data each time", () => {
    for (const k of NODE_KINDS) {
      expect(GROUPS).toContain(k.group);
      const a = k.defaults();
      expect(a).not.toBe(k.defaults());
      expect(typeof a).toBe("object");
    }
  });
});
