// `condition`, `set_variable` and `delay` nodes.
import { conditionDataSchema, delayDataSchema, setVariableDataSchema } from "../model";
import { CompileContext, num, ownValue, text, type RawNode } from "./compile-context";
import type { AssignmentDef, ConditionNode, DelayNode, Operator, SetNode } from "./table";

const OPERATORS = new Set<Operator>([
  "equals",
  "not_equals",
  "contains",
  "matches",
  "filled",
  "empty",
  "greater_than",
  "less_than",
  "between",
  "else",
]);

/** Spellings the older editors wrote for the same operators. */
const ALIASES: Record<string, Operator> = {
  eq: "equals",
  "==": "equals",
  neq: "not_equals",
  "!=": "not_equals",
  regex: "matches",
  gt: "greater_than",
  ">": "greater_than",
  lt: "less_than",
  "<": "less_than",
  is_empty: "empty",
  is_filled: "filled",
  exists: "filled",
  not_exists: "empty",
  default: "else",
};

export function compileCondition(node: RawNode, ctx: CompileContext): ConditionNode {
  const d = conditionDataSchema.parse(node.data);
  const subject = (d.variable ?? "").trim();
  const branches: ConditionNode["branches"] = [];
  for (const br of d.branches ?? []) {
    const raw = (br.operator ?? "equals").trim();
    const op = OPERATORS.has(raw as Operator) ? (raw as Operator) : ownValue(ALIASES, raw);
    if (!op) {
      ctx.warn(node, `Node "${node.id}": branch "${br.label ?? br.id ?? ""}" has unknown operator "${raw}"; it never matches.`);
      continue;
    }
    const value = br.value === undefined ? "" : String(br.value);
    if (op === "matches" || (op === "contains" && /\\[dDwWsSb]/.test(value))) {
      try {
        new RegExp(value);
      } catch {
        ctx.warn(node, `Node "${node.id}": branch "${br.label ?? br.id ?? ""}" has an invalid regular expression "${value}"; it never matches.`);
      }
    }
    branches.push({
      op,
      value,
      value2: br.value2 === undefined ? undefined : String(br.value2),
      // "" means stop: kept as "" so the branch still wins over later ones and the default.
      target: ctx.target(node, br.target, `branch "${br.label ?? br.id ?? ""}"`) ?? "",
    });
  }
  if (subject === "") ctx.warn(node, `Node "${node.id}": condition without a variable compares an empty value.`);
  return {
    t: "condition",
    id: node.id,
    // "{message_text}" is a template; "age" or "projects.count" name a (dotted) variable.
    variable: subject.includes("{") ? undefined : subject,
    template: subject.includes("{") ? subject : undefined,
    branches,
    fallback: ctx.target(node, d.defaultTargetId, "defaultTargetId"),
    adminOnly: d.adminOnly ? true : undefined,
  };
}

const MODES = new Set(["set", "append", "increment", "regex_extract"]);

export function compileSetVariable(node: RawNode, ctx: CompileContext): SetNode {
  const d = setVariableDataSchema.parse(node.data);
  const list = d.assignments?.length ? d.assignments : d.variable ? [{ variable: d.variable, value: d.value, mode: d.mode }] : [];
  const assignments: AssignmentDef[] = [];
  for (const a of list) {
    const variable = text(a.variable)?.trim();
    if (!variable) {
      ctx.warn(node, `Node "${node.id}": an assignment without a variable name is skipped.`);
      continue;
    }
    const mode = (a.mode ?? "set") || "set";
    if (!MODES.has(mode)) {
      ctx.warn(node, `Node "${node.id}": assignment to "${variable}" has unknown mode "${mode}"; it is skipped.`);
      continue;
    }
    const def: AssignmentDef = { variable, mode: mode as AssignmentDef["mode"], value: a.value === undefined ? "" : String(a.value) };
    if (mode === "regex_extract") {
      // Per assignment first, then the legacy node-level regexPattern / regexGroup / regexDefault.
      const own = a as { pattern?: string; regexGroup?: unknown; regexDefault?: unknown };
      const pattern = text(own.pattern) ?? text(d.regexPattern);
      const group = num(own.regexGroup) ?? num(d.regexGroup) ?? 1;
      const fallback = own.regexDefault ?? d.regexDefault;
      if (!pattern) ctx.warn(node, `Node "${node.id}": regex_extract into "${variable}" has no pattern; the default is stored.`);
      else {
        try {
          new RegExp(pattern);
        } catch {
          ctx.warn(node, `Node "${node.id}": regex_extract pattern "${pattern}" is invalid; the default is stored.`);
        }
      }
      def.pattern = pattern;
      def.group = group;
      def.fallback = fallback === undefined ? undefined : String(fallback);
    }
    assignments.push(def);
  }
  return {
    t: "set",
    id: node.id,
    assignments,
    next: ctx.target(node, d.autoTransitionTo, "autoTransitionTo"),
    adminOnly: d.adminOnly ? true : undefined,
  };
}

export function compileDelay(node: RawNode, ctx: CompileContext): DelayNode {
  const d = delayDataSchema.parse(node.data);
  const ms = num(d.delayMs);
  const seconds = num(d.delaySeconds) ?? num(d.seconds) ?? num(d.delay) ?? num(d.duration) ?? (ms !== undefined ? ms / 1000 : undefined);
  if (seconds === undefined) ctx.warn(node, `Node "${node.id}": delay without a number of seconds waits 0 seconds.`);
  return {
    t: "delay",
    id: node.id,
    seconds: Math.max(0, seconds ?? 0),
    next: ctx.target(node, d.autoTransitionTo, "autoTransitionTo"),
    adminOnly: d.adminOnly ? true : undefined,
  };
}
