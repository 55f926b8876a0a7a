// Runtime source: the broadcast node. (Part of every generated bot; see types.ts.)
import { Context, GrammyError, InlineKeyboard } from "grammy";
import { inTransaction, readOnce } from "./connection";
import type { ActionNode, BroadcastAction } from "./action-tables";
import { ackPress, describe } from "./actions";
import { INDEX, NODE_SCOPE, go, inChat, userLanguageIsRussian } from "./flow";
import { sendText, showMessage } from "./messages";
import { NODES, OPTIONS } from "./program-data";
import { TOKEN_ID, db, loadState, saveState, states } from "./storage";
import type { MessageNode } from "./tables";
import type { Sender, Turn } from "./types";
import { SENT_BY, TELL_PLATFORM } from "./record";
import { render } from "./values";
import { reserveSendTime } from "./pace";
import { systemTurn } from "./triggers";
import { bot } from "./router";
import { readSenders, senderAlone } from "./senders";
import { isMessageSend } from "./sends";

// ─── Broadcast ─────────────────────────────────────────────────────────────────

/**
 * Sends per second at most. The messenger allows a bot about 30 messages per second in all; 25
 * leaves room for the bot's other answers while a broadcast runs.
 */
export const BROADCAST_PER_SECOND = 25;
/**
 * A broadcast's sends (a schedule's users' turns) in flight at most. They start at the pace, in the
 * recipients' order; one recipient whose chat is busy with a long turn, or whose send the messenger
 * answers late, holds one of them, not the others (a 429's retry_after holds every call of the bot:
 * holdCalls, router.ts). Five keep the pace with answers of up to 200 ms. Every message of theirs
 * has its own slot (paceAsMassTurn), so what reaches the messenger in any one second is at most the
 * 24 slots in it and the 5 in flight before: under its 30 (docs/nodes/messaging.md#broadcast).
 */
export const BROADCAST_IN_FLIGHT = 5;
export const BROADCAST_PROGRESS_EVERY = 100;
export let broadcasting = false;
/** When the next send to a recorded user may start (see paceMassSend). */
export let nextMassSend = 0;

/**
 * Waits for this bot's next slot for a send to a recorded user. Broadcasts and schedules "for every
 * user" share the slots, so several of them running at once still stay within BROADCAST_PER_SECOND
 * in all. Starts are at least 1000 / BROADCAST_PER_SECOND ms apart (plus 2 ms of slack for network
 * jitter); a slot is taken before the wait, so concurrent callers queue in order. With the project
 * file, the slot is also reserved in the token's send pace row, which the platform's sends
 * (campaigns, operators) reserve in too: together they keep the token's one pace (pace.ts).
 */
export async function paceMassSend(): Promise<void> {
  const now = Date.now();
  let at = Math.max(now, nextMassSend);
  if (db) {
    try {
      at = Math.max(at, reserveSendTime(db, TOKEN_ID, at, 0, undefined, BROADCAST_PER_SECOND).start);
    } catch (err) {
      console.error("broadcast: the shared send pace cannot be read; pacing alone:", err);
    }
  }
  nextMassSend = at + 1000 / BROADCAST_PER_SECOND + 2;
  if (at > now) await Bun.sleep(at - now);
}

/**
 * Every recorded bot user (bot_users), else the private chats this run has seen; never a user who
 * blocked the bot (bot_people). Each as the sender of a message of theirs would be, as their record
 * says in one read (readSenders, senders.ts), so the turn that sends them a broadcast's message, and
 * their turn of a schedule for every user, know them as a message turn does
 * (docs/nodes/messaging.md#broadcast, docs/nodes/triggers.md#time).
 */
export function broadcastRecipients(): Sender[] {
  const seen = [...states.keys()].filter((id) => id > 0);
  if (!db) return seen.map(senderAlone);
  try {
    return OPTIONS.userDatabase
      ? readSenders("SELECT token_id, user_id, id AS n FROM bot_users WHERE token_id = ?", TOKEN_ID)
      : readSenders("SELECT ? AS token_id, CAST(value AS TEXT) AS user_id, key AS n FROM json_each(?)", TOKEN_ID, JSON.stringify(seen));
  } catch (err) {
    console.error("broadcast: cannot read the users' records:", err);
    return OPTIONS.userDatabase ? [] : seen.map(senderAlone);
  }
}

