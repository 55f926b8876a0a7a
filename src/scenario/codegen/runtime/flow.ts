// Runtime source, part 5: walking the scenario, answers to questions, buttons and triggers.
// (Part of every generated bot; see types.ts.)
import { AsyncLocalStorage } from "node:async_hooks";
import { chatOf, runAction } from "./actions";
import { COUNTING, countVisit, tally } from "./analytics";
import { assign } from "./assign";
import { keyboardOf, replySelection } from "./callbacks";
import { chooseBranch } from "./conditions";
import { runLogicNode } from "./control";
import { askQuestion, sendText, showMessage } from "./messages";
import { COMMANDS, NODES, OPTIONS, TEXT_TRIGGERS } from "./program-data";
import { loadState, saveState } from "./storage";
import { addInputTimeout, addWait, cancelQuestionTimeout } from "./waits";
import type { ButtonDef, CollectDef, DelayNode, MediaKind, ScenarioNode, TextTriggerDef, ValidationDef } from "./tables";
import type { IncomingMessage, NodeRef, Turn } from "./types";
import { type FileRef, regex, render, store, toNumber } from "./values";

// ─── Walking the scenario ──────────────────────────────────────────────────────

export const INDEX = new Map(NODES.map((node, i) => [node.id, i] as const));
/** Guards against auto-transition loops: steps one update may take. */
export const MAX_STEPS = 50;

export function log(turn: Turn, line: string) {
  if (OPTIONS.logging) console.log("[chat " + turn.chatId + "] " + line);
}

/** The node running now, per update; the preview build names it in the calls it makes. */
export const NODE_SCOPE = new AsyncLocalStorage<string>();

/**
 * Runs node "id" and whatever follows it automatically, until input is needed or the flow ends.
 * `via` is the node whose transition leads to "id" (a pressed button's, an answered question's,
 * the loop or delay running it, the trigger node that starts the flow), for analytics. Named by
 * each caller: the node scope outlives the walk that entered it, so it cannot tell.
 */
export async function go(turn: Turn, id: string | undefined, via?: string): Promise<void> {
  let next = id;
  let from = via;
  // a trigger node is no step of the walk (not in NODES): reaching it is firing it
  if (id && via && !INDEX.has(via)) countVisit(turn, via, undefined);
  /** a message went out in this walk: an input node reached after it does not ask again */
  let asked = false;
  while (next) {
    if (++turn.steps > MAX_STEPS) {
      console.error("stopped after " + MAX_STEPS + " steps in one update: the scenario loops at " + next);
      return;
    }
    const index = INDEX.get(next);
    if (index === undefined) {
      console.error("node " + next + " is not part of this bot");
      return;
    }
    const node = NODES[index];
    if (node.adminOnly && !turn.isAdmin) {
      log(turn, "node " + node.id + " is for admins only; user " + (turn.from?.id ?? "?") + " is not one");
      return;
    }
    log(turn, "node " + node.id + " (" + node.t + ")");
    countVisit(turn, node.id, from);
    from = node.id;
    NODE_SCOPE.enterWith(node.id);
    switch (node.t) {
      case "message":
        await showMessage(turn, index, node);
        asked = true;
        next = node.next;
        break;
      case "condition":
        next = await chooseBranch(turn, node);
        break;
      case "set":
        for (const a of node.assignments) assign(turn, a, node.id);
        next = node.next;
        break;
      case "delay":
        if (node.next) later(turn, node.next, delaySeconds(turn, node));
        return;
      case "input":
        if (node.ask && !asked) await askQuestion(turn, index, node);
        turn.state.waiting = { node: node.id, variant: 0 };
        if (node.timeout) addInputTimeout(turn, node.id, node.timeout.seconds);
        return;
      case "http":
      case "loop":
      case "parallel":
      case "convert":
      case "table":
      case "sql":
      case "ai":
        next = await runLogicNode(turn, node); // runtime/control.ts
        break;
      case "action":
        next = await runAction(turn, index, node);
        break;
    }
  }
}

/** Continues the flow after a delay without holding up anyone else's updates; the wait survives a restart (waits.ts). */
export function later(turn: Turn, id: string, seconds: number) {
  addWait(turn, id, seconds);
}

/** A delay's length: fixed, or a {variable} template times its unit. */
export function delaySeconds(turn: Turn, node: DelayNode): number {
  if (node.template === undefined) return node.seconds;
  const value = toNumber(render(turn, node.template));
  if (value === undefined || value < 0) {
    console.error("chat " + turn.chatId + ": node " + node.id + " (delay): " + JSON.stringify(render(turn, node.template)) + " is not a number of " + "units; no wait");
    return 0;
  }
  return value * node.seconds;
}

/** Updates of one chat run one after another (delays and webhook requests may overlap). */
export const chatQueues = new Map<number, Promise<void>>();

export function inChat(chatId: number, job: () => Promise<void>): Promise<void> {
  // each job starts outside any node, so a node's id never leaks into the next update's calls
  const run = (chatQueues.get(chatId) ?? Promise.resolve()).then(() => NODE_SCOPE.run("", job)).catch((err) => {
    console.error("chat " + chatId + ": update failed:", err);
  });
  chatQueues.set(chatId, run);
  void run.then(() => {
    if (chatQueues.get(chatId) === run) chatQueues.delete(chatId);
  });
  return run;
}

