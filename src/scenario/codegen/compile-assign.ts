// One set_variable assignment → AssignmentDef. Field names are those of the reference editor's
// assignment schema (docs/nodes/logic.md lists every mode).
import type { SetVariableData } from "../model";
import { CompileContext, num, ownValue, text, type RawNode } from "./compile-context";
import type { AssignMode, AssignmentDef } from "./table";

const MODES = new Set<AssignMode>([
  "set", "append", "increment", "regex_extract", "expression", "lookup", "str_replace", "json_push",
  "json_format", "random", "random_item", "array_item", "timestamp", "format_duration", "format_number",
  "extract_number", "split_get", "json_get", "substring", "conditional", "lowercase", "uppercase", "trim",
  "length", "array_concat",
]);

/** The reference's default mode "text" is a template assignment, Botloom's "set". */
const MODE_ALIASES: Record<string, AssignMode> = { text: "set", template: "set", expr: "expression", math: "expression" };

const str = (v: unknown): string | undefined => (v === undefined || v === null ? undefined : typeof v === "object" ? undefined : String(v));

function regexWarning(node: RawNode, ctx: CompileContext, pattern: string) {
  try {
    new RegExp(pattern.replace(/\{[\p{L}_][\p{L}\p{N}_.]*\}/gu, "x"));
  } catch {
    ctx.warn(node, "assign.badRegex", { pattern });
  }
}

export function compileAssignment(node: RawNode, ctx: CompileContext, a: Record<string, unknown>, d: SetVariableData): AssignmentDef | undefined {
  const variable = text(a.variable)?.trim();
  if (!variable) {
    ctx.warn(node, "assign.noVariable");
    return undefined;
  }
  const raw = (text(a.mode) ?? "text").trim();
  const mode = MODES.has(raw as AssignMode) ? (raw as AssignMode) : ownValue(MODE_ALIASES, raw);
  if (!mode) {
    ctx.warn(node, "assign.unknownMode", { variable, mode: String(raw) });
    return undefined;
  }
  const def: AssignmentDef = { variable, mode, value: str(a.value) ?? "" };
  const opt = (key: string) => text(str(a[key]));
  switch (mode) {
    case "regex_extract": {
      // Per assignment first, then the legacy node-level regexPattern / regexGroup / regexDefault.
      const pattern = opt("pattern") ?? text(d.regexPattern);
      const fallback = a.regexDefault ?? d.regexDefault;
      if (!pattern) ctx.warn(node, "assign.regexNoPattern", { variable });
      else regexWarning(node, ctx, pattern);
      def.pattern = pattern;
      // The reference's editor writes group "0" (the whole match) by default; legacy files omit it (1).
      def.group = num(a.regexGroup) ?? num(d.regexGroup) ?? 1;
      def.fallback = str(fallback);
      break;
    }
    case "lookup":
      def.table = opt("lookupTable");
      def.field = opt("lookupField");
      def.where = Array.isArray(a.lookupWhere)
        ? a.lookupWhere.flatMap((w) => (w && typeof w === "object" && typeof w.field === "string" ? [{ field: w.field, value: str(w.value) ?? "" }] : []))
        : [];
      if (!def.table || !def.field) ctx.warn(node, "assign.lookupIncomplete", { variable });
      break;
    case "json_format":
      def.field = opt("lookupField");
      break;
    case "str_replace":
      def.replaceWith = str(a.replaceWith) ?? "";
      break;
    case "random":
    case "array_item":
    case "split_get":
      def.max = opt("maxValue");
      if (mode === "split_get") def.separator = str(a.separator) || undefined;
      break;
    case "json_get":
      def.path = opt("jsonPath");
      break;
    case "substring":
      def.start = opt("startIndex");
      def.end = opt("endIndex");
      break;
    case "conditional":
      def.cond = {
        variable: str(a.conditionVariable) ?? "",
        op: opt("conditionOperator") ?? "equals",
        value: str(a.conditionValue) ?? "",
        yes: str(a.trueValue) ?? "",
        no: str(a.falseValue) ?? "",
      };
      break;
    case "array_concat":
      def.concatWith = opt("concatWith");
      break;
  }
  const skip = opt("skipIfEmpty")?.trim().replace(/^\{(.*)\}$/, "$1");
  if (skip) def.skipIf = skip;
  return def;
}
