// The editor's palette names exactly the node types the engine knows (runs or plans to run).
import { describe, expect, test } from "bun:test";
import { isLevel1Type, isLevel2Type, LEVEL1_TYPES, LEVEL2_TYPES } from "../../src/scenario/model";
import { LOGIC_TYPES } from "../../src/scenario/types-logic";
import { ACTION_TYPES, TRIGGER_NODE_TYPES } from "../../src/scenario/types-messaging";
import { GROUPS, NODE_KINDS } from "../../web/src/editor/catalogue";

describe("editor node catalogue", () => {
  test("names every engine type once, and nothing else", () => {
    const engine = [...new Set<string>([...LEVEL1_TYPES, ...LEVEL2_TYPES, ...LOGIC_TYPES, ...ACTION_TYPES, ...TRIGGER_NODE_TYPES, "comment"])].sort();
    // the engine's own oracle agrees with the list above
    for (const type of engine) expect(isLevel1Type(type) || isLevel2Type(type)).toBe(true);
    for (const type of ["userbot_message", "client_auth", "nope"]) expect(isLevel1Type(type) || isLevel2Type(type)).toBe(false);
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
