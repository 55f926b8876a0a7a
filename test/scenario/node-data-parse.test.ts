// parseNodeData parses node data with the schema narrowed to the fields present. It must give what
// schema.parse gives (same values, same key order) for every node of the real files, the templates,
// the synthetic scenarios and hostile data, and fall back to the full parse where narrowing is wrong.
import { describe, expect, test } from "bun:test";
import { z } from "zod";
import {
  commandTriggerDataSchema,
  conditionDataSchema,
  delayDataSchema,
  inputDataSchema,
  keyboardDataSchema,
  messageDataSchema,
  nodeSchema,
  normalizeDocument,
  parseNodeData,
  setVariableDataSchema,
  textTriggerDataSchema,
} from "../../src/scenario/model";
import { goldenInputs } from "./codegen-golden";

const SCHEMAS = { messageDataSchema, keyboardDataSchema, commandTriggerDataSchema, textTriggerDataSchema, inputDataSchema, conditionDataSchema, setVariableDataSchema, delayDataSchema };

/** Values with their key order (toEqual ignores order; the printed program does not). */
const exact = (v: unknown) => JSON.stringify(v, (_k, x) => (x === undefined ? "<undefined>" : x));

function sameAsFull(data: Record<string, unknown>) {
  for (const schema of Object.values(SCHEMAS)) {
    const full = schema.parse(data);
    const part = parseNodeData(schema, data);
    expect(exact(part)).toBe(exact(full));
    expect(Object.keys(part)).toEqual(Object.keys(full));
  }
}

const HOSTILE: Record<string, unknown>[] = [
  {},
  { messageText: 5, buttons: "x", keyboardLayout: [], formatMode: null },
  { messageText: undefined, synonyms: ["a", 2], extra: { deep: [1] }, autoTransitionTo: ["x"] },
  { buttons: [{ id: 1, text: "a", action: {} }, null, "b"], conditionalMessages: [{ messageText: 3 }, 7] },
  { assignments: [{ variable: "v", value: true, mode: 1 }], branches: [{ operator: "else", value: {} }], delaySeconds: "15" },
  JSON.parse('{"__proto__": {"messageText": "p"}, "constructor": "c", "toString": 1, "messageText": "ok"}'),
  Object.assign(Object.create(null), { messageText: "no prototype", buttons: [] }),
  Object.fromEntries(Object.keys(messageDataSchema.shape).map((k, i) => [k, i % 3 === 0 ? "s" : i % 3 === 1 ? true : [i]])),
];

describe("parseNodeData", () => {
  test("same result as schema.parse for every node of the compat files, templates and synthetic scenarios", () => {
    let nodes = 0;
    for (const input of Object.values(goldenInputs())) {
      const doc = normalizeDocument(input) as { sheets: { nodes: { data?: unknown }[] }[] };
      for (const sheet of doc.sheets) {
        for (const n of sheet.nodes) {
          sameAsFull(nodeSchema.parse(n).data ?? {});
          nodes++;
        }
      }
    }
    expect(nodes).toBeGreaterThan(2000);
  });

  test("same result for hostile data (wrong types, prototype keys, every field set)", () => {
    for (const data of HOSTILE) sameAsFull(data);
  });

  test("past the cache limit (many different field sets) it still gives the full parse's result", () => {
    const keys = Object.keys(messageDataSchema.shape);
    for (let i = 1; i < 200; i++) {
      const data = Object.fromEntries(keys.filter((_, k) => (i >> k % 8) & 1 || k === i % keys.length).map((k) => [k, "v"]));
      sameAsFull(data);
    }
  });

  test("a schema with a required field is parsed whole: a missing field still fails", () => {
    const schema = z.object({ id: z.string(), note: z.string().optional().catch(undefined) }).loose();
    expect(() => parseNodeData(schema, { note: "n" })).toThrow();
    expect(parseNodeData(schema, { id: "a", x: 1 })).toEqual({ id: "a", x: 1 });
  });
});
