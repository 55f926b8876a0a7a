// Runtime source: the condition node's operators (the reference editor's full list).
// (Part of every generated bot; see types.ts.)
import { chatTypeOf } from "./triggers";
import type { BranchDef, ConditionNode } from "./tables";
import type { Turn } from "./types";
import { PLACEHOLDER, isFilled, readVar, regex, render, toNumber, toText } from "./values";

// ─── Conditions ────────────────────────────────────────────────────────────────

/** contains: a value with a backslash class such as \d or \w is a regular expression. */
export const BACKSLASH_CLASS = /\\[dDwWsSb]/;

/** Variables in a regular expression: "{3}" stays a quantifier, only "{name}" is substituted. */
export function renderPattern(turn: Turn, pattern: string): string {
  return pattern.replace(PLACEHOLDER, (whole, name: string) => (/^\d/.test(name) ? whole : toText(readVar(turn, name))));
}

export const MEMBER_STATUSES = new Set(["creator", "administrator", "member"]);

/** Whether the user is in a channel or group; the bot must be an admin there to see it. */
export async function isSubscribed(turn: Turn, chat: string): Promise<boolean> {
  if (!turn.from) return false;
  try {
    const m = await turn.ctx.api.getChatMember(/^-?\d+$/.test(chat) ? Number(chat) : chat, turn.from.id);
    return MEMBER_STATUSES.has(m.status) || (m.status === "restricted" && "is_member" in m && m.is_member === true);
  } catch (err) {
    console.error("[chat " + turn.chatId + "] cannot check membership in " + chat + ": " + (err instanceof Error ? err.message : String(err)));
    return false;
  }
}

export async function subscription(turn: Turn, branch: BranchDef): Promise<boolean> {
  const channels = render(turn, branch.value).split(/[\s,;]+/).filter(Boolean);
  if (channels.length === 0) return false;
  const results: boolean[] = [];
  for (const ch of channels) results.push(await isSubscribed(turn, ch));
  return branch.mode === "any" ? results.some(Boolean) : results.every(Boolean);
}

export function numbers(turn: Turn, subject: unknown, branch: BranchDef): [number | undefined, number | undefined] {
  return [toNumber(subject), toNumber(render(turn, branch.value))];
}

export async function testBranch(turn: Turn, subject: unknown, branch: BranchDef): Promise<boolean> {
  const text = toText(subject);
  const isPattern = branch.op === "matches" || (branch.op === "contains" && BACKSLASH_CLASS.test(branch.value));
  const value = isPattern ? renderPattern(turn, branch.value) : render(turn, branch.value);
  const lower = text.toLowerCase();
  const chatType = chatTypeOf(turn);
  switch (branch.op) {
    case "equals": return text.trim() === value.trim();
    case "not_equals": return text.trim() !== value.trim();
    case "contains":
      return isPattern ? regex(value, "i")?.test(text) ?? false : lower.includes(value.toLowerCase());
    case "not_contains": return !lower.includes(value.toLowerCase());
    case "starts_with": return lower.startsWith(value.toLowerCase());
    case "ends_with": return lower.endsWith(value.toLowerCase());
    case "matches": return regex(value)?.test(text) ?? false;
    case "filled": return isFilled(subject);
    case "empty": return !isFilled(subject);
    case "greater_than":
    case "less_than":
    case "greater_or_equal":
    case "less_or_equal": {
      const [a, b] = numbers(turn, subject, branch);
      if (a === undefined || b === undefined) return false;
      if (branch.op === "greater_than") return a > b;
      if (branch.op === "less_than") return a < b;
      return branch.op === "greater_or_equal" ? a >= b : a <= b;
    }
    case "between": {
      const a = toNumber(subject);
      const low = toNumber(value);
      const high = toNumber(render(turn, branch.value2 ?? ""));
      if (a === undefined || low === undefined || high === undefined) return false;
      return a >= low && a <= high;
    }
    case "is_even":
    case "is_odd": {
      const a = toNumber(subject);
      if (a === undefined) return false;
      return (Math.abs(Math.trunc(a)) % 2 === 0) === (branch.op === "is_even");
    }
    case "divisible_by": {
      const [a, b] = numbers(turn, subject, branch);
      const d = Math.trunc(b ?? 1);
      return a !== undefined && d !== 0 && Math.trunc(a) % d === 0;
    }
    case "is_private": return chatType === "private";
    case "is_group": return chatType === "group" || chatType === "supergroup";
    case "is_channel": return chatType === "channel";
    case "is_admin": return turn.isAdmin;
    case "is_premium": return turn.from?.is_premium === true;
    case "is_bot": return turn.from?.is_bot === true;
    case "is_subscribed": return subscription(turn, branch);
    case "is_not_subscribed": return !(await subscription(turn, branch));
    case "else": return true;
  }
}

/** The target of the first matching branch ("" stops), else the default. */
export async function chooseBranch(turn: Turn, node: ConditionNode): Promise<string | undefined> {
  const subject = node.template !== undefined ? render(turn, node.template) : readVar(turn, node.variable ?? "");
  for (const branch of node.branches) {
    if (await testBranch(turn, subject, branch)) return branch.target || undefined;
  }
  return node.fallback;
}
