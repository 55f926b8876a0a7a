// Runtime source: the message store and the people of a bot (docs/dialogs.md). Every message the
// bot receives or sends, edits and deletions go to a queue that one transaction writes every
// RECORD_WINDOW_MS (or at RECORD_BATCH_ROWS): no reply waits for the disk. An operator's takeover
// keeps the scenario from answering a chat; the platform's commands arrive through tellBot
// (platform-commands.ts).
// (Part of every generated bot; see types.ts.)
import { AsyncLocalStorage } from "node:async_hooks";
import { Context } from "grammy";
import { clearCounts, commandOf, COUNTING, countRecord, countsWaiting, tally, type Tally, writeCounts } from "./analytics";
import { inTransaction, lazyStatements } from "./connection";
import { NODE_SCOPE } from "./flow";
import { bot } from "./router";
import { messageFileId } from "./message-file";
import { askedText, isMessageSend, MESSAGE_SENDS, sentMessages } from "./sends";
import { TOKEN_ID, db, env } from "./storage";
import { cut } from "./values";
import { buttonsOf, chatInfo, formattingOf, kindOf, NO_LOOK, sentKind, sentText, startParamOf, type Button, type ChatInfo, type Formatting, type SentMessage } from "./record-fields";

// ─── Message store: queued, written in batches ─────────────────────────────────

/** The token's messageRetentionDays (the platform sets it; 30 without it, 0 = no message is kept). */
export const RETENTION_DAYS = /^\d+$/.test(env.BOTLOOM_MESSAGE_RETENTION_DAYS ?? "") ? Number(env.BOTLOOM_MESSAGE_RETENTION_DAYS) : 30;
/** The batch window: a record waits at most this long before its transaction commits. */
export const RECORD_WINDOW_MS = 50;
export const RECORD_BATCH_ROWS = 200;
/** Run by the platform: each batch is followed by a line naming the chats it touched (live events). */
export const TELL_PLATFORM = env.BOTLOOM_EVENTS === "1";
/** The first characters of that line; the platform takes such lines out of the bot's log. */
export const EVENT_MARK = "\u001fbotloom:chat-message ";

export type MessageRecord = {
  chatId: string;
  direction: "in" | "out";
  sentBy: "user" | "bot" | "campaign";
  kind: string;
  text: string;
  buttons: Button[][] | null;
  callbackData: string | null;
  nodeId: string | null;
  mid: number | null;
  at: string;
  chat: ChatInfo | null;
  /** the parse mode it was sent with (then `text` is the marked-up text) or the entities over its plain text */
  look: Formatting;
  /** the chat list's line when `text` is marked up */
  plain?: string;
  /** the messenger's file id of its media */
  fileId: string | null;
};
/** How a message's text is formatted (bot_message_details); both null for plain text. */
export type PersonRecord = { userId: string; premium: number; language: string | null; source: string | null; referrer: string | null; at: string; in: number; out: number };
export type RecordOp =
  | { t: "msg"; m: MessageRecord }
  | { t: "edit"; chatId: string; mid: number; text: string; at: string; look: Formatting }
  | { t: "del"; chatId: string; mids: number[]; at: string }
  | { t: "person"; p: PersonRecord }
  | { t: "blocked"; userId: string; on: boolean; at: string }
  | { t: "count"; c: Tally }
  | { t: "paid"; userId: string; charge: string; provider: string | null; amount: number; currency: string; payload: string; at: string }
  | { t: "refunded"; charge: string; at: string };

/** Set while a broadcast node sends: its messages are recorded as `sentBy: "campaign"`. */
export const SENT_BY = new AsyncLocalStorage<"campaign">();

export const recordQueue: RecordOp[] = [];
export let recordTimer: ReturnType<typeof setTimeout> | undefined;