// ─── Answers to questions (input nodes, collectUserInput) ──────────────────────

export function nodeAt(ref: NodeRef): ScenarioNode | undefined {
  const index = INDEX.get(ref.node);
  return index === undefined ? undefined : NODES[index];
}

export function collectOf(ref: NodeRef): CollectDef | undefined {
  const node = nodeAt(ref);
  if (node?.t === "input") return node.collect;
  if (node?.t !== "message") return undefined;
  return (ref.variant > 0 ? node.variants?.[ref.variant - 1]?.collect : undefined) ?? node.collect;
}

/**
 * The media in a message, as the kind of input that accepts it. It is stored as the reference
 * stores it: an object whose value is the file id, with the file's metadata ({var} renders the id,
 * {var.value} too, {var.file_name} the name).
 */
export function mediaIn(msg: IncomingMessage): { kind: MediaKind; file: FileRef } | undefined {
  const found: [MediaKind, string, { file_id: string; file_unique_id?: string; file_size?: number; file_name?: string; mime_type?: string }] | undefined =
    msg.photo?.length ? ["photo", "photo", msg.photo[msg.photo.length - 1]]
    : msg.video ? ["video", "video", msg.video]
    : msg.video_note ? ["video", "video_note", msg.video_note]
    : msg.animation ? ["video", "animation", msg.animation]
    : msg.audio ? ["audio", "audio", msg.audio]
    : msg.voice ? ["audio", "voice", msg.voice]
    : msg.document ? ["document", "document", msg.document]
    : undefined;
  if (!found) return undefined;
  const [kind, type, f] = found;
  const file: FileRef = { value: f.file_id, file_id: f.file_id, type };
  const meta = file as unknown as Record<string, unknown>;
  if (f.file_unique_id) meta.file_unique_id = f.file_unique_id;
  if (f.file_name) meta.file_name = f.file_name;
  if (f.mime_type) meta.mime_type = f.mime_type;
  if (f.file_size !== undefined) meta.file_size = f.file_size;
  return { kind, file };
}

export function isValid(text: string, v: ValidationDef | undefined): boolean {
  if (!v) return true;
  const inRange = (n: number) => (v.min === undefined || n >= v.min) && (v.max === undefined || n <= v.max);
  switch (v.kind) {
    case "number": {
      const n = toNumber(text);
      return n !== undefined && inRange(n);
    }
    case "email": return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(text.trim());
    case "phone": return /^\+?[\d\s()\-]{5,20}$/.test(text.trim());
    case "regex": return regex(v.pattern ?? "")?.test(text) ?? false;
    case "length": return inRange(text.length);
  }
}

export function userLanguageIsRussian(turn: Turn) {
  return /^(ru|uk|be|kk)/.test(turn.from?.language_code ?? "ru");
}

export async function askAgain(turn: Turn, collect: CollectDef) {
  const fallback = userLanguageIsRussian(turn)
    ? "Ответ не подходит. Попробуйте ещё раз."
    : "That answer does not fit. Please try again.";
  await sendText(turn, render(turn, collect.retry ?? fallback), "text");
}

/** Stores the answer the bot waits for and goes on; false when nothing was waiting or accepted. */
export async function collectAnswer(turn: Turn, msg: IncomingMessage): Promise<boolean> {
  const ref = turn.state.waiting;
  const collect = ref && collectOf(ref);
  if (!ref || !collect) {
    turn.state.waiting = undefined;
    return false;
  }
  let variable: string | undefined;
  let value: unknown;
  let kind: MediaKind | undefined;
  const media = mediaIn(msg);
  if (msg.text !== undefined && (collect.text || collect.any)) {
    if (!isValid(msg.text, collect.validate)) {
      await askAgain(turn, collect);
      return true; // still waiting
    }
    [variable, value] = [collect.variable, msg.text];
  } else if (media) {
    const slot = collect.media.find((m) => m.kind === media.kind);
    if (slot) [variable, value, kind] = [slot.variable, media.file, media.kind];
    else if (collect.any) [variable, value, kind] = [collect.variable, media.file, media.kind];
  } else if ((collect.any || collect.contact) && msg.contact) {
    [variable, value] = [collect.variable, msg.contact.phone_number];
  } else if ((collect.any || collect.location) && msg.location) {
    [variable, value] = [collect.variable, msg.location.latitude + "," + msg.location.longitude];
  }
  if (value === undefined) {
    if (!collect.retry) return false; // not an answer: the message is handled like any other
    await askAgain(turn, collect);
    return true;
  }
  if (variable) {
    store(turn, variable, value, collect.append);
    if (kind) turn.state.mediaKinds = { ...turn.state.mediaKinds, [variable]: kind };
  }
  log(turn, "answer stored in " + (variable ?? "(nothing)"));
  turn.state.waiting = undefined;
  cancelQuestionTimeout(turn.chatId);
  await go(turn, collect.target, ref.node);
  return true;
}

