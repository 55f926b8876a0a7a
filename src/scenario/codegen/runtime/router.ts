// Runtime source, part 6: which handler an update goes to.
// (Part of every generated bot; see types.ts.)
import { Bot, Context } from "grammy";
import { ackPress, answersItself } from "./actions";
import { BROADCAST_PER_SECOND, onBroadcastAnswer } from "./broadcast";
import { INTERNAL_CODE, answerByPress, buttonActs, buttonAt, catchAllCallback, codeOf, dataOf, finishSelection, matchCallback, runCallbackTrigger, toggleSelection, waitsForPress } from "./callbacks";
import { INDEX, anyReplyButton, collectAnswer, go, inChat, log, matchTrigger, press, runCommand, shownButton, userLanguageIsRussian } from "./flow";
import { sendText } from "./messages";
import { COMMANDS, OPTIONS } from "./program-data";
import { ADMIN_IDS, API_ROOT, BOT_TOKEN, TOKEN_ID, db, loadState, saveState, touchUser } from "./storage";
import { holdSendTime } from "./pace";
import { noteIncoming } from "./record";
import { startParamOf } from "./record-fields";
import { messageTriggers } from "./triggers";
import type { IncomingMessage, Turn } from "./types";
import { render } from "./values";

// ─── Updates ───────────────────────────────────────────────────────────────────

export const bot = new Bot(BOT_TOKEN, { client: { apiRoot: API_ROOT } });

bot.catch((err) => console.error("update " + err.ctx.update.update_id + " failed:", err.error));

/** The longest "retry after" a call waits out; the messenger asking for more fails the call. */
export const RETRY_AFTER_MAX_S = 60;

/** Until when (epoch ms) the messenger told this bot to wait: no call but getUpdates starts before then. */
export let callsHeldUntil = 0;

/**
 * The messenger's flood limit is the bot's, not one chat's: after a 429 every call waits, or the
 * others go on at full pace and collect more 429s. The hold is written to the token's send pace row
 * too (pace.ts), where the bot's mass sends and the platform's campaigns reserve their send time.
 */
export function holdCalls(until: number) {
  if (until <= callsHeldUntil) return;
  callsHeldUntil = until;
  if (!db) return;
  try {
    holdSendTime(db, TOKEN_ID, until, BROADCAST_PER_SECOND);
  } catch (err) {
    console.error("the shared send pace cannot be held; holding this bot's calls alone:", err);
  }
}

// Telegram answers 429 with retry_after past its rates (about 30 messages a second, one a second
// in a chat, 20 a minute in a group): with chats side by side a busy moment passes them, and an
// answer should come late rather than not at all. Waited out twice at most (docs/runtime.md#taking-updates),
// and by every other call of the bot meanwhile but the taking of updates (docs/nodes/messaging.md#flood-limit).
bot.api.config.use(async (prev, method, payload, signal) => {
  for (let attempt = 0; ; attempt++) {
    if (method !== "getUpdates") while (Date.now() < callsHeldUntil) await Bun.sleep(callsHeldUntil - Date.now());
    const res = await prev(method, payload, signal);
    const wait = !res.ok && res.error_code === 429 ? res.parameters?.retry_after : undefined;
    if (wait === undefined || wait > RETRY_AFTER_MAX_S || method === "getUpdates") return res;
    holdCalls(Date.now() + wait * 1000);
    if (attempt >= 2) return res;
    console.log("the messenger asked to wait " + wait + " s before " + method + "; sending again then");
  }
});

/**
 * At most this many updates run unfinished before the bot waits for one to end (the getUpdates
 * batch is 100, so a busy minute never holds the bot; a flood cannot queue without bound).
 */
export const TURNS_AHEAD = 500;
let turnsRunning = 0;

// Chats run side by side. grammY's polling and its webhook callback wait for the middleware before
// they take the next update, so a long turn in one chat (an http_request, an AI answer, a loop's
// pauses) held every other user of the bot behind it. Each chat still runs its updates in order
// (its queue in inChat, joined before the first await of any handler). docs/runtime.md#taking-updates.
bot.use((ctx, next) => {
  turnsRunning++;
  const run = next()
    .catch((err) => console.error("update " + ctx.update.update_id + " failed:", err))
    .finally(() => turnsRunning--);
  return turnsRunning > TURNS_AHEAD ? run : undefined;
});

/**
 * Runs one update in its chat's queue: user record, handler, state written through. `evenHeld`:
 * the work runs also in a chat an operator holds (it answers Telegram, not the user).
 */
