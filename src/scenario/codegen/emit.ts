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
  throw new TypeError(`not plain data: ${typeof value}`);
}

function inline(value: unknown): string {
  if (value === undefined) return "undefined";
  if (value === null || typeof value !== "object") return scalar(value);
  if (Array.isArray(value)) return `[${value.map(inline).join(", ")}]`;
  if (Object.getPrototypeOf(value) !== Object.prototype && Object.getPrototypeOf(value) !== null) throw new TypeError("not plain data: an object of a class");
  const parts = Object.entries(value)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${key(k)}: ${inline(v)}`);
  return parts.length === 0 ? "{}" : `{ ${parts.join(", ")} }`;
}

/**
 * A literal for `value` whose continuation lines are indented by `indent` spaces; `column` is where
 * it starts on its first line (for the line-length decision). `undefined` object fields are dropped.
 */
export function literal(value: unknown, indent = 0, column = indent): string {
  const flat = inline(value);
  if (value === null || typeof value !== "object" || column + flat.length <= MAX_LINE) return flat;
  const pad = " ".repeat(indent + 2);
  const end = " ".repeat(indent);
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    return `[\n${value.map((v) => pad + literal(v, indent + 2)).join(",\n")},\n${end}]`;
  }
  const entries = Object.entries(value).filter(([, v]) => v !== undefined);
  if (entries.length === 0) return "{}";
  const lines = entries.map(([k, v]) => {
    const head = `${key(k)}: `;
    return pad + head + literal(v, indent + 2, indent + 2 + head.length);
  });
  return `{\n${lines.join(",\n")},\n${end}}`;
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
