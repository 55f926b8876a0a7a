// The editor's palette names exactly the node types the engine runs.
import { describe, expect, test } from "bun:test";
import { CORE_TYPES, isRunnableType, RUNNABLE_TYPES } from "../../src/scenario/model";
import { LOGIC_TYPES } from "../../src/scenario/types-logic";
import { ACTION_TYPES, TRIGGER_NODE_TYPES } from "../../src/scenario/types-messaging";
import { GROUPS, NODE_KINDS } from "../../web/src/editor/catalogue";
import { NODE_DESCRIPTIONS } from "../../src/scenario/node-descriptions";
import { nodeCatalogue } from "../../src/mcp/resources";

describe("editor node catalogue", () => {
  test("names every engine type once, and nothing else", () => {
    const engine = [...new Set<string>([...CORE_TYPES, ...LOGIC_TYPES, ...ACTION_TYPES, ...TRIGGER_NODE_TYPES, "comment"])].sort();
    // the engine's own oracle agrees with the list above
    expect([...RUNNABLE_TYPES].sort()).toEqual(engine);
    for (const type of engine) expect(isRunnableType(type)).toBe(true);
    for (const type of ["userbot_message", "client_auth", "nope"]) expect(isRunnableType(type)).toBe(false);
    const editor = NODE_KINDS.map((k) => k.type);
    expect(new Set(editor).size).toBe(editor.length);
    expect([...editor].sort()).toEqual(engine);
  });

  test("every type the engine runs has a one-line description in English and Russian, served by the catalogue", () => {
    const missing = RUNNABLE_TYPES.filter((t) => !NODE_DESCRIPTIONS[t]?.en.trim() || !/[а-я]/i.test(NODE_DESCRIPTIONS[t]?.ru ?? ""));
    expect(missing).toEqual([]);
    expect(Object.keys(NODE_DESCRIPTIONS).filter((t) => !isRunnableType(t))).toEqual([]);
    const served = nodeCatalogue().types.find((t) => t.type === "input") as { description?: { en: string; ru: string } };
    expect(served.description).toEqual(NODE_DESCRIPTIONS.input!);
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

describe("properties forms offer what the engine evaluates", () => {
  test("every condition operator and assignment mode of the generated runtime is in the pickers", async () => {
    const { readFileSync } = await import("node:fs");
    const { join } = await import("node:path");
    const { ASSIGN_MODES, OPERATORS } = await import("../../web/src/editor/fields");
    const cases = (file: string) => new Set([...readFileSync(join(import.meta.dir, "..", "..", "src", "scenario", "codegen", "runtime", file), "utf8").matchAll(/case "([a-z_]+)"/g)].map((m) => m[1]!));
    for (const op of cases("conditions.ts")) expect(OPERATORS).toContain(op);
    const assign = readFileSync(join(import.meta.dir, "..", "..", "src", "scenario", "codegen", "runtime", "assign.ts"), "utf8");
    const modes = new Set([...assign.slice(assign.indexOf('case "set"') - 200).matchAll(/case "([a-z_]+)"/g)].map((m) => m[1]!));
    for (const mode of modes) expect(ASSIGN_MODES).toContain(mode);
  });
});