export function handle(ctx: Context, work: (turn: Turn) => Promise<unknown>, opts: { evenHeld?: boolean } = {}) {
  const chatId = ctx.chat?.id ?? ctx.from?.id;
  if (chatId === undefined) return;
  // An operator holds the chat: recorded, seen (last-seen time too), not answered; a press still stops spinning.
  if (noteIncoming(ctx, chatId) && !opts.evenHeld) {
    touchUser(ctx.from, loadState(chatId));
    return ctx.callbackQuery ? ctx.answerCallbackQuery().catch(() => undefined) : undefined;
  }
  return inChat(chatId, async () => {
    const turn = updateTurn(ctx, chatId);
    try {
      await work(turn);
    } finally {
      saveState(turn);
    }
  });
}

/** The turn of an update in its chat, on the chat's state; the user is recorded as seen. */
export function updateTurn(ctx: Context, chatId: number): Turn {
  const from = ctx.from;
  const turn: Turn = {
    ctx,
    chatId,
    state: loadState(chatId),
    from,
    isAdmin: !!from && ADMIN_IDS.has(String(from.id)),
    event: {},
    steps: 0,
  };
  // A deep link's parameter reaches the scenario as {start_param} and {referrer_id} (ref_<id>).
  const start = startParamOf(ctx.message?.text, ctx.from?.id);
  if (start) {
    turn.state.vars.start_param = start.source;
    if (start.referrer) turn.state.vars.referrer_id = start.referrer;
  }
  touchUser(from, turn.state);
  return turn;
}

// A payment runs its flow (what was bought) also in a chat an operator holds: the user has paid.
bot.on("message", (ctx) => handle(ctx, (turn) => onMessage(turn, ctx.message), { evenHeld: !!ctx.message.successful_payment }));
bot.on("callback_query:data", (ctx) => handle(ctx, (turn) => onCallback(turn, ctx.callbackQuery)));

/** "/start", "/start@this_bot payload" → "start"; commands addressed to other bots are not ours. */
export function commandIn(text: string): string | undefined {
  const m = /^\/([^\s@]+)(?:@(\S+))?/.exec(text);
  if (!m) return undefined;
  if (m[2] && m[2].toLowerCase() !== bot.botInfo.username.toLowerCase()) return undefined;
  return m[1].toLowerCase();
}

/**
 * Order: a known command; a button of the reply keyboard on screen (it wins over a pending
 * question); the answer to a pending question; text triggers; any fixed reply button; fallback.
 */
export async function onMessage(turn: Turn, msg: IncomingMessage) {
  const text = msg.text;
  turn.event.message_text = text ?? msg.caption ?? "";
  log(turn, "message " + JSON.stringify(text ?? "[" + Object.keys(msg).filter((k) => !/^(message_id|date|chat|from)$/.test(k)).join(",") + "]"));
  if (await messageTriggers(turn, msg)) return;
  if (text !== undefined) {
    const command = commandIn(text);
    if (command !== undefined && (await runCommand(turn, command))) return;
    const shown = shownButton(turn, (b, shownText) => !SHARES.includes(b.action) && shownText === text);
    if (shown) return press(turn, shown.owner, shown.button, text);
    if (await collectAnswer(turn, msg)) return;
    const trigger = matchTrigger(text);
    if (trigger) {
      turn.state.waiting = undefined;
      if (trigger.adminOnly && !turn.isAdmin) return log(turn, "text trigger for admins only");
      return go(turn, trigger.target, trigger.via);
    }
    const fixed = anyReplyButton(text);
    if (fixed) return press(turn, fixed.owner, fixed.button, text);
  } else if (msg.contact || msg.location || msg.poll || msg.web_app_data) {
    // A reply button that shares something answers with the phone number, "lat,lon", the poll's
    // question or the data the Mini App sent.
    const [action, shared] = msg.contact ? ["contact", msg.contact.phone_number]
      : msg.location ? ["location", msg.location.latitude + "," + msg.location.longitude]
      : msg.poll ? ["poll", msg.poll.question]
      : ["web_app", msg.web_app_data!.data];
    const shown = shownButton(turn, (b) => b.action === action);
    if (shown) return press(turn, shown.owner, shown.button, render(turn, shown.button.text), shared);
    if (await collectAnswer(turn, msg)) return;
  } else if (await collectAnswer(turn, msg)) {
    return;
  }
  await fallback(turn);
}

/** Reply buttons that answer with something shared, never with their own text. */
export const SHARES: string[] = ["contact", "location", "poll", "web_app", "managed_bot"];