/** Runs the node: asks first when it has a confirmation, else starts sending and goes on. */
export async function broadcast(turn: Turn, node: ActionNode, a: BroadcastAction): Promise<string | undefined> {
  if (a.confirm) {
    const index = INDEX.get(node.id)!;
    const ru = userLanguageIsRussian(turn);
    const markup = new InlineKeyboard()
      .text(ru ? "✅ Отправить" : "✅ Send", "bc:" + index + ":y")
      .text(ru ? "❌ Отмена" : "❌ Cancel", "bc:" + index + ":n");
    await sendText(turn, render(turn, a.confirm), "text", markup);
    return undefined; // goes on when answered (onBroadcastAnswer)
  }
  startBroadcast(turn, node, a);
  return node.next;
}

/** A press of the confirmation buttons; false when the data is not one. */
export async function onBroadcastAnswer(turn: Turn, data: string): Promise<boolean> {
  const m = /^bc:(\d+):([yn])$/.exec(data);
  const node = m ? NODES[Number(m[1])] : undefined;
  if (!m || node?.t !== "action" || node.do.kind !== "broadcast") return false;
  await ackPress(turn);
  await turn.ctx.editMessageReplyMarkup({ reply_markup: { inline_keyboard: [] } }).catch(() => undefined);
  if (node.adminOnly && !turn.isAdmin) return true;
  if (m[2] === "n") {
    await sendText(turn, userLanguageIsRussian(turn) ? "Рассылка отменена." : "Broadcast cancelled.", "text");
    return true;
  }
  startBroadcast(turn, node, node.do);
  await go(turn, node.next, node.id);
  return true;
}

/**
 * The start of the line that hands a broadcast to the platform as a campaign (docs/campaigns.md),
 * followed by the campaign's id; the platform's copy is CAMPAIGN_EVENT_MARK (runner/protocol.ts).
 */
export const CAMPAIGN_MARK = "\u001fbotloom:campaign ";
/** How often the bot looks whether the platform finished its campaign (to report to the initiator). */
export const CAMPAIGN_POLL_MS = 1000;

export type CampaignButton = { text: string; url: string } | { text: string; goto: string };

/**
 * The message node as a campaign's message, when it is one: a text with inline URL or go-to
 * buttons, nothing rendered but the text. Anything more (media, variants, answers to collect, reply
 * or dynamic keyboards, templates in buttons) is sent by the bot itself, as before.
 */
export function campaignMessageOf(m: MessageNode): { text: string; format: "none" | "html" | "markdown"; buttons?: CampaignButton[][] } | undefined {
  if (!m.text.trim() || m.text.length > 4096 || m.media?.length || m.variants?.length || m.collect || m.removeKeyboard || m.caption) return undefined;
  const k = m.keyboard;
  if (k && (k.kind !== "inline" || k.dynamic || k.multi)) return undefined;
  const buttons: CampaignButton[][] = [];
  for (const row of k?.rows ?? []) {
    const out: CampaignButton[] = [];
    for (const i of row) {
      const b = k!.buttons[i];
      if (!b || b.text.includes("{")) return undefined;
      if (b.action === "url" && b.url && /^(https?|tg):\/\/[^\s{}]+$/i.test(b.url)) out.push({ text: b.text, url: b.url });
      else if (b.action === "goto" && b.target) out.push({ text: b.text, goto: b.target });
      else return undefined;
    }
    if (out.length > 0) buttons.push(out);
  }
  return { text: m.text, format: m.format === "text" ? "none" : m.format, buttons: buttons.length > 0 ? buttons : undefined };
}

/**
 * A broadcast as the platform's campaign: the campaign and its recipients (every recorded user who
 * did not block the bot) written in one transaction, the platform told by a line. Its server sends
 * it at the token's one pace, exactly once per user across restarts. The id, or undefined when this
 * bot cannot hand it over (not run by the platform, no database, a message the server cannot send).
 */
