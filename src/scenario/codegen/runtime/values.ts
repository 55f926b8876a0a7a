// Runtime source, part 3: variables, text templates, conditions and assignments.
// (Part of every generated bot; see types.ts. The server runs this very text: src/lib/shared-render.ts.)
import { tableRows } from "./data";
import { evalExpr, exprText } from "./expr";
import { SCENARIO_ENV, SECRET_ENV, secretValue } from "./http";
import { env, parseJson } from "./storage";
import type { Format, VariantDef } from "./tables";
import type { Turn } from "./types";

// ─── Variables and templates ───────────────────────────────────────────────────

export const pad2 = (n: number) => (n < 10 ? "0" : "") + n;

/** Built-in values; the user's own variables take precedence over these names. */
export function builtin(turn: Turn, name: string): unknown {
  const from = turn.from;
  const now = new Date();
  switch (name) {
    case "user_id": return from ? String(from.id) : undefined;
    case "first_name": return from?.first_name ?? "";
    case "last_name": return from?.last_name ?? "";
    case "username": return from?.username ?? "";
    case "user_name": return from ? from.first_name || from.username || "" : "";
    case "date": return pad2(now.getDate()) + "." + pad2(now.getMonth() + 1) + "." + now.getFullYear();
    case "time": return pad2(now.getHours()) + ":" + pad2(now.getMinutes());
    // The bot's own token, for Bot API calls of http_request only (secretValue, runtime/http.ts).
    case "bot_token": return secretValue(name);
    case "message_text":
    case "callback_data":
    case "button_text":
      return turn.event[name] ?? "";
    default:
      if (SCENARIO_ENV.has(name)) return SECRET_ENV.has(name) ? secretValue(name) : env[name];
      // {table.orders}: the rows of a table of the project's database (runtime/data.ts)
      return name.startsWith("table.") ? tableRows(name.slice("table.".length)) : undefined;
  }
}

export function ownValue(turn: Turn, name: string): unknown {
  return Object.hasOwn(turn.state.vars, name) ? turn.state.vars[name] : builtin(turn, name);
}

