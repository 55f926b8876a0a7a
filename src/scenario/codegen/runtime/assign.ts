// Runtime source: set_variable assignments, every mode of the reference's assignment schema.
// (Part of every generated bot; see types.ts.)
import { renderPattern } from "./conditions";
import { FORBIDDEN_KEYS, evalExpr, member, structured } from "./expr";
import { parseJson } from "./storage";
import type { AssignmentDef } from "./tables";
import type { Turn } from "./types";
import { PLACEHOLDER, appended, evaluate, isFilled, pad2, readVar, regex, render, toNumber, toText } from "./values";

// ─── Assignments ───────────────────────────────────────────────────────────────

/** A list out of a value: arrays as they are, JSON texts parsed, anything else none. */
export function listOf(value: unknown): unknown[] | undefined {
  const v = structured(value);
  return Array.isArray(v) ? v : undefined;
}

/** Walks "a.b.0.c" into a value (JSON texts are parsed on the way). */
export function valueAt(value: unknown, path: string): unknown {
  let v = value;
  for (const part of path.split(".").filter(Boolean)) {
    if (v === undefined || v === null) return undefined;
    v = member(v, part);
  }
  return v;
}

export const thousands = (n: number) => String(Math.trunc(n)).replace(/\B(?=(\d{3})+(?!\d))/g, " ");

