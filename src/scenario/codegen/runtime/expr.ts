// Runtime source: safe expressions ({=expr} in texts, set_variable "expression" mode).
// (Part of every generated bot; see types.ts.)
// Scenario text is parsed with jsep and the tree is walked here: nothing is ever handed to eval or
// Function, only a fixed set of operators and functions exists, and member access reads own
// properties of plain data only (no __proto__, constructor, prototype).
import jsep from "jsep";
import { parseJson } from "./storage";
import type { Turn } from "./types";
import { readVar, toNumber, toText } from "./values";

/** http.ts's open secret reads: evalExpr closes them (an import could not be assigned; docs/runtime.md). */
declare let secretReads: { botToken: boolean } | null;

// ─── Expressions ───────────────────────────────────────────────────────────────

/** Longer expressions are refused: a scenario field, not a program. */
export const EXPR_LIMIT = 500;
export const FORBIDDEN_KEYS = new Set(["__proto__", "constructor", "prototype", "__defineGetter__", "__defineSetter__", "__lookupGetter__", "__lookupSetter__"]);
export const exprCache = new Map<string, jsep.Expression | Error>();

export type ExprFn = (...args: unknown[]) => unknown;
export const num = (v: unknown) => toNumber(v) ?? 0;

/** The only functions an expression can call. */
export const EXPR_FUNCTIONS: Record<string, ExprFn> = {
  round: (v, digits) => {
    const f = Math.pow(10, Math.max(0, Math.min(10, num(digits))));
    return Math.round(num(v) * f) / f;
  },
  floor: (v) => Math.floor(num(v)),
  ceil: (v) => Math.ceil(num(v)),
  abs: (v) => Math.abs(num(v)),
  min: (...a) => Math.min(...a.map(num)),
  max: (...a) => Math.max(...a.map(num)),
  sqrt: (v) => Math.sqrt(num(v)),
  pow: (a, b) => Math.pow(num(a), num(b)),
  number: (v) => num(v),
  int: (v) => Math.trunc(num(v)),
  str: (v) => toText(v),
  len: (v) => {
    const s = structured(v);
    return Array.isArray(s) ? s.length : toText(v).length;
  },
  lower: (v) => toText(v).toLowerCase(),
  upper: (v) => toText(v).toUpperCase(),
  trim: (v) => toText(v).trim(),
  contains: (a, b) => toText(a).includes(toText(b)),
  join: (list, sep) => (Array.isArray(list) ? list.map(toText).join(sep === undefined ? ", " : toText(sep)) : toText(list)),
  random: (a, b) => {
    const low = Math.ceil(num(a));
    const high = Math.floor(b === undefined ? num(a) : num(b));
    return b === undefined ? Math.floor(Math.random() * low) : low + Math.floor(Math.random() * (high - low + 1));
  },
  now: () => Math.floor(Date.now() / 1000),
  if: (cond, yes, no) => (truthy(cond) ? yes : no),
};

export function truthy(v: unknown): boolean {
  if (typeof v === "string") return v !== "" && v !== "0" && v.toLowerCase() !== "false";
  return Array.isArray(v) ? v.length > 0 : !!v;
}

export function parseExpr(source: string): jsep.Expression | Error {
  let tree = exprCache.get(source);
  if (!tree) {
    try {
      if (source.length > EXPR_LIMIT) throw new Error("longer than " + EXPR_LIMIT + " characters");
      tree = jsep(source);
    } catch (err) {
      tree = err instanceof Error ? err : new Error(String(err));
    }
    if (exprCache.size > 1000) exprCache.clear();
    exprCache.set(source, tree);
  }
  return tree;
}

