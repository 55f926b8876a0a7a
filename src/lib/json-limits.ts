// Size limits of JSON documents (docs/api.md#limits: nesting deeper than 64 levels or more than 20,000
// nodes per project is 400). Checked without recursion, before anything recursive (validation,
// JSON.stringify, code generation, pretty-printed export) walks the value: a 40,000-level document
// overflowed the stack of those walks (a 500), a 20,000-level one exported as a gigabyte.
import { isObject } from "./values";

export const MAX_JSON_DEPTH = 64;
export const MAX_SCENARIO_NODES = 20_000;

/**
 * The first container nested deeper than `max` levels (the outermost value is level 1), as the
 * path that leads to it, or null. Iterative: the cost is one visit per value, and it stops at the
 * first one too deep.
 */
export function tooDeep(value: unknown, max = MAX_JSON_DEPTH): string | null {
  if (value === null || typeof value !== "object") return null;
  // Parent links instead of a path per value: the path is spelled only for the one that fails.
  type Frame = { v: object; depth: number; key: string; up: Frame | null };
  const stack: Frame[] = [{ v: value, depth: 1, key: "", up: null }];
  while (stack.length > 0) {
    const f = stack.pop()!;
    if (f.depth > max) return pathOf(f);
    if (Array.isArray(f.v)) {
      for (let i = 0; i < f.v.length; i++) {
        const child = f.v[i];
        if (child !== null && typeof child === "object") stack.push({ v: child, depth: f.depth + 1, key: String(i), up: f });
      }
    } else {
      for (const k in f.v) {
        const child = (f.v as Record<string, unknown>)[k];
        if (child !== null && typeof child === "object") stack.push({ v: child, depth: f.depth + 1, key: k, up: f });
      }
    }
  }
  return null;
}

function pathOf(f: { key: string; up: { key: string; up: unknown } | null }): string {
  const keys: string[] = [];
  for (let x: typeof f | null = f; x && x.up; x = x.up as typeof f | null) keys.push(x.key);
  const path = keys.reverse();
  // a 40,000-level path is no message: its start and its end say where
  return path.length > 12 ? `${path.slice(0, 8).join(".")}.….${path.slice(-2).join(".")} (level ${path.length + 1})` : path.join(".") || "(root)";
}

export const depthMessage = (where: string, path: string) =>
  `${where} is nested deeper than ${MAX_JSON_DEPTH} levels (at ${path}); flatten it`;

/** Nodes of a sheets document (tolerant: anything not a sheet counts nothing). */
export function scenarioNodeCount(doc: unknown): number {
  if (!isObject(doc) || !Array.isArray(doc.sheets)) return 0;
  let n = 0;
  for (const s of doc.sheets) if (isObject(s) && Array.isArray(s.nodes)) n += s.nodes.length;
  return n;
}

/** Why a scenario document breaks the limits, or null. */
export function scenarioLimitProblem(doc: unknown, where = "data"): string | null {
  // the count first: it is cheap, and a huge document is refused without a walk
  const nodes = scenarioNodeCount(doc);
  if (nodes > MAX_SCENARIO_NODES) return `${where} has ${nodes} nodes; a project may have at most ${MAX_SCENARIO_NODES.toLocaleString("en-US")}`;
  const deep = tooDeep(doc);
  if (deep !== null) return depthMessage(where, deep);
  return null;
}