export function duration(totalSeconds: number): string {
  const s = Math.max(0, Math.trunc(totalSeconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  return (h > 0 ? pad2(h) + ":" : "") + pad2(m) + ":" + pad2(s % 60);
}

export function compareFor(op: string, a: string, b: string): boolean {
  const x = toNumber(a);
  const y = toNumber(b);
  switch (op) {
    case "equals": return a === b;
    case "not_equals": return a !== b;
    case "contains": return a.includes(b);
    case "not_contains": return !a.includes(b);
    case "greater_than": return x !== undefined && y !== undefined && x > y;
    case "less_than": return x !== undefined && y !== undefined && x < y;
    case "greater_or_equal": return x !== undefined && y !== undefined && x >= y;
    case "less_or_equal": return x !== undefined && y !== undefined && x <= y;
    default: return false;
  }
}

/** The first row of a project table (a variable "table.<name>" holding rows) matching every condition. */
export function lookupRow(turn: Turn, a: AssignmentDef): Record<string, unknown> | undefined {
  const rows = listOf(readVar(turn, "table." + (a.table ?? ""))) ?? [];
  const where = (a.where ?? []).map((w) => ({ field: w.field, value: render(turn, w.value) }));
  for (const row of rows) {
    if (row === null || typeof row !== "object") continue;
    const r = row as Record<string, unknown>;
    if (where.every((w) => toText(Object.hasOwn(r, w.field) ? r[w.field] : "") === w.value)) return r;
  }
  return undefined;
}

/** json_format: one line per item of the list, its fields as {item.field}; the top three get medals. */
export function formatList(turn: Turn, a: AssignmentDef, current: unknown): string {
  const list = [...(listOf(current) ?? [])];
  const sortField = a.field;
  if (sortField) {
    const key = (x: unknown) => toNumber(member(x, sortField)) ?? -1;
    list.sort((p, q) => key(q) - key(p));
  }
  const medals = ["\u{1f947}", "\u{1f948}", "\u{1f949}"];
  let out = "";
  let position = 0;
  for (const item of list) {
    const rate = member(item, "rate");
    if (rate !== undefined && (toNumber(rate) ?? 1) <= 0) continue;
    const line = a.value.replace(/\{item\.([\p{L}\p{N}_]+)\}/gu, (_, f: string) => toText(member(item, f)));
    out += render(turn, line).replace("\u{1f538}", position < 3 ? medals[position] : "\u{1f538}");
    position++;
  }
  return out;
}

export function assignedValue(turn: Turn, a: AssignmentDef, current: unknown): unknown {
  const text = () => render(turn, a.value);
  switch (a.mode) {
    case "set": return evaluate(turn, a.value);
    case "append": return appended(current, evaluate(turn, a.value));
    case "increment": {
      const step = a.value.trim() === "" ? 1 : toNumber(text()) ?? 0;
      return (toNumber(current) ?? 0) + step;
    }
    case "regex_extract": {
      const found = a.pattern ? regex(renderPattern(turn, a.pattern))?.exec(text()) : null;
      return found?.[a.group ?? 1] ?? a.fallback ?? "";
    }
    case "expression": {
      // "{=...}" or a bare expression; {variables} inside a bare one are substituted first.
      const source = /^\s*\{=/.test(a.value) ? a.value.trim().slice(2, -1) : a.value;
      return evalExpr(turn, source.replace(PLACEHOLDER, (_, name: string) => JSON.stringify(readVar(turn, name) ?? "")));
    }
    case "lookup": {
      const row = lookupRow(turn, a);
      return row ? toText(row[render(turn, a.field ?? "")]) : "";
    }
    case "str_replace": {
      const search = text();
      return search === "" ? toText(current) : toText(current).split(search).join(render(turn, a.replaceWith ?? ""));
    }
    case "json_push": {
      const list = [...(listOf(current) ?? [])];
      const item = render(turn, a.value);
      list.push(parseJson<unknown>(item, item));
      return list;
    }
    case "json_format": return formatList(turn, a, current);
    case "random": {
      const low = Math.trunc(toNumber(text()) ?? 0);
      const high = Math.trunc(toNumber(render(turn, a.max ?? "")) ?? low);
      const [l, h] = low <= high ? [low, high] : [high, low];
      return String(l + Math.floor(Math.random() * (h - l + 1)));
    }
    case "random_item": {
      const items = text().split(",").map((s) => s.trim()).filter(Boolean);
      return items.length > 0 ? items[Math.floor(Math.random() * items.length)] : "";
    }
    case "array_item": {
      const source = structured(evaluate(turn, a.value));
      return toText(valueAt(source, render(turn, a.max ?? "0")));
    }
    case "timestamp": {
      const offset = a.value.trim() === "" ? 0 : Math.trunc(toNumber(text()) ?? 0);
      return String(Math.floor(Date.now() / 1000) + offset);
    }
    case "format_duration": {
      const seconds = a.value.includes("{") && !a.value.includes("{=") ? toNumber(text()) : toNumber(evalExpr(turn, a.value));
      return duration(seconds ?? 0);
    }
    case "format_number": {
      const raw = text();
      const n = toNumber(raw);
      return n === undefined ? raw : (n < 0 ? "-" : "") + thousands(Math.abs(n));
    }
    case "extract_number": return /\d+/.exec(text())?.[0] ?? "0";
    case "split_get": {
      const parts = text().split(a.separator || " ");
      const i = Math.trunc(toNumber(render(turn, a.max ?? "0")) ?? 0);
      const part = i < 0 ? parts[parts.length + i] : parts[i];
      return part === undefined ? "" : part.trim();
    }
    case "json_get": {
      const found = valueAt(structured(evaluate(turn, a.value)), render(turn, a.path ?? ""));
      return found === undefined || found === null ? "" : found;
    }
    case "substring": {
      const s = text();
      const start = Math.trunc(toNumber(render(turn, a.start ?? "0")) ?? 0);
      const endText = render(turn, a.end ?? "").trim();
      return endText === "" ? s.slice(start) : s.slice(start, Math.trunc(toNumber(endText) ?? s.length));
    }
    case "conditional": {
      const c = a.cond!;
      const holds = compareFor(c.op, render(turn, c.variable), render(turn, c.value));
      return render(turn, holds ? c.yes : c.no);
    }
    case "lowercase": return text().toLowerCase();
    case "uppercase": return text().toUpperCase();
    case "trim": return text().trim();
    case "length": {
      const v = structured(evaluate(turn, a.value));
      return String(Array.isArray(v) ? v.length : v !== null && typeof v === "object" ? Object.keys(v).length : toText(v).length);
    }
    case "array_concat":
      return [...(listOf(evaluate(turn, a.value)) ?? []), ...(listOf(evaluate(turn, a.concatWith ?? "")) ?? [])];
  }
}

export function assign(turn: Turn, a: AssignmentDef, nodeId: string) {
  const vars = turn.state.vars;
  if (a.skipIf) {
    const guard = readVar(turn, a.skipIf);
    if (!isFilled(guard) || toText(guard).trim() === "0") return;
  }
  const name = a.variable.includes("{") ? render(turn, a.variable).trim() : a.variable;
  if (!name || FORBIDDEN_KEYS.has(name)) {
    console.error("[chat " + turn.chatId + "] node " + nodeId + ": assignment to an invalid variable name " + JSON.stringify(name));
    return;
  }
  try {
    vars[name] = assignedValue(turn, a, Object.hasOwn(vars, name) ? vars[name] : undefined);
  } catch (err) {
    console.error("[chat " + turn.chatId + "] node " + nodeId + ": " + a.mode + " into " + name + " failed: " + (err instanceof Error ? err.message : String(err)));
  }
}
