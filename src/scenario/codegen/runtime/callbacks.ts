// Runtime source: callback data the scenario defines (customCallbackData, dynamic buttons), the
// lookup table that keeps it under the messenger's 64-byte limit, multi-select toggles and
// callback triggers. (Part of every generated bot; see types.ts.)
import { InlineKeyboard } from "grammy";
import { INDEX, collectOf, go, log, nodeAt, userLanguageIsRussian } from "./flow";
import { buildKeyboard, sendText } from "./messages";
import { CALLBACK_TRIGGERS, NODES } from "./program-data";
import { parseJson } from "./storage";
import { cancelQuestionTimeout } from "./waits";
import type { ButtonDef, CallbackTriggerDef, DynamicDef, KeyboardDef, ScenarioNode } from "./tables";
import type { NodeRef, Turn } from "./types";
import { PLACEHOLDER, readVar, regex, render, store, toText } from "./values";

// ─── Callback data and dynamic buttons ─────────────────────────────────────────

/** The messenger refuses callback_data longer than this many bytes. */
export const CALLBACK_LIMIT = 64;
/** Entries of a chat's callback lookup table; the oldest go first (their buttons then answer nothing). */
export const CALLBACK_MEMORY = 300;
export const INTERNAL_CODE = /^g:\d+:\d+:\d+$/;
export const LOOKUP_CODE = /^x:\d+$/;

export function remember(turn: Turn, key: string, value: string) {
  const table = (turn.state.callbacks ??= {});
  delete table[key]; // re-inserted last: the most recent survive trimming
  table[key] = value;
  const keys = Object.keys(table);
  for (let i = 0; i < keys.length - CALLBACK_MEMORY; i++) delete table[keys[i]];
}

/**
 * The callback_data a button carries for the scenario's own data: the data itself when it fits and
 * cannot be mistaken for an internal code, else a short "x:<n>" key into the chat's lookup table.
 * "code" (a static button's internal code) lets a press find the button the data belongs to.
 */
export function callbackFor(turn: Turn, data: string, code?: string): string {
  if (code) remember(turn, "=" + data, code);
  if (new TextEncoder().encode(data).length <= CALLBACK_LIMIT && !INTERNAL_CODE.test(data) && !LOOKUP_CODE.test(data)) return data;
  const existing = Object.entries(turn.state.callbacks ?? {}).find(([k, v]) => LOOKUP_CODE.test(k) && v === data);
  if (existing) return existing[0];
  const key = "x:" + (turn.state.nextCallback = (turn.state.nextCallback ?? 0) + 1);
  remember(turn, key, data);
  return key;
}

/** The scenario's data behind a pressed button's callback_data. */
export function dataOf(turn: Turn, raw: string): string {
  return (LOOKUP_CODE.test(raw) && turn.state.callbacks?.[raw]) || raw;
}

/** The internal code of the static button that carries this scenario data, if any. */
export function codeOf(turn: Turn, data: string): string | undefined {
  return turn.state.callbacks?.["=" + data];
}

