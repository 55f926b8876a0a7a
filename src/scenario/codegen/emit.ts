// Prints plain data as readable TypeScript literals: identifier keys unquoted, short values on
// one line, long ones broken over lines with two-space indentation. Output depends only on the
// value (insertion order of keys), so generation stays byte-for-byte deterministic.

const MAX_LINE = 120;
const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** A string literal. JSON escaping is valid TypeScript and keeps non-ASCII text readable. */
export const quote = (s: string) => JSON.stringify(s);

const key = (k: string) => (IDENT.test(k) ? k : quote(k));

function inline(value: unknown): string {
  if (value === undefined) return "undefined";
  if (value === null || typeof value !== "object") {
    return typeof value === "string" ? quote(value) : String(value);
  }
  if (Array.isArray(value)) return `[${value.map(inline).join(", ")}]`;
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

/** Text safe for a `//` comment: one line, shortened. */
export function commentText(s: string, max = 60): string {
  const one = s.replace(/\s+/g, " ").trim();
  return one.length > max ? one.slice(0, max - 1) + "…" : one;
}