export const recordSql = db && lazyStatements({
  message: () => db!.prepare<{ id: number }, [number, string, string, string, string, string, string | null, string | null, string | null, number | null, string]>(
    "INSERT INTO bot_messages (token_id, chat_id, direction, sent_by, kind, text, buttons, callback_data, node_id, " +
      "messenger_message_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
  ),
  chat: () => db!.prepare<unknown, [number, string, string, string | null, string | null, string | null, string | null, string, string, number]>(
    "INSERT INTO bot_chats (token_id, chat_id, kind, title, user_id, first_name, username, last_message_at, last_message_text, unread) " +
      "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (token_id, chat_id) DO UPDATE SET " +
      "kind = coalesce(excluded.kind, bot_chats.kind), title = coalesce(excluded.title, bot_chats.title), " +
      "user_id = coalesce(excluded.user_id, bot_chats.user_id), first_name = coalesce(excluded.first_name, bot_chats.first_name), " +
      // a private chat's own record (its first name is always there) says the user's @username as it is now: removed, it goes
      "username = CASE WHEN excluded.kind = 'private' AND excluded.first_name IS NOT NULL THEN excluded.username ELSE coalesce(excluded.username, bot_chats.username) END, " +
      "last_message_at = excluded.last_message_at, " +
      "last_message_text = excluded.last_message_text, unread = bot_chats.unread + excluded.unread",
  ),
  edit: () => db!.prepare<{ id: number }, [string, string, number, string, number]>(
    "UPDATE bot_messages SET text = ?, edited_at = ? WHERE token_id = ? AND chat_id = ? AND messenger_message_id = ? RETURNING id",
  ),
  details: () => db!.prepare<unknown, [number, number, string | null, string | null, string | null]>(
    "INSERT INTO bot_message_details (id, token_id, format, entities, file_id) VALUES (?, ?, ?, ?, ?)",
  ),
  // an edit changes the text's formatting, never the file
  look: () => db!.prepare<unknown, [number, number, string | null, string | null]>(
    "INSERT INTO bot_message_details (id, token_id, format, entities) VALUES (?, ?, ?, ?) " +
      "ON CONFLICT (id) DO UPDATE SET format = excluded.format, entities = excluded.entities",
  ),
  plainLook: () => db!.prepare<unknown, [number]>("UPDATE bot_message_details SET format = NULL, entities = NULL WHERE id = ?"),
  del: () => db!.prepare<unknown, [string, number, string, number]>(
    "UPDATE bot_messages SET deleted_at = ? WHERE token_id = ? AND chat_id = ? AND messenger_message_id = ? AND deleted_at IS NULL",
  ),
  person: () => db!.prepare<unknown, [number, string, number, string | null, string | null, string | null, string, string, number, number]>(
    "INSERT INTO bot_people (token_id, user_id, is_premium, language_code, source, referrer_id, first_seen_at, last_seen_at, " +
      "messages_in, messages_out) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (token_id, user_id) DO UPDATE SET " +
      "is_premium = CASE WHEN excluded.messages_in > 0 THEN excluded.is_premium ELSE bot_people.is_premium END, " +
      "language_code = coalesce(excluded.language_code, bot_people.language_code), " +
      "source = coalesce(bot_people.source, excluded.source), referrer_id = coalesce(bot_people.referrer_id, excluded.referrer_id), " +
      "last_seen_at = CASE WHEN excluded.messages_in > 0 THEN excluded.last_seen_at ELSE bot_people.last_seen_at END, " +
      "messages_in = bot_people.messages_in + excluded.messages_in, messages_out = bot_people.messages_out + excluded.messages_out, " +
      // a message from the user means they are back
      "blocked = CASE WHEN excluded.messages_in > 0 THEN 0 ELSE bot_people.blocked END, " +
      "blocked_at = CASE WHEN excluded.messages_in > 0 THEN NULL ELSE bot_people.blocked_at END",
  ),
  blocked: () => db!.prepare<unknown, [number, string, number, string | null, string, string]>(
    "INSERT INTO bot_people (token_id, user_id, blocked, blocked_at, first_seen_at, last_seen_at) VALUES (?, ?, ?, ?, ?, ?) " +
      "ON CONFLICT (token_id, user_id) DO UPDATE SET blocked = excluded.blocked, blocked_at = excluded.blocked_at",
  ),
  // a redelivered update records its charge once
  paid: () => db!.prepare<unknown, [number, string, string, string | null, number, string, string, string]>(
    "INSERT INTO bot_payments (token_id, user_id, charge_id, provider_charge_id, amount, currency, payload, paid_at) " +
      "VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (token_id, charge_id) DO NOTHING",
  ),
  // a payment's flow runs once per charge (payments.ts), also after a restart
  charged: () => db!.prepare<{ one: number }, [number, string]>("SELECT 1 AS one FROM bot_payments WHERE token_id = ? AND charge_id = ?"),
  refunded: () => db!.prepare<unknown, [string, number, string]>(
    "UPDATE bot_payments SET status = 'refunded', refunded_at = ? WHERE token_id = ? AND charge_id = ? AND status = 'paid'",
  ),
  takeover: () => db!.prepare<{ takeover: number }, [number, string]>("SELECT takeover FROM bot_chats WHERE token_id = ? AND chat_id = ?"),
  // +?: planned once, not at every bind (docs/database.md "Parameters planned once")
  sender: () => db!.prepare<{ node_id: string | null }, [number, string, number]>(
    "SELECT node_id FROM bot_messages WHERE token_id = +? AND chat_id = +? AND messenger_message_id = +? AND direction = 'out' ORDER BY id DESC LIMIT 1",
  ),
  prune: () => db!.prepare<{ id: number }, [number, string]>(
    "DELETE FROM bot_messages WHERE id IN (SELECT id FROM bot_messages WHERE token_id = ? AND created_at < ? LIMIT 2000) RETURNING id",
  ),
  pruneLooks: () => db!.prepare<unknown, [string]>("DELETE FROM bot_message_details WHERE id IN (SELECT value FROM json_each(?))"),
});

