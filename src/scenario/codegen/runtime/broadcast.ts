// Runtime source: the broadcast node. (Part of every generated bot; see types.ts.)
import { GrammyError, InlineKeyboard } from "grammy";
import type { ActionNode, BroadcastAction } from "./action-tables";
import { ackPress, describe } from "./actions";
import { INDEX, NODE_SCOPE, go, inChat, userLanguageIsRussian } from "./flow";
import { sendText, showMessage } from "./messages";
import { NODES, OPTIONS } from "./program-data";
import { ADMIN_IDS, TOKEN_ID, db, loadState, saveState, states } from "./storage";
import type { MessageNode } from "./tables";
import type { Turn } from "./types";
import { SENT_BY } from "./record";
import { render } from "./values";

// ─── Broadcast ─────────────────────────────────────────────────────────────────

/**
 * Sends per second at most. The messenger allows a bot about 30 messages per second in all; 25
 * leaves room for the bot's other answers while a broadcast runs. Sends go one after another.
 */
export const BROADCAST_PER_SECOND = 25;
export const BROADCAST_PROGRESS_EVERY = 100;
export let broadcasting = false;
/** When the next send to a recorded user may start (see paceMassSend). */
export let nextMassSend = 0;

/**
 * Waits for this bot's next slot for a send to a recorded user. Broadcasts and schedules "for every
 * user" share the slots, so several of them running at once still stay within BROADCAST_PER_SECOND
 * in all. Starts are at least 1000 / BROADCAST_PER_SECOND ms apart (plus 2 ms of slack for network
 * jitter); a slot is taken before the wait, so concurrent callers queue in order.
 */
export async function paceMassSend(): Promise<void> {
  const now = Date.now();
  const at = Math.max(now, nextMassSend);
  nextMassSend = at + 1000 / BROADCAST_PER_SECOND + 2;
  if (at > now) await Bun.sleep(at - now);
}

/** Every recorded bot user (bot_users), else the private chats this run has seen; never a user who blocked the bot (bot_people). */
export function broadcastRecipients(): { id: number; first_name?: string; username?: string }[] {
  if (db && OPTIONS.userDatabase) {
    try {
      const rows = db
        .query<{ user_id: string; first_name: string | null; username: string | null }, [number, number]>(
          "SELECT user_id, first_name, username FROM bot_users u WHERE token_id = ? AND NOT EXISTS " +
            "(SELECT 1 FROM bot_people p WHERE p.token_id = ? AND p.user_id = u.user_id AND p.blocked = 1) ORDER BY id",
        )
        .all(TOKEN_ID, TOKEN_ID);
      return rows
        .map((r) => ({ id: Number(r.user_id), first_name: r.first_name ?? undefined, username: r.username ?? undefined }))
        .filter((r) => Number.isSafeInteger(r.id) && r.id > 0);
    } catch (err) {
      console.error("broadcast: cannot read bot_users:", err);
      return [];
    }
  }
  return [...states.keys()].filter((id) => id > 0).map((id) => ({ id }));
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

/** Sends in the background (the initiator's chat stays responsive); one broadcast at a time. */
export function startBroadcast(turn: Turn, node: ActionNode, a: BroadcastAction) {
  const initiator = turn.chatId;
  if (broadcasting) {
    void sendText(turn, userLanguageIsRussian(turn) ? "Рассылка уже идёт." : "A broadcast is already running.", "text").catch(() => undefined);
    return;
  }
  broadcasting = true;
  void deliver(turn, node, a)
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

export async function deliver(turn: Turn, node: ActionNode, a: BroadcastAction) {
  const index = INDEX.get(a.message);
  const message = index === undefined ? undefined : NODES[index];
  if (!message || message.t !== "message") throw new Error("node " + a.message + " is not a message");
  const recipients = broadcastRecipients();
  let sent = 0;
  let failed = 0;
  console.log("broadcast " + node.id + ": " + recipients.length + " recipients, at most " + BROADCAST_PER_SECOND + " per second");
  for (let i = 0; i < recipients.length; i++) {
    await paceMassSend();
    const user = recipients[i];
    const ok = await sendOne(turn, user, index!, message);
    if (ok) sent++;
    else failed++;
    if ((i + 1) % BROADCAST_PROGRESS_EVERY === 0) console.log("broadcast " + node.id + ": " + (i + 1) + "/" + recipients.length + ", " + failed + " failed");
  }
  return { sent, failed, total: recipients.length };
}

/** One recipient, in their chat's queue, with their own variables; waits once when rate-limited. */
export async function sendOne(turn: Turn, user: { id: number; first_name?: string; username?: string }, index: number, message: MessageNode): Promise<boolean> {
  let ok = false;
  await inChat(user.id, async () => {
    const from = { id: user.id, is_bot: false, first_name: user.first_name ?? "", username: user.username };
    const t: Turn = { ctx: turn.ctx, chatId: user.id, state: loadState(user.id), from, isAdmin: ADMIN_IDS.has(String(user.id)), event: {}, steps: 0 };
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