export function handToPlatform(node: ActionNode, message: MessageNode): number | undefined {
  if (!TELL_PLATFORM || !db || !OPTIONS.userDatabase) return undefined;
  const m = campaignMessageOf(message);
  if (!m) return undefined;
  const now = new Date().toISOString();
  try {
    const id = inTransaction(db, () => {
      const row = readOnce<{ id: number }>(
        db!,
        "INSERT INTO campaigns (token_id, name, status, message, audience, created_at, started_at, source, node_id) " +
          "VALUES (?, ?, 'sending', ?, '{}', ?, ?, 'scenario', ?) RETURNING id",
        TOKEN_ID, "Broadcast " + node.id, JSON.stringify(m), now, now, message.id,
      )[0]!;
      db!.run(
        "INSERT INTO campaign_recipients (campaign_id, user_id) SELECT ?, user_id FROM bot_users u WHERE token_id = ? AND NOT EXISTS " +
          "(SELECT 1 FROM bot_people p WHERE p.token_id = ? AND p.user_id = u.user_id AND p.blocked = 1) ORDER BY id",
        [row.id, TOKEN_ID, TOKEN_ID],
      );
      db!.run("UPDATE campaigns SET audience_size = (SELECT count(*) FROM campaign_recipients WHERE campaign_id = ?) WHERE id = ?", [row.id, row.id]);
      return row.id;
    });
    console.log(CAMPAIGN_MARK + id);
    return id;
  } catch (err) {
    console.error("broadcast " + node.id + ": cannot hand it to the platform:", err);
    return undefined;
  }
}

/** Waits (polling the file) until the platform has sent the campaign; its counts. */
export async function campaignFinished(id: number): Promise<{ sent: number; failed: number; total: number }> {
  for (;;) {
    await Bun.sleep(CAMPAIGN_POLL_MS);
    const c = readOnce<{ status: string; size: number | null }>(db!, "SELECT status, audience_size AS size FROM campaigns WHERE id = ?", id)[0];
    if (!c || c.status === "done" || c.status === "cancelled") {
      const n = readOnce<{ sent: number | null; failed: number | null }>(db!, "SELECT sum(status = 'sent') AS sent, sum(status = 'failed') AS failed FROM campaign_recipients WHERE campaign_id = ?", id)[0];
      return { sent: n?.sent ?? 0, failed: n?.failed ?? 0, total: c?.size ?? 0 };
    }
  }
}

/** Sends in the background (the initiator's chat stays responsive); one broadcast at a time. */
export function startBroadcast(turn: Turn, node: ActionNode, a: BroadcastAction) {
  const initiator = turn.chatId;
  if (broadcasting) {
    void sendText(turn, userLanguageIsRussian(turn) ? "Рассылка уже идёт." : "A broadcast is already running.", "text").catch(() => undefined);
    return;
  }
  broadcasting = true;
  const index = INDEX.get(a.message);
  const message = index === undefined ? undefined : NODES[index];
  const campaign = message?.t === "message" ? handToPlatform(node, message) : undefined;
  void (campaign !== undefined ? campaignFinished(campaign) : deliver(node, a))
    .then(async ({ sent, failed, total }) => {
      console.log("broadcast " + node.id + ": done, " + sent + " of " + total + " sent, " + failed + " failed");
      const template = failed > 0 && a.failed ? a.failed : a.done;
      if (!template) return;
      const text = template.replace(/\{sent\}/g, String(sent)).replace(/\{failed\}/g, String(failed)).replace(/\{total\}/g, String(total));
      await inChat(initiator, async () => {
        const t: Turn = { ...turn, state: loadState(initiator), steps: 0 };
        await sendText(t, render(t, text), "text");
      });
    })
    .catch((err) => console.error("broadcast " + node.id + " stopped:", err))
    .finally(() => {
      broadcasting = false;
    });
}

export async function deliver(node: ActionNode, a: BroadcastAction) {
  const index = INDEX.get(a.message);
  const message = index === undefined ? undefined : NODES[index];
  if (!message || message.t !== "message") throw new Error("node " + a.message + " is not a message");
  const recipients = broadcastRecipients();
  let sent = 0;
  let failed = 0;
  console.log("broadcast " + node.id + ": " + recipients.length + " recipients, at most " + BROADCAST_PER_SECOND + " per second");
  await atMassPace("broadcast", recipients, async (user) => {
    // a send that throws (its chat's state not written) counts as failed: the others go on
    const ok = await sendOne(user, index!, message).catch((err) => {
      console.error("broadcast: user " + user.id + ": " + describe(err));
      return false;
    });
    if (ok) sent++;
    else failed++;
    const done = sent + failed;
    if (done % BROADCAST_PROGRESS_EVERY === 0) console.log("broadcast " + node.id + ": " + done + "/" + recipients.length + ", " + failed + " failed");
    return ok;
  });
  return { sent, failed, total: recipients.length };
}

