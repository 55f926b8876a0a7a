// `condition`, `set_variable` and `delay` nodes.
import { conditionDataSchema, delayDataSchema, setVariableDataSchema, parseNodeData } from "../model";
import { CompileContext, num, ownValue, text, type RawNode } from "./compile-context";
import { compileAssignment } from "./compile-assign";
import type { AssignmentDef, ConditionNode, DelayNode, Operator, SetNode } from "./table";

const OPERATORS = new Set<Operator>([
  "equals", "not_equals", "contains", "not_contains", "starts_with", "ends_with", "matches",
  "filled", "empty", "greater_than", "less_than", "greater_or_equal", "less_or_equal", "between",
  "is_even", "is_odd", "divisible_by", "is_private", "is_group", "is_channel", "is_admin",
  "is_premium", "is_bot", "is_subscribed", "is_not_subscribed", "else",
]);

/** Spellings the older editors wrote for the same operators. */
const ALIASES: Record<string, Operator> = {
  eq: "equals",
  "==": "equals",
  neq: "not_equals",
  "!=": "not_equals",
  regex: "matches",
  matches_regex: "matches",
  gte: "greater_or_equal",
  ">=": "greater_or_equal",
  lte: "less_or_equal",
  "<=": "less_or_equal",
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

/** Operators that look at the chat or the user, not at the node's variable. */
const SYSTEM_OPERATORS = new Set<Operator>(["is_private", "is_group", "is_channel", "is_admin", "is_premium", "is_bot", "is_subscribed", "is_not_subscribed", "else"]);

export function compileCondition(node: RawNode, ctx: CompileContext): ConditionNode {
  const d = parseNodeData(conditionDataSchema, node.data);
  const subject = (d.variable ?? "").trim();
  const branches: ConditionNode["branches"] = [];
  for (const br of d.branches ?? []) {
    const raw = (br.operator ?? "equals").trim();
    const op = OPERATORS.has(raw as Operator) ? (raw as Operator) : ownValue(ALIASES, raw);
    if (!op) {
      ctx.warn(node, "condition.unknownOperator", { branch: br.label ?? br.id ?? "", operator: String(raw) });
      continue;
    }
    const own = br as { valueRegex?: unknown; subscriptionMode?: unknown };
    // matches_regex keeps its pattern in valueRegex when the editor wrote one there.
    const value = op === "matches" && typeof own.valueRegex === "string" && own.valueRegex !== "" ? own.valueRegex : br.value === undefined ? "" : String(br.value);
    if (op === "matches" || (op === "contains" && /\\[dDwWsSb]/.test(value))) {
      try {
        new RegExp(value);
      } catch {
        ctx.warn(node, "condition.badRegex", { branch: br.label ?? br.id ?? "", pattern: value });
      }
    }
    branches.push({
      op,
      value,
      value2: br.value2 === undefined ? undefined : String(br.value2),
      // "" means stop: kept as "" so the branch still wins over later ones and the default.
      target: ctx.target(node, br.target, { branch: br.label ?? br.id ?? "" }) ?? "",
      mode: own.subscriptionMode === "any" ? "any" : undefined,
    });
  }
  // "else" is the fallback wherever the editor placed it, as in the reference.
  branches.sort((x, y) => Number(x.op === "else") - Number(y.op === "else"));
  const needsSubject = branches.some((b) => !SYSTEM_OPERATORS.has(b.op));
  if (subject === "" && needsSubject) ctx.warn(node, "condition.noVariable");
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

export function compileSetVariable(node: RawNode, ctx: CompileContext): SetNode {
  const d = parseNodeData(setVariableDataSchema, node.data);
  const list = d.assignments?.length ? d.assignments : d.variable ? [{ variable: d.variable, value: d.value, mode: d.mode }] : [];
  const assignments: AssignmentDef[] = [];
  for (const a of list) {
    const def = compileAssignment(node, ctx, a, d);
    if (def) assignments.push(def);
  }
  return {
    t: "set",
    id: node.id,
    assignments,
    next: ctx.target(node, d.autoTransitionTo, "autoTransitionTo"),
    adminOnly: d.adminOnly ? true : undefined,
  };
}

const DELAY_UNITS: Record<string, number> = { seconds: 1, minutes: 60, hours: 3600, days: 86400, weeks: 604800 };

export function compileDelay(node: RawNode, ctx: CompileContext): DelayNode {
  const d = parseNodeData(delayDataSchema, node.data);
  const ms = num(d.delayMs);
  // `unit` (seconds by default) scales the reference's `seconds` field, which may hold a {variable}.
  const unit = DELAY_UNITS[String(node.data.unit ?? "seconds")] ?? 1;
  const template = typeof node.data.seconds === "string" && node.data.seconds.includes("{") ? node.data.seconds : undefined;
  const count = num(d.delaySeconds) ?? num(d.seconds) ?? num(d.delay) ?? num(d.duration);
  const seconds = count !== undefined ? count * unit : ms !== undefined ? ms / 1000 : undefined;
  if (seconds === undefined && !template) ctx.warn(node, "delay.noSeconds");
  return {
    t: "delay",
    id: node.id,
    seconds: template ? unit : Math.max(0, seconds ?? 0),
    template,
    next: ctx.target(node, d.autoTransitionTo, "autoTransitionTo"),
    adminOnly: d.adminOnly ? true : undefined,
  };
}
