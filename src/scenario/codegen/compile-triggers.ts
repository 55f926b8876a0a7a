// Trigger nodes beyond commands and texts (docs/nodes/triggers.md): callback triggers, message
// triggers and schedules. Each becomes a row of its own table; the flow starts at its target.
// croner's CommonJS build: its ES module file is embedded as text for the bots (bot-modules.ts), and
// the bundler of the single executable cannot load one file both as text and as code.
import { Cron } from "../../../node_modules/croner/dist/croner.cjs";
import { CompileContext, num, text, type RawNode } from "./compile-context";
import type { MessageTriggerDef, ScheduleDef } from "./runtime/action-tables";
import type { CallbackTriggerDef } from "./table";
import { listOf, MEMBER_EVENTS, reactionEmoji } from "../trigger-lists";

/** Tables the trigger nodes fill (see CompiledScenario). */
export interface TriggerTables {
  callbackTriggers: CallbackTriggerDef[];
  messageTriggers: MessageTriggerDef[];
  schedules: ScheduleDef[];
}

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** "order_{id}_{qty}" → a regular expression with named groups that must match the whole data. */
function parsePattern(template: string): { pattern: string; groups: string[] } {
  const groups: string[] = [];
  let pattern = "^";
  let last = 0;
  for (const m of template.matchAll(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g)) {
    pattern += escapeRegex(template.slice(last, m.index));
    const name = m[1]!;
    pattern += groups.includes(name) ? `\\k<${name}>` : `(?<${name}>.+?)`;
    if (!groups.includes(name)) groups.push(name);
    last = m.index! + m[0].length;
  }
  return { pattern: pattern + escapeRegex(template.slice(last)) + "$", groups };
}

function callbackTrigger(node: RawNode, ctx: CompileContext): CallbackTriggerDef | undefined {
  const d = node.data;
  const target = ctx.target(node, text(d.autoTransitionTo), "autoTransitionTo");
  const adminOnly = d.adminOnly === true ? true : undefined;
  if (node.type === "callback_trigger") {
    const data = text(d.callbackData);
    if (!data) {
      ctx.warn(node, "callbackTrigger.noData");
      return undefined;
    }
    if (!target) return undefined;
    const match = String(d.matchType ?? "exact").toLowerCase() === "startswith" ? "prefix" : "exact";
    const def: CallbackTriggerDef = { match, data, target, adminOnly, via: node.id };
    const template = text(d.callbackParseTemplate);
    const saves = Array.isArray(d.callbackSaveVariables) ? d.callbackSaveVariables : [];
    if (template && saves.length > 0) {
      const { pattern, groups } = parsePattern(template);
      const vars = saves
        .map((v) => (v && typeof v === "object" ? (v as Record<string, unknown>) : {}))
        .map((v) => ({ group: String(v.templateVar ?? ""), variable: String(v.saveAs ?? "").trim() }))
        .filter((v) => groups.includes(v.group) && v.variable !== "");
      if (vars.length > 0) def.parse = { pattern, vars };
    }
    return def;
  }
  // incoming_callback_trigger: callbackMatchType startsWith (default) | equals | contains; no pattern: any press.
  if (!target) return undefined;
  const pattern = typeof d.callbackPattern === "string" ? d.callbackPattern : "";
  const type = String(d.callbackMatchType ?? "startsWith").toLowerCase();
  const saveAs = text(d.callbackDataSaveAs)?.trim();
  const match = pattern === "" ? "any" : type === "equals" ? "exact" : type === "contains" ? "contains" : "prefix";
  return {
    match,
    data: pattern,
    target,
    // {callback_data} is the press's own data already; a variable of that name would outlive it.
    saveAs: saveAs && saveAs !== "callback_data" ? saveAs : undefined,
    strip: text(d.callbackDataStripPrefix),
    adminOnly,
    via: node.id,
  };
}

function messageTrigger(node: RawNode, ctx: CompileContext): MessageTriggerDef | undefined {
  const d = node.data;
  const target = ctx.target(node, text(d.autoTransitionTo), "autoTransitionTo");
  if (!target) return undefined;
  if (node.type === "incoming_message_trigger") return { on: "incoming", target, node: node.id };
  if (node.type === "outgoing_message_trigger") return { on: "outgoing", target, node: node.id };
  const variable = text(d.groupChatVariableName)?.trim();
  const group = d.groupChatIdSource === "variable" && variable ? `{${variable}}` : text(d.groupChatId)?.trim();
  const threadVariable = text(d.threadIdVariable)?.trim();
  if (!group || !threadVariable) {
    ctx.warn(node, "groupTrigger.incomplete");
    return undefined;
  }
  return { on: "group", target, node: node.id, group, threadVariable, userVariable: text(d.resolvedUserIdVariable)?.trim() };
}

/** Values as a warning lists them: "a", "b". */
const quoted = (xs: string[]) => xs.map((x) => `"${x}"`).join(", ");