/** With the catchAllHandlers flag, a private message that matched nothing gets a polite answer. */
export async function fallback(turn: Turn) {
  if (!OPTIONS.catchAll || turn.ctx.chat?.type !== "private") return log(turn, "nothing handles this message");
  const restart = COMMANDS.some((c) => c.command === "start");
  const text = userLanguageIsRussian(turn)
    ? "Извините, я не понял это сообщение." + (restart ? " Отправьте /start, чтобы начать сначала." : "")
    : "Sorry, I did not understand that." + (restart ? " Send /start to begin again." : "");
  await sendText(turn, text, "text");
}

export type CallbackQuery = NonNullable<Context["callbackQuery"]>;

/** The text of the pressed button as the user saw it on the message. */
export function labelOnMessage(query: CallbackQuery): string | undefined {
  const message = query.message;
  const rows = message && "reply_markup" in message ? message.reply_markup?.inline_keyboard : undefined;
  for (const row of rows ?? []) {
    for (const b of row) if ("callback_data" in b && b.callback_data === query.data) return b.text;
  }
  return undefined;
}

/**
 * A pressed inline button. Internal codes ("g:...") name their button. Other data is the
 * scenario's own: a callback trigger that matches it runs; else the static button that carries it.
 */
export async function onCallback(turn: Turn, query: CallbackQuery) {
  const raw = query.data ?? "";
  // Custom clients can send any callback_data for a message in their chat: only the data of a
  // button the pressed message really shows counts, else a user reaches any button's target (an
  // admin panel's behind an admin-only command included). An inline-mode message comes without
  // the message and cannot be checked.
  if (query.message && labelOnMessage(query) === undefined) {
    console.log("chat " + turn.chatId + ": press refused: the message shows no button with data " + JSON.stringify(raw));
    await ackPress(turn);
    return;
  }
  // An operator's "go to node" button (docs/dialogs.md): shown on the message, so the press is the user's.
  if (raw.startsWith("o:") && INDEX.has(raw.slice(2))) {
    await ackPress(turn);
    return go(turn, raw.slice(2));
  }
  if (await onBroadcastAnswer(turn, raw)) return;
  const data = dataOf(turn, raw);
  turn.event.callback_data = data;
  const shown = labelOnMessage(query);
  turn.event.button_text = shown ?? "";
  const code = INTERNAL_CODE.test(raw) ? raw : codeOf(turn, data);
  // A trigger for the scenario's own data first; a button that leads somewhere next; then the
  // answer to a waiting question (callback input); the catch-all last.
  const own = code === raw ? undefined : matchCallback(data);
  const acts = !!code && buttonActs(code);
  const trigger = own ?? (acts || waitsForPress(turn) ? undefined : catchAllCallback());
  if (trigger) {
    if (!answersItself(trigger.target)) await ackPress(turn);
    await runCallbackTrigger(turn, trigger, data);
  } else if (code && (acts || !waitsForPress(turn))) {
    await pressCode(turn, query, code, shown);
  } else if (waitsForPress(turn)) {
    await ackPress(turn);
    await answerByPress(turn, shown ?? data);
  } else {
    log(turn, "nothing handles button data " + JSON.stringify(data));
  }
  await ackPress(turn); // unless the flow answered it (answer_callback_query)
}

export async function pressCode(turn: Turn, query: CallbackQuery, code: string, shown: string | undefined) {
  const found = buttonAt(code);
  // Button data is index-based: on a message sent before the scenario changed, the same data may
  // now name another button. A fixed label that no longer matches means the message is outdated.
  const expected = found && found.button.action !== "selection" ? found.button.text : undefined;
  const outdated = !found || (shown !== undefined && expected !== undefined && !expected.includes("{") && shown !== expected);
  if (outdated || !found) {
    await ackPress(turn, userLanguageIsRussian(turn) ? "Эта кнопка устарела. Отправьте /start." : "This button is outdated. Send /start.");
    return log(turn, "button data " + JSON.stringify(code) + " is not from this version of the scenario");
  }
  const { node, variant, kb, button } = found;
  // Answer first, so the button stops spinning whatever happens next (unless the flow answers it).
  if (!answersItself(button.target)) await ackPress(turn);
  const owner = { node: node.id, variant };
  const label = button.action === "selection" ? render(turn, button.text) : shown ?? render(turn, button.text);
  turn.event.message_text = label;
  if (button.action === "selection") return toggleSelection(turn, owner, kb, label);
  if (kb.multi && (button.action === "continue" || button.action === "complete")) finishSelection(turn, owner, kb);
  if (button.hide && query.message) {
    await turn.ctx.editMessageReplyMarkup({ reply_markup: { inline_keyboard: [] } }).catch((err) => {
      console.error("could not hide the keyboard:", err);
    });
  }
  await press(turn, owner, button, label);
}
