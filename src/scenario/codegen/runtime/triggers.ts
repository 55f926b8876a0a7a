// Runtime source: message triggers (incoming, outgoing, forum topic) and schedules.
// (Part of every generated bot; see types.ts.)
import { Context } from "grammy";
import { Cron } from "croner";
import type { ScheduleDef } from "./action-tables";
import { chatOf, describe } from "./actions";
import { atMassPace, broadcastRecipients, paceAsMassTurn } from "./broadcast";
import { readOnce } from "./connection";
import { go, inChat, log } from "./flow";
import { MESSAGE_TRIGGERS, SCHEDULES } from "./program-data";
import { bot, handle } from "./router";
import { askedText, isMessageSend } from "./sends";
import { ADMIN_IDS, TOKEN_ID, db, loadState, saveState, states } from "./storage";
import type { IncomingMessage, Sender, Turn } from "./types";
import { updatesAskedFor } from "./update-kinds";
import { nodeOfMessage } from "./record";
import { paid } from "./payments";
import { recordedSender } from "./senders";
import { wellFormedPayment } from "./record-fields";
import { render, toText } from "./values";

// ─── Message triggers ──────────────────────────────────────────────────────────

/** A turn for work no update started (schedules, outgoing triggers, topic messages): sends go to chatId. */
export function systemTurn(chatId: number, from?: Sender, chatType?: string): Turn {
  const ctx = new Context({ update_id: 0 }, bot.api, bot.botInfo);
  // Telegram gives users positive ids and groups and channels negative ones: a positive chat is private.
  return { ctx, chatId, state: loadState(chatId), from, isAdmin: !!from && ADMIN_IDS.has(String(from.id)), event: {}, steps: 0, chatType: chatType ?? (chatId > 0 ? "private" : undefined) };
}

/**
 * The update's message id, the id it replied to and that message's author, and the message whose
 * button was pressed: from the update, else what the turn was rebuilt with (a wait's continuation).
 */
export function messageOf(turn: Turn): Turn["msg"] {
  const m = turn.ctx.msg;
  if (!m) return turn.msg;
  return { id: m.message_id, reply: m.reply_to_message?.message_id, replyFrom: m.reply_to_message?.from?.id, pressed: turn.ctx.callbackQuery?.message?.message_id };
}

/** The chat's type: from the update, else what the turn was rebuilt with (systemTurn). */
export function chatTypeOf(turn: Turn): string | undefined {
  return turn.ctx.chat?.type ?? turn.chatType;
}

/**
 * Runs a flow in another chat's queue and saves that chat's state; `via`: the trigger node that
 * starts it, `from`: the user the turn is for (a recorded user: recordedSender, broadcastRecipients).
 * False when the flow failed (inChat logs it).
 */
export async function runIn(chatId: number, target: string, prepare: (turn: Turn) => void = () => undefined, via?: string, from?: Sender): Promise<boolean> {
  let ok = false;
  await inChat(chatId, async () => {
    const turn = systemTurn(chatId, from);
    prepare(turn);
    try {
      await go(turn, target, via);
      ok = true;
    } finally {
      saveState(turn);
    }
  });
  return ok;
}

/**
 * Before the usual handling of a message: a topic message in a watched forum group goes to the
 * user the topic belongs to (true: handled); incoming triggers run for every message (false).
 */
export async function messageTriggers(turn: Turn, msg: IncomingMessage): Promise<boolean> {
  if (msg.successful_payment) {
    if (wellFormedPayment(msg.successful_payment)) return paid(turn, msg.successful_payment);
    log(turn, "a successful_payment without a charge id or a positive whole amount: ignored");
    return true;
  }
  const chatType = turn.ctx.chat?.type;
  if ((chatType === "group" || chatType === "supergroup") && msg.message_thread_id && !msg.from?.is_bot) {
    for (const t of MESSAGE_TRIGGERS) {
      if (t.on !== "group" || !sameChat(render(turn, t.group ?? ""), turn.chatId)) continue;
      const user = userByThread(t.threadVariable ?? "", msg.message_thread_id);
      if (user === undefined) {
        log(turn, "topic " + msg.message_thread_id + ": no user has " + t.threadVariable + " = " + msg.message_thread_id);
        continue;
      }
      log(turn, "topic " + msg.message_thread_id + " → user " + user);
      void runIn(user, t.target, (u) => {
        if (t.userVariable) u.state.vars[t.userVariable] = String(user);
        u.event.message_text = msg.text ?? msg.caption ?? "";
      }, t.node, recordedSender(user));
      return true;
    }
  }
  for (const t of MESSAGE_TRIGGERS) if (t.on === "incoming") await go(turn, t.target, t.node);
  return false;
}

