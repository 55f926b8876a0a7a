// literal() prints each value's one-line form once and lays it out from there. Here it is compared
// with the straightforward printer it replaced (each level printed again from scratch, kept below
// as the reference) on many random nested values, at every indentation and start column.
import { describe, expect, test } from "bun:test";
import { literal, quote } from "../../src/scenario/codegen/emit";

const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const refKey = (k: string) => (IDENT.test(k) ? k : quote(k));
function refInline(value: unknown): string {
  if (value === undefined) return "undefined";
  if (typeof value === "string") return quote(value);
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : "null";
  if (typeof value === "boolean" || value === null) return String(value);
  if (Array.isArray(value)) return `[${value.map(refInline).join(", ")}]`;
  const parts = Object.entries(value as object)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${refKey(k)}: ${refInline(v)}`);
  return parts.length === 0 ? "{}" : `{ ${parts.join(", ")} }`;
}
function refLiteral(value: unknown, indent = 0, column = indent): string {
  const flat = refInline(value);
  if (value === null || typeof value !== "object" || column + flat.length <= 120) return flat;
  const pad = " ".repeat(indent + 2);
  const end = " ".repeat(indent);
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    return `[\n${value.map((v) => pad + refLiteral(v, indent + 2)).join(",\n")},\n${end}]`;
  }
  const entries = Object.entries(value).filter(([, v]) => v !== undefined);
  if (entries.length === 0) return "{}";
  const lines = entries.map(([k, v]) => `${pad}${refKey(k)}: ${refLiteral(v, indent + 2, indent + 2 + `${refKey(k)}: `.length)}`);
  return `{\n${lines.join(",\n")},\n${end}}`;
}

/** A small seeded generator, so that a failure can be reproduced. */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}
const STRINGS = ["", "a", "hello world", "line\nbreak", "\u2028sep\u2029", "quote \" and \\", "Привет {name}", "x".repeat(90), "</script>", "`${x}`"];
const KEYS = ["id", "t", "text", "next", "a-b", "1x", "__proto__x", "$ok", "with space", "ключ", "constructor"];

function value(r: () => number, depth: number): unknown {
  const pick = r();
  if (depth <= 0 || pick < 0.35) {
    const k = Math.floor(r() * 7);
    return [STRINGS[Math.floor(r() * STRINGS.length)], Math.floor(r() * 1e6) - 5e5, r() * 10, true, null, undefined, Infinity][k];
  }
  if (pick < 0.6) return Array.from({ length: Math.floor(r() * 6) }, () => value(r, depth - 1));
  const o: Record<string, unknown> = {};
  for (let i = Math.floor(r() * 7); i > 0; i--) o[KEYS[Math.floor(r() * KEYS.length)]!] = value(r, depth - 1);
  return o;
}

describe("literal", () => {
  test("prints exactly what the reference printer prints (3,000 random values, every layout)", () => {
    const r = rng(20261123);
    let multiLine = 0;
    for (let i = 0; i < 3000; i++) {
      const v = value(r, 6);
      const indent = Math.floor(r() * 8) * 2;
      const column = indent + Math.floor(r() * 100);
      const out = literal(v, indent, column);
      if (out.includes("\n")) multiLine++;
      expect(out).toBe(refLiteral(v, indent, column));
    }
    expect(multiLine).toBeGreaterThan(300); // the long-value layout was exercised, not only one-liners
  });

  test("empty containers past the line limit, dropped undefined fields, U+2028 escaped", () => {
    expect(literal([], 0, 200)).toBe("[]");
    expect(literal({ a: undefined }, 0, 200)).toBe("{}");
    expect(literal({ a: 1, b: undefined, c: [undefined] })).toBe("{ a: 1, c: [undefined] }");
    expect(literal("a\u2028b")).toBe('"a\\u2028b"');
    const long = { items: Array.from({ length: 30 }, (_, i) => ({ id: `n${i}` })) };
    expect(literal(long, 2)).toBe(refLiteral(long, 2));
  });

  test("only plain data: functions, symbols, bigints and class instances are refused", () => {
    expect(() => literal({ f: () => 1 })).toThrow(TypeError);
    expect(() => literal([Symbol("s")])).toThrow(TypeError);
    expect(() => literal({ n: 1n })).toThrow(TypeError);
    expect(() => literal({ d: new Date(0) })).toThrow(TypeError);
    expect(() => literal(Object.create(null))).not.toThrow();
  });
});