export const recordsMessages = !!recordSql && RETENTION_DAYS > 0;

export function queueRecord(op: RecordOp) {
  if (!recordSql) return;
  recordQueue.push(op);
  if (recordQueue.length >= RECORD_BATCH_ROWS) flushRecords();
  else recordTimer ??= setTimeout(flushRecords, RECORD_WINDOW_MS);
}

/**
 * Writes the queue in one transaction; then tells the platform which chats got which last message.
 * `withCounts` (the bot stopping, the count window's timer) also writes the analytics counts that
 * wait for their window (analytics.ts).
 */
export function flushRecords(withCounts = false) {
  if (recordTimer) clearTimeout(recordTimer);
  recordTimer = undefined;
  if (!recordSql || (recordQueue.length === 0 && !(withCounts && countsWaiting()))) return;
  const ops = recordQueue.splice(0);
  const last = new Map<string, number>();
  const q = recordSql;
  try {
    inTransaction(db!, () => {
      for (const op of ops) {
        // analytics read a person's state before this op changes it (docs/analytics.md)
        if (COUNTING) countRecord(op);
        if (op.t === "count") continue;
        if (op.t === "msg") {
          const m = op.m;
          const row = q.message.get(TOKEN_ID, m.chatId, m.direction, m.sentBy, m.kind, m.text, m.buttons ? JSON.stringify(m.buttons) : null, m.callbackData, m.nodeId, m.mid, m.at);
          if (row && (m.look.format || m.look.entities || m.fileId)) q.details.run(row.id, TOKEN_ID, m.look.format, m.look.entities, m.fileId);
          const c = m.chat;
          const preview = (m.plain ?? m.text) || "[" + m.kind + "]";
          q.chat.run(TOKEN_ID, m.chatId, c?.kind ?? (Number(m.chatId) > 0 ? "private" : "group"), c?.title ?? null, c?.userId ?? null, c?.firstName ?? null, c?.username ?? null, m.at, cut(preview, 200), m.direction === "in" ? 1 : 0);
          if (row) last.set(m.chatId, row.id);
        } else if (op.t === "edit") {
          for (const { id } of q.edit.all(op.text, op.at, TOKEN_ID, op.chatId, op.mid)) {
            if (op.look.format || op.look.entities) q.look.run(id, TOKEN_ID, op.look.format, op.look.entities);
            else q.plainLook.run(id);
          }
        } else if (op.t === "del") {
          for (const mid of op.mids) q.del.run(op.at, TOKEN_ID, op.chatId, mid);
        } else if (op.t === "person") {
          const p = op.p;
          q.person.run(TOKEN_ID, p.userId, p.premium, p.language, p.source, p.referrer, p.at, p.at, p.in, p.out);
        } else if (op.t === "paid") {
          q.paid.run(TOKEN_ID, op.userId, op.charge, op.provider, op.amount, op.currency, op.payload, op.at);
        } else if (op.t === "refunded") {
          q.refunded.run(op.at, TOKEN_ID, op.charge);
        } else {
          q.blocked.run(TOKEN_ID, op.userId, op.on ? 1 : 0, op.on ? op.at : null, op.at, op.at);
        }
      }
      if (COUNTING) writeCounts(withCounts);
    });
  } catch (err) {
    clearCounts();
    console.error("could not record " + ops.length + " messages:", err);
    return;
  }
  if (!TELL_PLATFORM || last.size === 0) return;
  const pairs = [...last];
  for (let i = 0; i < pairs.length; i += 100) console.log(EVENT_MARK + JSON.stringify(pairs.slice(i, i + 100)));
}