/** A group id as the author wrote it ("1234567890" stands for -1001234567890). */
export function sameChat(written: string, chatId: number): boolean {
  const id = written.trim();
  return id !== "" && (id === String(chatId) || "-100" + id === String(chatId));
}

/** The private chat whose variable holds this topic id: chats in memory first, then the database. */
export function userByThread(variable: string, thread: number): number | undefined {
  for (const [chatId, state] of states) if (chatId > 0 && toText(state.vars[variable]) === String(thread)) return chatId;
  if (!db) return undefined;
  try {
    const row = readOnce<{ chat_id: string }>(
      db,
      "SELECT chat_id FROM bot_state WHERE token_id = ? AND CAST(json_extract(variables, ?) AS TEXT) = ? LIMIT 1",
      TOKEN_ID, "$." + JSON.stringify(variable), String(thread),
    )[0];
    return row ? Number(row.chat_id) : undefined;
  } catch (err) {
    console.error("group_message_trigger: cannot search the users:", err);
    return undefined;
  }
}

/** Chats whose outgoing-trigger flow is running: its own messages do not trigger it again. */
export const outgoingBusy = new Set<number>();

/** The outgoing-message triggers of the program: fixed, so a send looks at none when there are none. */
const OUTGOING = MESSAGE_TRIGGERS.filter((t) => t.on === "outgoing");

// After every message the bot puts in a chat (MESSAGE_SENDS): copies and forwards too, which the
// user sees as any other message of the bot (docs/nodes/triggers.md, outgoing_message_trigger).
bot.api.config.use(async (prev, method, payload, signal) => {
  const res = await prev(method, payload, signal);
  if (OUTGOING.length === 0 || !res.ok || !isMessageSend(method)) return res;
  const chat = Number((payload as { chat_id?: unknown }).chat_id);
  if (!Number.isSafeInteger(chat) || outgoingBusy.has(chat)) return res;
  // a forward's text is the forwarded message's, which only the answer carries
  const shown = res.result as { text?: unknown; caption?: unknown };
  const text = askedText(method, payload as Record<string, unknown>) ?? shown?.text ?? shown?.caption;
  // a private chat's user as recorded, as its message turns know them: read once for all the triggers
  const from = recordedSender(chat);
  for (const t of OUTGOING) {
    void inChat(chat, async () => {
      outgoingBusy.add(chat);
      const turn = systemTurn(chat, from);
      turn.event.message_text = typeof text === "string" ? text : "";
      try {
        await go(turn, t.target, t.node);
      } finally {
        outgoingBusy.delete(chat);
        saveState(turn);
      }
    });
  }
  return res;
});

// ─── Reactions, members and join requests ──────────────────────────────────────

/** What polling asks for: the same list the platform gives setWebhook (update-kinds.ts). */
export function allowedUpdates(): NonNullable<Parameters<typeof bot.start>[0]>["allowed_updates"] {
  return updatesAskedFor(MESSAGE_TRIGGERS) as NonNullable<Parameters<typeof bot.start>[0]>["allowed_updates"];
}

type MemberState = { status: string; is_member?: boolean };
const isIn = (m: MemberState) => m.status === "creator" || m.status === "administrator" || m.status === "member" || (m.status === "restricted" && m.is_member === true);

/** joined, left, promoted, demoted; in a private chat the bot blocked or unblocked by its user. */
export function memberEvent(before: MemberState, after: MemberState, privateChat: boolean): string | undefined {
  if (privateChat) return after.status === "kicked" ? "blocked" : before.status === "kicked" && after.status === "member" ? "unblocked" : undefined;
  if (!isIn(before) && isIn(after)) return "joined";
  if (isIn(before) && !isIn(after)) return "left";
  if (before.status !== "administrator" && after.status === "administrator") return "promoted";
  if (before.status === "administrator" && after.status !== "administrator") return "demoted";
  return undefined;
}

