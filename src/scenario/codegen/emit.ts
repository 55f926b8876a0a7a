// Prints plain data as readable TypeScript literals: identifier keys unquoted, short values on
// one line, long ones broken over lines with two-space indentation. Output depends only on the
// value (insertion order of keys), so generation stays byte-for-byte deterministic.

const MAX_LINE = 120;
const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * A string literal. JSON escaping is valid TypeScript and keeps non-ASCII text readable; U+2028 and
 * U+2029 are escaped too: JSON leaves them raw, and tools older than ES2019 (and every line-based
 * reader) take them for line breaks.
 */
export const quote = (s: string) => JSON.stringify(s).replace(/[\u2028\u2029]/g, (c) => (c === "\u2028" ? "\\u2028" : "\\u2029"));

const key = (k: string) => (IDENT.test(k) ? k : quote(k));

/** Only plain data becomes a literal: a function, symbol or bigint here is a generator bug, never code to print. */
function scalar(value: unknown): string {
  if (typeof value === "string") return quote(value);
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : "null";
  if (typeof value === "boolean" || value === null) return String(value);
  if (value === undefined) return "undefined";
  throw new TypeError(`not plain data: ${typeof value}`);
}

/**
 * A value with its one-line form: a string for a scalar, else the form with its parts. The one-line
 * form of every part is built once, bottom up, and reused by the multi-line layout: printing each
 * level again from scratch made deep tables cost the square of their depth.
 */
type Piece = string | Composite;
interface Composite {
  flat: string;
  /** array items or object fields */
  parts: Piece[];
  /** object field heads (`key: `), parallel to parts; absent for arrays */
  heads?: string[];
}

const flatOf = (p: Piece) => (typeof p === "string" ? p : p.flat);

function piece(value: unknown): Piece {
  if (value === null || typeof value !== "object") return scalar(value);
  if (Array.isArray(value)) {
    const parts: Piece[] = [];
    let flat = "[";
    for (let i = 0; i < value.length; i++) {
      const p = piece(value[i]);
      parts.push(p);
      flat += i === 0 ? flatOf(p) : `, ${flatOf(p)}`;
    }
    return { flat: flat + "]", parts };
  }
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) throw new TypeError("not plain data: an object of a class");
  const parts: Piece[] = [];
  const heads: string[] = [];
  let flat = "";
  for (const k of Object.keys(value)) {
    const v = (value as Record<string, unknown>)[k];
    if (v === undefined) continue;
    const p = piece(v);
    const head = `${key(k)}: `;
    flat += parts.length === 0 ? head + flatOf(p) : `, ${head}${flatOf(p)}`;
    parts.push(p);
    heads.push(head);
  }
  return { flat: parts.length === 0 ? "{}" : `{ ${flat} }`, parts, heads };
}

function layout(p: Piece, indent: number, column: number): string {
  if (typeof p === "string") return p;
  if (column + p.flat.length <= MAX_LINE) return p.flat;
  if (p.parts.length === 0) return p.heads ? "{}" : "[]";
  const pad = " ".repeat(indent + 2);
  const end = " ".repeat(indent);
  let out = p.heads ? "{\n" : "[\n";
  for (let i = 0; i < p.parts.length; i++) {
    const head = p.heads ? p.heads[i]! : "";
    out += `${pad}${head}${layout(p.parts[i]!, indent + 2, indent + 2 + head.length)},\n`;
  }
  return out + end + (p.heads ? "}" : "]");
}

/**
 * A literal for `value` whose continuation lines are indented by `indent` spaces; `column` is where
 * it starts on its first line (for the line-length decision). `undefined` object fields are dropped.
 */
export function literal(value: unknown, indent = 0, column = indent): string {
  return layout(piece(value), indent, column);
}

// Scenario strings reach the program only as JSON string literals (quote/literal above). Comments
// are the one exception, and a comment ends at any line terminator (\n, \r, U+2028, U+2029), so a
// comment names a scenario string only when it passes one of these strict checks; anything else
// is left out of the comment (it is in the literal right below it anyway).

/** Node ids and type names: ASCII letters, digits, `_`, `-`, `.`. */
const COMMENT_ID = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,63}$/;
/** Human names (project, sheet, a message's first words): letters and digits of any alphabet, spaces and plain punctuation. */
const COMMENT_NAME = /^[\p{L}\p{N}][\p{L}\p{N} _.,!?()«»:'-]*$/u;

/** `s` when it may appear in a comment as an id or a type name, else undefined. */
export function commentId(s: unknown): string | undefined {
  return typeof s === "string" && COMMENT_ID.test(s) ? s : undefined;
}

/** `s` (spaces and tabs collapsed, shortened to `max`) when it may appear in a comment as a name, else undefined. */
export function commentName(s: unknown, max = 60): string | undefined {
  if (typeof s !== "string") return undefined;
  const one = s.replace(/[ \t]+/g, " ").trim();
  if (!COMMENT_NAME.test(one)) return undefined;
  return one.length > max ? one.slice(0, max - 1) + "…" : one;
}