/** A path inside a value: "items", "data.list", "0.rows" (numbers index arrays). */
export function atPath(value: unknown, path: string | undefined): unknown {
  let current = typeof value === "string" && /^\s*[[{]/.test(value) ? parseJson<unknown>(value, value) : value;
  for (const part of (path ?? "").split(".").filter(Boolean)) {
    if (current === null || typeof current !== "object") return undefined;
    current = Array.isArray(current) ? current[Number(part)] : (current as Record<string, unknown>)[part];
  }
  return current;
}

/** {field} of the item (a plain item is {value}); other names read the user's variables. */
export function renderItem(turn: Turn, template: string, item: unknown): string {
  const fields: Record<string, unknown> = item !== null && typeof item === "object" && !Array.isArray(item) ? (item as Record<string, unknown>) : { value: item };
  return template.replace(PLACEHOLDER, (_, name: string) => {
    const own = name.includes(".") ? atPath(fields, name) : fields[name];
    return toText(own !== undefined ? own : readVar(turn, name));
  });
}

/** The messenger refuses keyboards of more than this many buttons. */
export const KEYBOARD_LIMIT = 100;

/**
 * Rows of inline buttons, one per item of the list (items without text or data are left out), at
 * most "room" of them: the rest would make the messenger refuse the whole message.
 */
export function dynamicRows(turn: Turn, d: DynamicDef, room: number): ReturnType<typeof InlineKeyboard.text>[][] {
  const list = atPath(readVar(turn, d.source), d.path);
  if (!Array.isArray(list)) {
    if (list !== undefined && list !== "") log(turn, "dynamic buttons: " + d.source + (d.path ? "." + d.path : "") + " is not a list");
    return [];
  }
  const buttons = [];
  for (const item of list) {
    if (buttons.length >= room) {
      console.error("chat " + turn.chatId + ": dynamic buttons from " + d.source + ": " + list.length + " items, only " + room + " fit in one keyboard");
      break;
    }
    const label = renderItem(turn, d.text, item).trim();
    const data = renderItem(turn, d.data, item).trim();
    if (label && data) buttons.push(InlineKeyboard.text(label, callbackFor(turn, data)));
  }
  const rows = [];
  for (let i = 0; i < buttons.length; i += d.columns) rows.push(buttons.slice(i, i + d.columns));
  return rows;
}

// ─── Multi-select ──────────────────────────────────────────────────────────────

/** The choice so far on a node's keyboard; it starts from what the variable already holds. */
export function selection(turn: Turn, nodeId: string, kb: KeyboardDef): string[] {
  const all = (turn.state.selections ??= {});
  if (!all[nodeId]) {
    const saved = kb.multi?.variable ? toText(readVar(turn, kb.multi.variable)) : "";
    all[nodeId] = saved.split(",").map((s) => s.trim()).filter(Boolean);
  }
  return all[nodeId];
}

export function selectionLabel(turn: Turn, owner: NodeRef, kb: KeyboardDef, label: string): string {
  return kb.multi && selection(turn, owner.node, kb).includes(label) ? kb.multi.mark + " " + label : label;
}

/** Toggles a choice and redraws the keyboard of the message it sits on. */
export async function toggleSelection(turn: Turn, owner: NodeRef, kb: KeyboardDef, label: string) {
  const chosen = selection(turn, owner.node, kb);
  const at = chosen.indexOf(label);
  if (at >= 0) chosen.splice(at, 1);
  else chosen.push(label);
  log(turn, "selection " + JSON.stringify(chosen));
  const index = INDEX.get(owner.node);
  const built = index === undefined ? undefined : buildKeyboard(turn, index, owner.variant, kb);
  if (built && turn.ctx.callbackQuery?.message) {
    await turn.ctx.editMessageReplyMarkup({ reply_markup: built.markup as InlineKeyboard }).catch((err) => {
      console.error("chat " + turn.chatId + ": could not redraw the selection:", err);
    });
  }
}

/** Stores the choice (joined by ", ") and forgets it, so the next showing starts afresh. */
export function finishSelection(turn: Turn, owner: NodeRef, kb: KeyboardDef) {
  const chosen = selection(turn, owner.node, kb);
  if (kb.multi?.variable) turn.state.vars[kb.multi.variable] = chosen.join(", ");
  delete turn.state.selections![owner.node];
}

/**
 * Multi-select on a reply keyboard: a selection button toggles (the bot says what changed and shows
 * the keyboard again, checkmarks updated); continue/complete store the choice. True: handled here.
 */
export async function replySelection(turn: Turn, owner: NodeRef, button: ButtonDef): Promise<boolean> {
  const node = nodeAt(owner);
  const kb = keyboardOf(node, owner.variant);
  if (!kb?.multi || kb.kind !== "reply") return false;
  if (button.action === "continue" || button.action === "complete") {
    finishSelection(turn, owner, kb);
    return false; // the button's own target follows
  }
  if (button.action !== "selection") return false;
  const label = render(turn, button.text);
  const chosen = selection(turn, owner.node, kb);
  const at = chosen.indexOf(label);
  if (at >= 0) chosen.splice(at, 1);
  else chosen.push(label);
  const ru = userLanguageIsRussian(turn);
  const said = at >= 0 ? (ru ? "❌ Убрано: " : "❌ Removed: ") + label : (ru ? "✅ Выбрано: " : "✅ Selected: ") + label;
  const built = buildKeyboard(turn, INDEX.get(owner.node)!, owner.variant, kb);
  await sendText(turn, said, "text", built?.markup);
  if (built) turn.state.keyboard = { ...owner, texts: built.texts };
  log(turn, "selection " + JSON.stringify(chosen));
  return true;
}

// ─── Callback triggers ─────────────────────────────────────────────────────────

/** Exact triggers first, then prefix/contains ones in scenario order. */
export function matchCallback(data: string): CallbackTriggerDef | undefined {
  const hit = (t: CallbackTriggerDef) =>
    (t.match === "prefix" && data.startsWith(t.data)) || (t.match === "contains" && data.includes(t.data));
  return CALLBACK_TRIGGERS.find((t) => t.match === "exact" && t.data === data) ?? CALLBACK_TRIGGERS.find(hit);
}

/** The catch-all trigger (incoming_callback_trigger without a pattern), if any. */
export const catchAllCallback = () => CALLBACK_TRIGGERS.find((t) => t.match === "any");

/** The keyboard a node shows (variant k > 0: its k-th conditional message). */
export function keyboardOf(node: ScenarioNode | undefined, variant: number): KeyboardDef | undefined {
  if (node?.t === "message") return variant > 0 ? node.variants?.[variant - 1]?.keyboard : node.keyboard;
  if (node?.t === "action" && (node.do.kind === "send" || node.do.kind === "edit")) return node.do.keyboard;
  if (node?.t === "input") return node.ask?.keyboard;
  return undefined;
}

/** The node, variant and button an internal code "g:<node>:<variant>:<button>" names. */
export function buttonAt(code: string): { node: ScenarioNode; variant: number; kb: KeyboardDef; button: ButtonDef } | undefined {
  const m = /^g:(\d+):(\d+):(\d+)$/.exec(code);
  const node = m ? NODES[Number(m[1])] : undefined;
  const kb = keyboardOf(node, m ? Number(m[2]) : 0);
  const button = m ? kb?.buttons[Number(m[3])] : undefined;
  return node && kb && button ? { node, variant: Number(m![2]), kb, button } : undefined;
}

/** Whether the static button behind an internal code leads anywhere by itself. */
export function buttonActs(code: string): boolean {
  const b = buttonAt(code)?.button;
  return !!b && (!!b.target || b.action === "selection" || b.action === "url");
}

/** A question waits for its answer (input node or collecting message). */
export function waitsForPress(turn: Turn): boolean {
  const ref = turn.state.waiting;
  return !!ref && !!collectOf(ref)?.variable;
}

/** Callback input: the pressed button's text (its data when not found) answers the waiting question. */
export async function answerByPress(turn: Turn, value: string) {
  const ref = turn.state.waiting!;
  const collect = collectOf(ref)!;
  store(turn, collect.variable!, value, collect.append);
  turn.state.waiting = undefined;
  cancelQuestionTimeout(turn.chatId);
  log(turn, "button answer stored in " + collect.variable);
  await go(turn, collect.target, ref.node);
}

export async function runCallbackTrigger(turn: Turn, t: CallbackTriggerDef, data: string) {
  if (t.adminOnly && !turn.isAdmin) return log(turn, "callback trigger for admins only");
  if (t.saveAs) turn.state.vars[t.saveAs] = t.strip && data.startsWith(t.strip) ? data.slice(t.strip.length) : data;
  if (t.parse) {
    const found = regex(t.parse.pattern)?.exec(data);
    for (const v of t.parse.vars) if (found?.groups?.[v.group] !== undefined) turn.state.vars[v.variable] = found.groups[v.group];
  }
  turn.state.waiting = undefined;
  log(turn, "callback trigger " + JSON.stringify(data) + " → " + t.target);
  await go(turn, t.target, t.via);
}