// ─── Buttons, commands, text triggers ──────────────────────────────────────────

/**
 * A pressed button (reply or inline). When the node that showed it collects input, the button's
 * text is the answer (unless skipDataCollection); then the button's own action runs.
 */
export async function press(turn: Turn, owner: NodeRef, button: ButtonDef, label: string, answer = label) {
  if (await replySelection(turn, owner, button)) return;
  turn.event.button_text = label;
  if (COUNTING) tally({ k: "press", at: new Date().toISOString(), node: owner.node, text: button.text });
  const collect = collectOf(owner);
  const stored = !!collect?.variable && !button.skipInput;
  if (stored) store(turn, collect!.variable!, answer, collect!.append);
  turn.state.waiting = undefined;
  cancelQuestionTimeout(turn.chatId);
  log(turn, "button " + JSON.stringify(label) + " (" + button.action + ")");
  if (button.action === "command") return runCommand(turn, button.target ?? "");
  if (button.action === "url" || button.action === "selection") return;
  await go(turn, button.target ?? (stored ? collect!.target : undefined), owner.node);
}

export async function runCommand(turn: Turn, name: string): Promise<boolean> {
  const command = COMMANDS.find((c) => c.command === name);
  if (!command) return false;
  // "/start promo_7": a deep link's parameter picks its own flow (docs/nodes/triggers.md).
  const param = command.links ? /^\/\S+\s+(\S{1,64})\s*$/.exec(turn.event.message_text ?? "")?.[1] : undefined;
  const link = param === undefined ? undefined : command.links!.find((l) => (l.match === "exact" ? param === l.value : param.startsWith(l.value)));
  const target = link ? link.target : command.target;
  if (!target) return false;
  turn.state.waiting = undefined;
  cancelQuestionTimeout(turn.chatId);
  if (command.adminOnly && !turn.isAdmin) {
    log(turn, "/" + name + " is for admins only");
    return true;
  }
  if (!(await mayModerate(turn, target))) {
    console.log("chat " + turn.chatId + ": /" + name + " refused: user " + (turn.from?.id ?? "?") + " is no administrator of the chat it acts on");
    return true;
  }
  if (link?.saveAs) turn.state.vars[link.saveAs] = param;
  log(turn, "command /" + name + (link ? " (deep link " + link.match + " " + JSON.stringify(link.value) + ")" : ""));
  await go(turn, target, link ? link.via : command.via);
  return true;
}

/**
 * A moderation node answering its own command (/ban, /promote, ...) acts with the bot's rights, so
 * only the bot's admins and the administrators of the chat it acts on may send it; else any member
 * could ban the others or promote himself. Flows that reach such a node otherwise are the author's.
 */
export async function mayModerate(turn: Turn, target: string): Promise<boolean> {
  const index = INDEX.get(target);
  const node = index === undefined ? undefined : NODES[index];
  if (node?.t !== "action" || node.do.kind !== "moderate" || turn.isAdmin) return true;
  if (!turn.from) return false;
  try {
    const member = await turn.ctx.api.getChatMember(chatOf(turn, node.do.chat), turn.from.id);
    return member.status === "creator" || member.status === "administrator";
  } catch {
    return false;
  }
}

/** Exact matches (case-insensitive) first, then "contains", each in scenario order. */
export function matchTrigger(text: string): TextTriggerDef | undefined {
  const exact = text.trim().toLowerCase();
  const whole = text.toLowerCase(); // "contains" keeps spaces: "-sms " must not match "-sms"
  return (
    TEXT_TRIGGERS.find((tr) => tr.match === "exact" && tr.texts.some((s) => s.trim().toLowerCase() === exact)) ??
    TEXT_TRIGGERS.find((tr) => tr.match === "contains" && tr.texts.some((s) => whole.includes(s.toLowerCase())))
  );
}

/** A reply button of the keyboard on the user's screen whose text matches. */
export function shownButton(turn: Turn, test: (b: ButtonDef, shownText: string) => boolean): { owner: NodeRef; button: ButtonDef } | undefined {
  const shown = turn.state.keyboard;
  const node = shown && nodeAt(shown);
  if (!shown || (node?.t !== "message" && node?.t !== "input")) return undefined;
  const kb = keyboardOf(node, shown.variant);
  const i = kb?.buttons.findIndex((b, j) => test(b, shown.texts[j] ?? "")) ?? -1;
  return i >= 0 ? { owner: shown, button: kb!.buttons[i] } : undefined;
}

/** Any reply button in the scenario with this (fixed) text: keyboards stay on screen across restarts. */
export function anyReplyButton(text: string): { owner: NodeRef; button: ButtonDef } | undefined {
  for (const node of NODES) {
    if (node.t !== "message") continue;
    const keyboards = [node.keyboard, ...(node.variants ?? []).map((v) => v.keyboard)];
    for (let variant = 0; variant < keyboards.length; variant++) {
      const kb = keyboards[variant];
      if (kb?.kind !== "reply") continue;
      const button = kb.buttons.find((b) => b.text === text && !b.text.includes("{"));
      if (button) return { owner: { node: node.id, variant }, button };
    }
  }
  return undefined;
}