/** Removes messages older than the token's retention, a bounded chunk at a time (the bot keeps answering between). */
export function pruneMessages() {
  if (!recordSql || RETENTION_DAYS <= 0) return;
  const cutoff = new Date(Date.now() - RETENTION_DAYS * 86_400_000).toISOString();
  try {
    const q = recordSql;
    // a chunk and the details of its messages go in one transaction: none outlives its message
    const chunk = () =>
      inTransaction(db!, () => {
        const gone = q.prune.all(TOKEN_ID, cutoff);
        if (gone.length > 0) q.pruneLooks.run(JSON.stringify(gone.map((r) => r.id)));
        return gone.length;
      });
    for (let i = 0; i < 50; i++) if (chunk() < 2000) break;
  } catch (err) {
    console.error("could not prune old messages:", err);
  }
}

export const pruneTimer = recordSql && RETENTION_DAYS > 0 ? setInterval(pruneMessages, 3_600_000) : undefined;
if (pruneTimer) {
  pruneTimer.unref?.();
  setTimeout(pruneMessages, 1000).unref?.();
}

/**
 * The node that sent a message of the bot (reaction_trigger's messageNodes), from the store; null
 * when it is not recorded (no database, retention 0, or another sender). What waits in the queue
 * is written first, so a reaction right after the send finds it.
 */
export function nodeOfMessage(chatId: number, messageId: number): string | null {
  if (!recordSql || !recordsMessages) return null;
  flushRecords();
  try {
    return recordSql.sender.get(TOKEN_ID, String(chatId), messageId)?.node_id ?? null;
  } catch {
    return null;
  }
}

/**
 * Records an incoming message or press and the person who sent it; true when an operator holds
 * the chat, so the scenario stays silent (the record and the last-seen time are kept all the same).
 */
export function noteIncoming(ctx: Context, chatId: number): boolean {
  if (!recordSql) return false;
  const at = new Date().toISOString();
  const from = ctx.from;
  const msg = ctx.message;
  const query = ctx.callbackQuery;
  const chat = chatInfo(ctx.chat ?? (from ? { id: from.id, type: "private", first_name: from.first_name, username: from.username } : undefined), from);
  const start = startParamOf(msg?.text, from?.id);
  if (COUNTING) tally({ k: "in", at, command: commandOf(msg?.text, ctx.me.username) });
  if (from && !from.is_bot) {
    queueRecord({ t: "person", p: { userId: String(from.id), premium: from.is_premium ? 1 : 0, language: from.language_code ?? null, source: start?.source ?? null, referrer: start?.referrer ?? null, at, in: 1, out: 0 } });
  }
  if (recordsMessages) {
    if (msg) {
      const { kind, text } = kindOf(msg);
      const look = formattingOf(undefined, msg.entities ?? msg.caption_entities);
      queueRecord({ t: "msg", m: { chatId: String(chatId), direction: "in", sentBy: "user", kind, text, buttons: null, callbackData: null, nodeId: null, mid: msg.message_id, at, chat, look, fileId: messageFileId(msg) } });
    } else if (query) {
      const rows = query.message && "reply_markup" in query.message ? buttonsOf(query.message.reply_markup) : null;
      const label = rows?.flat().find((b) => b.data === query.data)?.text ?? "";
      queueRecord({ t: "msg", m: { chatId: String(chatId), direction: "in", sentBy: "user", kind: "callback", text: label, buttons: null, callbackData: query.data ?? null, nodeId: null, mid: null, at, chat, look: NO_LOOK, fileId: null } });
    }
  }
  try {
    return recordSql.takeover.get(TOKEN_ID, String(chatId))?.takeover === 1;
  } catch {
    return false;
  }
}

