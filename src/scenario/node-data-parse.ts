// Node data parsing for the generator, cheaper than zod running every field of a schema.
import { z } from "zod";

/**
 * `schema.parse(data)` for node data, made cheaper: zod runs every field of a schema, present or
 * not (sixty for a message), while a node sets a handful. When every field is optional (absent ones
 * add nothing and never fail), the schema narrowed to the fields present gives the same object, in
 * the same key order, at a third of the cost. Narrowed schemas are kept per set of present fields,
 * at most NARROWED_MAX per schema: past that (a document made to defeat it) the full parse runs.
 */
const NARROWED_MAX = 64;
interface Narrowing {
  /** field name → its place in the schema (the parsed object keeps the schema's order) */
  order: Map<string, number>;
  parts: Map<string, z.ZodObject>;
}
const narrowings = new WeakMap<z.ZodObject, Narrowing | null>();

export function parseNodeData<T extends z.ZodObject>(schema: T, data: Record<string, unknown>): z.output<T> {
  let n = narrowings.get(schema);
  if (n === undefined) {
    const fields = Object.entries(schema.shape);
    const allOptional = fields.every(([, f]) => f._zod.optin === "optional" && f._zod.optout === "optional");
    // zod tells present from absent with `in`; no field is named like an Object.prototype member,
    // so the data's own keys are the present fields.
    const inherited = fields.some(([k]) => k in Object.prototype);
    n = allOptional && !inherited ? { order: new Map(fields.map(([k], i) => [k, i])), parts: new Map() } : null;
    narrowings.set(schema, n);
  }
  if (n === null || Object.getPrototypeOf(data) !== Object.prototype) return schema.parse(data);
  const order = n.order;
  const keys = Object.keys(data).filter((k) => order.has(k));
  keys.sort((a, b) => order.get(a)! - order.get(b)!);
  const signature = keys.join("\u0000");
  let part = n.parts.get(signature);
  if (!part) {
    if (n.parts.size >= NARROWED_MAX) return schema.parse(data);
    part = schema.pick(Object.fromEntries(keys.map((k) => [k, true])) as never) as z.ZodObject;
    n.parts.set(signature, part);
  }
  return part.parse(data) as z.output<T>;
}