bot.on("message_reaction", (ctx) => {
  const r = ctx.messageReaction;
  const emojiOf = (list: typeof r.new_reaction) => list.flatMap((x) => (x.type === "emoji" ? [x.emoji as string] : []));
  const before = emojiOf(r.old_reaction);
  const added = emojiOf(r.new_reaction).filter((e) => !before.includes(e));
  if (added.length === 0) return;
  let sender: string | null | undefined;
  for (const t of MESSAGE_TRIGGERS) {
    if (t.on !== "reaction") continue;
    const emoji = added.find((e) => !t.only || t.only.includes(e));
    if (emoji === undefined) continue;
    if (t.fromNodes) {
      sender ??= nodeOfMessage(r.chat.id, r.message_id);
      if (!sender || !t.fromNodes.includes(sender)) continue;
    }
    return handle(ctx, (turn) => {
      turn.state.vars.reaction_emoji = emoji;
      turn.state.vars.reacted_message_id = String(r.message_id);
      log(turn, "reaction " + emoji + " on message " + r.message_id);
      return go(turn, t.target, t.node);
    });
  }
});

// Other parts watch my_chat_member too (a blocked user is marked): this one always passes it on.
bot.on(["chat_member", "my_chat_member"], async (ctx, next) => {
  const u = ctx.chatMember ?? ctx.myChatMember!;
  const event = memberEvent(u.old_chat_member, u.new_chat_member, u.chat.type === "private");
  const t = event && MESSAGE_TRIGGERS.find((x) => x.on === "member" && (!x.only || x.only.includes(event)));
  if (t) {
    await handle(ctx, (turn) => {
      turn.state.vars.member_event = event;
      turn.state.vars.member_id = String(u.new_chat_member.user.id);
      log(turn, "member " + u.new_chat_member.user.id + " " + event);
      return go(turn, t.target, t.node);
    });
  }
  await next();
});

// A join request's flow runs in the private chat with the user (a bot may write there for 5 minutes);
// approve_join_request / decline_join_request answer it for {join_chat_id}.
bot.on("chat_join_request", (ctx) => {
  const q = ctx.chatJoinRequest;
  const t = MESSAGE_TRIGGERS.find((x) => x.on === "join_request");
  if (!t) return;
  return inChat(q.user_chat_id, async () => {
    const turn = systemTurn(q.user_chat_id, q.from);
    turn.state.vars.join_chat_id = String(q.chat.id);
    turn.state.vars.join_chat_title = "title" in q.chat ? q.chat.title ?? "" : "";
    log(turn, "join request to chat " + q.chat.id);
    try {
      await go(turn, t.target, t.node);
    } finally {
      saveState(turn);
    }
  });
});

// ─── Schedules ─────────────────────────────────────────────────────────────────

export const scheduleJobs: { stop(): void }[] = [];
export const scheduleRunning = new Set<string>();

/**
 * One run of a schedule: in its chat, or for every recorded user, each as that user, as a broadcast
 * sends (atMassPace): each user's turn a mass turn, its messages at the mass pace (paceAsMassTurn).
 */
export async function runSchedule(s: ScheduleDef) {
  if (scheduleRunning.has(s.id)) return console.log("schedule " + s.id + ": the previous run is still going; skipped");
  scheduleRunning.add(s.id);
  try {
    if (s.chat) {
      const chat = chatOf(systemTurn(0), s.chat);
      if (typeof chat !== "number") throw new Error("schedules run in chats given by number, not " + chat);
      await runIn(chat, s.target, undefined, s.id);
      return;
    }
    const users = broadcastRecipients();
    const { failed } = await atMassPace("schedule " + s.id, users, (user) => runIn(user.id, s.target, paceAsMassTurn, s.id, user));
    log(systemTurn(0), "schedule " + s.id + ": ran for " + users.length + " users" + (failed > 0 ? " (" + failed + " failed)" : ""));
  } catch (err) {
    console.error("schedule " + s.id + " failed: " + describe(err));
  } finally {
    scheduleRunning.delete(s.id);
  }
}

export function startSchedules() {
  for (const s of SCHEDULES) {
    for (const pattern of s.cron) scheduleJobs.push(new Cron(pattern, { timezone: s.timezone, protect: true }, () => runSchedule(s)));
    for (const seconds of s.every) {
      const timer = setInterval(() => void runSchedule(s), seconds * 1000);
      scheduleJobs.push({ stop: () => clearInterval(timer) });
    }
    if (s.runOnStart) void runSchedule(s);
  }
  if (SCHEDULES.length > 0) console.log("schedules: " + SCHEDULES.map((s) => s.id).join(", "));
}

export function stopSchedules() {
  for (const job of scheduleJobs.splice(0)) job.stop();
}