/** Updates that are not messages: reactions, member changes, join requests. */
function updateTrigger(node: RawNode, ctx: CompileContext): MessageTriggerDef | undefined {
  const target = ctx.target(node, text(node.data.autoTransitionTo), "autoTransitionTo");
  if (!target) return undefined;
  if (node.type === "join_request_trigger") return { on: "join_request", target, node: node.id };
  if (node.type === "payment_trigger") return { on: "payment", target, node: node.id };
  if (node.type === "checkout_trigger") return { on: "checkout", target, node: node.id };
  // What the request carries is read by the platform (src/scenario/hook-request.ts); the bot only runs the flow.
  if (node.type === "webhook_trigger") return { on: "hook", target, node: node.id };
  if (node.type === "reaction_trigger") {
    const only = [...new Set(listOf(node.data.emoji).map(reactionEmoji))];
    // Telegram's reaction emoji are single emoji (with variation selectors); words or digits never arrive.
    const odd = only.filter((e) => !/^\p{Extended_Pictographic}/u.test(e));
    if (odd.length > 0) ctx.warn(node, "reactionTrigger.notEmoji", { emoji: quoted(odd) });
    // Only reactions on messages these nodes sent (the message store knows which node sent what).
    const senders = listOf(node.data.messageNodes);
    const unknown = senders.filter((id) => !ctx.byId.has(id));
    if (unknown.length > 0) ctx.warn(node, "reactionTrigger.unknownMessages", { ids: quoted(unknown) });
    return { on: "reaction", target, node: node.id, only: only.length ? only : undefined, fromNodes: senders.length ? senders : undefined };
  }
  const only = listOf(node.data.memberEvents);
  const unknown = only.filter((e) => !MEMBER_EVENTS.includes(e));
  if (unknown.length > 0) ctx.warn(node, "memberTrigger.unknownEvents", { events: unknown.join(", "), known: MEMBER_EVENTS.join(", ") });
  const known = only.filter((e) => MEMBER_EVENTS.includes(e));
  return { on: "member", target, node: node.id, only: known.length ? known : undefined };
}

const DAYS: Record<string, string> = { mon: "MON", tue: "TUE", wed: "WED", thu: "THU", fri: "FRI", sat: "SAT", sun: "SUN" };

/** One schedule rule as a croner pattern or an interval; undefined when it cannot run. */
function scheduleRule(rule: Record<string, unknown>, node: RawNode, ctx: CompileContext): { cron?: string; every?: number } | undefined {
  const hour = Math.floor(num(rule.hour) ?? 0);
  const minute = Math.floor(num(rule.minute) ?? 0);
  const at = `${Math.min(59, Math.max(0, minute))} ${Math.min(23, Math.max(0, hour))}`;
  switch (String(rule.mode ?? "interval")) {
    case "interval": {
      const seconds = num(rule.intervalSeconds) ?? (num(rule.intervalMinutes) ?? 5) * 60;
      if (seconds >= 1) return { every: Math.floor(seconds) };
      break;
    }
    case "daily":
      return { cron: `${at} * * *` };
    case "weekday":
    case "weekly": {
      const days = (Array.isArray(rule.days) ? rule.days : []).map((d) => DAYS[String(d).toLowerCase().slice(0, 3)]).filter(Boolean);
      if (days.length > 0) return { cron: `${at} * * ${days.join(",")}` };
      break;
    }
    case "monthday": {
      const days = (Array.isArray(rule.monthDays) ? rule.monthDays : []).map((d) => num(d)).filter((d): d is number => d !== undefined && d >= 1 && d <= 31);
      if (days.length > 0) return { cron: `${at} ${days.join(",")} * *` };
      break;
    }
    case "cron": {
      const expr = text(rule.cronExpression)?.trim();
      if (expr) {
        try {
          new Cron(expr, { paused: true }).stop(); // checks the pattern, schedules nothing
          return { cron: expr };
        } catch (err) {
          ctx.warn(node, "schedule.badCron", { cron: expr, reason: (err as Error).message });
          return undefined;
        }
      }
      break;
    }
  }
  ctx.warn(node, "schedule.incompleteRule", { mode: String(rule.mode ?? "interval") });
  return undefined;
}

function schedule(node: RawNode, ctx: CompileContext): ScheduleDef | undefined {
  const d = node.data;
  if (d.enabled === false) return undefined;
  const target = ctx.target(node, text(d.autoTransitionTo), "autoTransitionTo");
  if (!target) return undefined;
  const rules = Array.isArray(d.rules) && d.rules.length > 0 ? d.rules : [{ mode: "interval", intervalMinutes: 5 }];
  const cron: string[] = [];
  const every: number[] = [];
  for (const r of rules) {
    const rule = scheduleRule(r && typeof r === "object" ? (r as Record<string, unknown>) : {}, node, ctx);
    if (rule?.cron) cron.push(rule.cron);
    if (rule?.every) every.push(rule.every);
  }
  const timezone = text(d.timezone)?.trim() ?? "Europe/Moscow";
  try {
    new Intl.DateTimeFormat("en", { timeZone: timezone });
  } catch {
    ctx.warn(node, "schedule.badTimezone", { timezone });
    return undefined;
  }
  if (cron.length === 0 && every.length === 0) return undefined;
  const chat = text(d.targetChatId)?.trim() ?? text(d.scheduleChatId)?.trim();
  return { id: node.id, target, cron, every, timezone, chat, runOnStart: d.runOnStart === true ? true : undefined };
}

/** Compiles a trigger node into its table; false when the type is not a trigger of this family. */
export function compileTrigger(node: RawNode, ctx: CompileContext, out: TriggerTables): boolean {
  switch (node.type) {
    case "callback_trigger":
    case "incoming_callback_trigger": {
      const def = callbackTrigger(node, ctx);
      if (def) out.callbackTriggers.push(def);
      return true;
    }
    case "reaction_trigger":
    case "member_trigger":
    case "join_request_trigger":
    case "payment_trigger":
    case "checkout_trigger":
    case "webhook_trigger":
    case "incoming_message_trigger":
    case "outgoing_message_trigger":
    case "group_message_trigger": {
      const def = node.type.endsWith("message_trigger") ? messageTrigger(node, ctx) : updateTrigger(node, ctx);
      if (def) out.messageTriggers.push(def);
      return true;
    }
    case "schedule_trigger": {
      const def = schedule(node, ctx);
      if (def) out.schedules.push(def);
      return true;
    }
    default:
      return false;
  }
}