/** A stored JSON text reads as the value it holds when an expression looks inside it. */
export function structured(v: unknown): unknown {
  return typeof v === "string" && /^\s*[[{]/.test(v) ? parseJson<unknown>(v, v) : v;
}

export function member(object: unknown, key: unknown): unknown {
  const k = toText(key);
  if (FORBIDDEN_KEYS.has(k)) throw new Error("property " + k + " is not available");
  const o = structured(object);
  if (Array.isArray(o)) {
    if (k === "length" || k === "count") return o.length;
    return /^\d+$/.test(k) ? o[Number(k)] : undefined;
  }
  if (typeof o === "string") return k === "length" ? o.length : undefined;
  if (o !== null && typeof o === "object" && Object.hasOwn(o, k)) return (o as Record<string, unknown>)[k];
  return undefined;
}

export function binary(op: string, a: unknown, b: unknown): unknown {
  switch (op) {
    case "+": {
      const x = toNumber(a);
      const y = toNumber(b);
      return x !== undefined && y !== undefined && typeof a !== "boolean" && typeof b !== "boolean" ? x + y : toText(a) + toText(b);
    }
    case "-": return num(a) - num(b);
    case "*": return num(a) * num(b);
    case "/": return num(b) === 0 ? 0 : num(a) / num(b);
    case "%": return num(b) === 0 ? 0 : num(a) % num(b);
    case "==": case "===": return toText(a) === toText(b);
    case "!=": case "!==": return toText(a) !== toText(b);
    case "<": case ">": case "<=": case ">=": {
      const x = toNumber(a);
      const y = toNumber(b);
      const [l, r] = x !== undefined && y !== undefined ? [x, y] : [toText(a), toText(b)];
      return op === "<" ? l < r : op === ">" ? l > r : op === "<=" ? l <= r : l >= r;
    }
    default: throw new Error("operator " + op + " is not available");
  }
}

export function evalNode(turn: Turn, n: jsep.Expression, depth: number): unknown {
  if (depth > 50) throw new Error("expression is nested too deeply");
  const sub = (e: jsep.Expression) => evalNode(turn, e, depth + 1);
  switch (n.type) {
    case "Literal": return (n as jsep.Literal).value;
    case "Identifier": {
      const name = (n as jsep.Identifier).name;
      if (FORBIDDEN_KEYS.has(name)) throw new Error("name " + name + " is not available");
      return readVar(turn, name);
    }
    case "MemberExpression": {
      const m = n as jsep.MemberExpression;
      const key = m.computed ? sub(m.property) : (m.property as jsep.Identifier).name;
      return member(sub(m.object), key);
    }
    case "ArrayExpression": return (n as jsep.ArrayExpression).elements.map((e) => (e ? sub(e) : undefined));
    case "UnaryExpression": {
      const u = n as jsep.UnaryExpression;
      const v = sub(u.argument);
      if (u.operator === "-") return -num(v);
      if (u.operator === "+") return num(v);
      if (u.operator === "!") return !truthy(v);
      throw new Error("operator " + u.operator + " is not available");
    }
    case "BinaryExpression": {
      const b = n as jsep.BinaryExpression;
      if (b.operator === "&&") return truthy(sub(b.left)) ? sub(b.right) : false;
      if (b.operator === "||") {
        const l = sub(b.left);
        return truthy(l) ? l : sub(b.right);
      }
      return binary(b.operator, sub(b.left), sub(b.right));
    }
    case "ConditionalExpression": {
      const c = n as jsep.ConditionalExpression;
      return truthy(sub(c.test)) ? sub(c.consequent) : sub(c.alternate);
    }
    case "CallExpression": {
      const c = n as jsep.CallExpression;
      const name = c.callee.type === "Identifier" ? (c.callee as jsep.Identifier).name : "";
      const fn = Object.hasOwn(EXPR_FUNCTIONS, name) ? EXPR_FUNCTIONS[name] : undefined;
      if (!fn) throw new Error("function " + (name || "?") + " is not available");
      if (c.arguments.length > 20) throw new Error("too many arguments");
      return fn(...c.arguments.map(sub));
    }
    default: throw new Error(n.type + " is not allowed in an expression");
  }
}

/** The value of an expression; errors are logged once per turn and read as "". */
export function evalExpr(turn: Turn, source: string): unknown {
  const tree = parseExpr(source.trim());
  // an expression never reads a secret, even inside an http_request field (runtime/http.ts)
  const reads = secretReads;
  secretReads = null;
  try {
    if (tree instanceof Error) throw tree;
    const value = evalNode(turn, tree, 0);
    return typeof value === "number" && !Number.isFinite(value) ? 0 : value;
  } catch (err) {
    console.error("[chat " + turn.chatId + "] expression " + JSON.stringify(source) + " failed: " + (err instanceof Error ? err.message : String(err)));
    return "";
  } finally {
    secretReads = reads;
  }
}

/** A number shown without float noise: 0.1 + 0.2 reads 0.3. */
export function exprText(value: unknown): string {
  return typeof value === "number" && !Number.isInteger(value) ? String(Math.round(value * 1e10) / 1e10) : toText(value);
}