// ─── What the bot sends, edits and deletes (every Bot API call passes here) ────

/** The messenger's words for "this user will not get your messages" (the user is then marked blocked). */
export const BLOCKED_ERROR = /bot was blocked by the user|user is deactivated/i;

export function noteSent(method: string, payload: Record<string, unknown>, result: unknown) {
  const at = new Date().toISOString();
  const nodeId = NODE_SCOPE.getStore() || null;
  const list = sentMessages(result);
  if (COUNTING) tally({ k: "out", at, n: list.length });
  // a copy's answer is only its id: without its chat and content there is nothing to store
  if (MESSAGE_SENDS[method]?.answer === "ids") return;
  for (const r of list as SentMessage[]) {
    if (!r.chat) continue;
    const chatId = String(r.chat.id);
    if (r.chat.type === "private") queueRecord({ t: "person", p: { userId: chatId, premium: 0, language: null, source: null, referrer: null, at, in: 0, out: 1 } });
    if (!recordsMessages) continue;
    const kind = sentKind(method, r);
    const { text, look, plain } = sentText({ ...payload, text: askedText(method, payload) }, r);
    queueRecord({ t: "msg", m: { chatId, direction: "out", sentBy: SENT_BY.getStore() ?? "bot", kind, text, buttons: buttonsOf(payload.reply_markup), callbackData: null, nodeId, mid: r.message_id, at, chat: chatInfo(r.chat, undefined), look, plain, fileId: messageFileId(r) } });
  }
}

bot.api.config.use(async (prev, method, payload, signal) => {
  if (!recordSql) return prev(method, payload, signal);
  const p = payload as Record<string, unknown>;
  // A failure comes back as { ok: false } here; grammY throws it as a GrammyError after.
  const res = await prev(method, payload, signal);
  try {
    if (!res.ok) {
      const chat = p.chat_id;
      if (isMessageSend(method) && res.error_code === 403 && BLOCKED_ERROR.test(res.description) && (typeof chat === "number" || typeof chat === "string") && Number(chat) > 0) {
        queueRecord({ t: "blocked", userId: String(chat), on: true, at: new Date().toISOString() });
      }
    } else {
      const chat = p.chat_id === undefined ? undefined : String(p.chat_id);
      if (isMessageSend(method)) noteSent(method, p, res.result);
      else if (method === "refundStarPayment" && typeof p.telegram_payment_charge_id === "string") {
        queueRecord({ t: "refunded", charge: p.telegram_payment_charge_id, at: new Date().toISOString() });
      }
      else if (recordsMessages && chat && (method === "editMessageText" || method === "editMessageCaption") && typeof p.message_id === "number") {
        const { text, look } = sentText(p, typeof res.result === "object" ? (res.result as Partial<SentMessage>) : undefined);
        queueRecord({ t: "edit", chatId: chat, mid: p.message_id, text, at: new Date().toISOString(), look });
      } else if (recordsMessages && chat && (method === "deleteMessage" || method === "deleteMessages")) {
        const mids = (Array.isArray(p.message_ids) ? p.message_ids : [p.message_id]).filter((m): m is number => typeof m === "number");
        queueRecord({ t: "del", chatId: chat, mids, at: new Date().toISOString() });
      }
    }
  } catch (err) {
    console.error("could not note a sent message:", err);
  }
  return res;
});

// Edits by the user, and the user leaving or coming back (my_chat_member: kicked = blocked).
// Both pass the update on: member and edit triggers of the scenario may watch the same updates.
bot.on("edited_message", (ctx, next) => {
  const m = ctx.editedMessage;
  if (recordsMessages) queueRecord({ t: "edit", chatId: String(m.chat.id), mid: m.message_id, text: kindOf(m).text, at: new Date().toISOString(), look: formattingOf(undefined, m.entities ?? m.caption_entities) });
  return next();
});

bot.on("my_chat_member", (ctx, next) => {
  const u = ctx.myChatMember;
  if (u.chat.type === "private") queueRecord({ t: "blocked", userId: String(u.chat.id), on: u.new_chat_member.status === "kicked", at: new Date().toISOString() });
  return next();
});