/** A variable's value; "a.b.c" reads into a stored JSON value (objects, arrays, JSON strings). */
export function readVar(turn: Turn, name: string): unknown {
  const direct = ownValue(turn, name);
  if (direct !== undefined || !name.includes(".")) return direct;
  const [root, ...path] = name.split(".");
  let value: unknown = ownValue(turn, root);
  for (const part of path) {
    if (typeof value === "string" && /^\s*[[{]/.test(value)) value = parseJson<unknown>(value, value);
    if (value === null || typeof value !== "object") return undefined;
    if (Array.isArray(value) && (part === "length" || part === "count")) value = value.length;
    else value = (value as Record<string, unknown>)[part];
  }
  return value;
}

/** The first `max` UTF-16 units of a text, never half of a character written as two (an emoji): Telegram refuses such a text. */
export function cut(text: string, max: number): string {
  return text.length <= max ? text : text.slice(0, max).replace(/[\ud800-\udbff]$/, "");
}

/** The text's first `max` UTF-8 bytes or fewer, never half a character. */
export function cutBytes(text: string, max: number): string {
  const bytes = Buffer.from(text);
  if (bytes.length <= max) return text;
  let end = max;
  // bytes 10xxxxxx continue a character: the first byte left out must begin one
  while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end--;
  return bytes.subarray(0, end).toString();
}

/** How a value reads in a text: lists joined by commas, objects as JSON, nothing as "". */
export function toText(value: unknown): string {
  if (value === undefined || value === null) return "";
  if (typeof value === "string") return value;
  if (Array.isArray(value)) return value.map(toText).join(", ");
  if (isFileRef(value)) return value.value;
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

export function escapeFor(format: Format, text: string): string {
  if (format === "html") return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  if (format === "markdown") return text.replace(/([_*[\]])/g, "\\$1").replace(/\x60/g, "\\\x60");
  return text;
}

export const PLACEHOLDER = /\{([\p{L}\p{N}_][\p{L}\p{N}_.\-]*)\}/gu;
/** {name} or an inline expression {=expr}, in one pass: a value is never substituted twice. */
export const PLACEHOLDER_OR_EXPR = /\{=([^{}]+)\}|\{([\p{L}\p{N}_][\p{L}\p{N}_.\-]*)\}/gu;

/** Substitutes {name} and {=expr}; values are escaped for the text's format (missing → ""). */
export function render(turn: Turn, template: string, format: Format = "text"): string {
  if (!template.includes("{")) return template;
  return template.replace(PLACEHOLDER_OR_EXPR, (_, expr: string | undefined, name: string | undefined) =>
    escapeFor(format, expr !== undefined ? exprText(evalExpr(turn, expr)) : toText(readVar(turn, name!))),
  );
}

/** "{name}" or "{=expr}" alone keeps the raw value (a list stays a list); anything else renders to text. */
export function evaluate(turn: Turn, template: string): unknown {
  const t = template.trim();
  const whole = /^\{([\p{L}\p{N}_][\p{L}\p{N}_.\-]*)\}$/u.exec(t);
  if (whole) return readVar(turn, whole[1]) ?? "";
  const expr = /^\{=([^{}]+)\}$/.exec(t);
  if (expr) return evalExpr(turn, expr[1]);
  return render(turn, template);
}

/** A stored file: a media answer ({ value: file id, ... }) or a generated file (convert_file). */
export interface FileRef {
  value: string;
  file_id?: string;
  type?: string;
  fileName?: string;
  mimeType?: string;
  data?: string;
}

export function isFileRef(v: unknown): v is FileRef {
  if (v === null || typeof v !== "object" || Array.isArray(v)) return false;
  const o = v as Record<string, unknown>;
  return typeof o.value === "string" && (o.file_id === o.value || (o.type === "file" && typeof o.data === "string"));
}

export function isFilled(value: unknown): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value === "string") return value.trim() !== "";
  if (Array.isArray(value)) return value.length > 0;
  if (typeof value === "object") return Object.keys(value).length > 0;
  return true;
}

export function toNumber(value: unknown): number | undefined {
  const s = toText(value).trim().replace(",", ".");
  if (s === "") return undefined;
  const n = Number(s);
  return Number.isFinite(n) ? n : undefined;
}

export const regexCache = new Map<string, RegExp | null>();

/** A compiled pattern, or null when the author's pattern is invalid (the test then fails). */
export function regex(pattern: string, flags = ""): RegExp | null {
  const key = flags + "/" + pattern;
  if (!regexCache.has(key)) {
    try {
      regexCache.set(key, new RegExp(pattern, flags));
    } catch {
      console.error("invalid regular expression in the scenario: " + pattern);
      regexCache.set(key, null);
    }
  }
  return regexCache.get(key)!;
}

export function variantHolds(turn: Turn, v: VariantDef): boolean {
  const results = v.vars.map((name) => {
    const value = readVar(turn, name);
    switch (v.check) {
      case "exists": return isFilled(value);
      case "not_exists": return !isFilled(value);
      case "equals": return toText(value) === (v.value ?? "");
      case "contains": return toText(value).toLowerCase().includes((v.value ?? "").toLowerCase());
    }
  });
  return v.anyOf ? results.some(Boolean) : results.every(Boolean);
}

/** append keeps a list: [] + a → [a]; x + a → [x, a]. */
export function appended(current: unknown, value: unknown): unknown[] {
  if (Array.isArray(current)) return [...current, value];
  return isFilled(current) ? [current, value] : [value];
}

/** Stores an answer (a text or a file id), appending when the node asks for a list. */
export function store(turn: Turn, variable: string, value: unknown, append?: true) {
  turn.state.vars[variable] = append ? appended(turn.state.vars[variable], value) : value;
}