/**
 * Runs `each` for every user, each started at the mass-send pace (paceMassSend) in the users'
 * order with at most BROADCAST_IN_FLIGHT running, and resolves when the last has ended, with how
 * many failed. The start's slot is for the user's first message; `each` runs a mass turn
 * (paceAsMassTurn), whose further messages take slots of their own. A broadcast and a schedule "for
 * every user" run their users so: one whose turn is long (a busy chat, a slow http_request, a late
 * answer) holds one place, not everyone behind it. One that throws (logged under `what`) or answers
 * false has failed, and the others go on.
 */
export async function atMassPace<U extends { id: number }>(what: string, users: U[], each: (user: U) => Promise<boolean>): Promise<{ failed: number }> {
  const inFlight = new Set<Promise<void>>();
  let failed = 0;
  for (const user of users) {
    // a free place first, then the slot: a start never comes sooner after the previous than the pace says
    while (inFlight.size >= BROADCAST_IN_FLIGHT) await Promise.race(inFlight);
    await paceMassSend();
    const run: Promise<void> = each(user)
      .catch((err) => {
        console.error(what + ": user " + user.id + ": " + describe(err));
        return false;
      })
      .then((ok) => {
        if (!ok) failed++;
      })
      .finally(() => inFlight.delete(run));
    inFlight.add(run);
  }
  await Promise.all(inFlight);
  return { failed };
}

/**
 * Makes `turn` a mass turn (a schedule's turn for one of every user, a broadcast's send): each
 * message it sends (isMessageSend; to its user or to any chat) takes a slot of the bot's mass pace,
 * but for the first, whose slot the turn's start took (atMassPace). So however many messages a flow
 * sends, the bot's mass sends stay within BROADCAST_PER_SECOND; edits, chat actions and answers to
 * presses are no messages and go at once. The calls still pass bot.api's transformers (the flood
 * hold, the records). A delay's continuation is a turn of its own, not paced
 * (docs/nodes/messaging.md#broadcast, docs/nodes/triggers.md#time).
 */
export function paceAsMassTurn(turn: Turn) {
  let startSlot = true;
  const raw = new Proxy(bot.api.raw, {
    get(target, method, receiver) {
      const call = Reflect.get(target, method, receiver);
      if (typeof method !== "string" || !isMessageSend(method)) return call;
      return async (...args: unknown[]) => {
        if (startSlot) startSlot = false;
        else await paceMassSend();
        return call(...args);
      };
    },
  });
  // grammY's Api methods call this.raw: bot.api's own, over the paced calls
  const api: Context["api"] = Object.create(bot.api, { raw: { value: raw } });
  turn.ctx = new Context(turn.ctx.update, api, turn.ctx.me);
}

/** One recipient, in their chat's queue, with their own variables; waits once when rate-limited. */
export async function sendOne(user: Sender, index: number, message: MessageNode): Promise<boolean> {
  let ok = false;
  await inChat(user.id, async () => {
    // the recipient's own turn in their private chat, as a schedule's is: nothing of the initiator's update in it
    const t = systemTurn(user.id, user);
    paceAsMassTurn(t);
    for (let attempt = 0; attempt < 2 && !ok; attempt++) {
      try {
        // recorded as the campaign's, sent by its message node (docs/dialogs.md)
        await SENT_BY.run("campaign", () => NODE_SCOPE.run(message.id, () => showMessage(t, index, message)));
        ok = true;
      } catch (err) {
        const retry = err instanceof GrammyError ? err.parameters.retry_after : undefined;
        if (retry !== undefined && attempt === 0) {
          await Bun.sleep(retry * 1000);
          continue;
        }
        console.error("broadcast: user " + user.id + ": " + describe(err));
        break;
      }
    }
    saveState(t);
  });
  return ok;
}
