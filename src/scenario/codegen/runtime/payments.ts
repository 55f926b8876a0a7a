// Runtime source: payments in Telegram Stars (docs/nodes/payments.md). A payment's flow runs once
// per charge the bot has seen, whatever came between and across restarts; a checkout is answered
// within Telegram's 10 seconds, whatever the chat is busy with.
// (Part of every generated bot; see types.ts.)
import type { Context } from "grammy";
import type { MessageTriggerDef } from "./action-tables";
import { NODE_SCOPE, go, log, userLanguageIsRussian } from "./flow";
import { MESSAGE_TRIGGERS } from "./program-data";
import { noteIncoming, queueRecord, recordSql } from "./record";
import { bot, updateTurn } from "./router";
import { TOKEN_ID, env, saveState } from "./storage";
import type { ChatState, IncomingMessage, Turn, Vars } from "./types";

// ─── Payments ──────────────────────────────────────────────────────────────────

/**
 * Charges this bot has seen since it started, newest last. The record batch writes bot_payments
 * up to a window later, so the table alone would miss a redelivery inside that window; without a
 * database this is all the bot knows. Bounded: a charge is a few dozen bytes, and the table holds
 * the older ones.
 */
export const chargesSeen = new Set<string>();
export const CHARGES_SEEN_KEPT = 10_000;

/** Whether this bot had this charge before: in this process, or in its payments table (before a restart). */
export function chargeSeen(charge: string): boolean {
  if (chargesSeen.has(charge)) return true;
  if (!recordSql) return false;
  try {
    return recordSql.charged.get(TOKEN_ID, charge) !== null;
  } catch (err) {
    console.error("could not look up payment " + charge + ":", err);
    return false;
  }
}

export function noteCharge(charge: string) {
  chargesSeen.add(charge);
  if (chargesSeen.size > CHARGES_SEEN_KEPT) chargesSeen.delete(chargesSeen.values().next().value!);
}

/** A successful payment: recorded, its fields become variables and payment_trigger's flow runs (true: handled). */
export async function paid(turn: Turn, p: NonNullable<IncomingMessage["successful_payment"]>): Promise<boolean> {
  // Telegram sends an update again when the bot did not confirm it (a crash, a slow webhook): the
  // flow that delivers what was bought runs once per charge, not once per delivery. Checked and
  // noted in one step (the chat's queue runs one update at a time), before the record is queued.
  const charge = p.telegram_payment_charge_id;
  if (chargeSeen(charge)) {
    log(turn, "payment " + charge + " delivered again; its flow ran already");
    return true;
  }
  noteCharge(charge);
  // Payments are kept whatever the message retention: they are the owner's accounts.
  if (turn.from) {
    queueRecord({ t: "paid", userId: String(turn.from.id), charge, provider: p.provider_payment_charge_id || null, amount: p.total_amount, currency: p.currency, payload: p.invoice_payload, at: new Date().toISOString() });
  }
  turn.state.vars.payment_amount = p.total_amount;
  turn.state.vars.payment_currency = p.currency;
  turn.state.vars.payment_payload = p.invoice_payload;
  turn.state.vars.payment_charge_id = charge;
  log(turn, "payment " + p.total_amount + " " + p.currency);
  const t = MESSAGE_TRIGGERS.find((x) => x.on === "payment");
  if (t) await go(turn, t.target, t.node);
  return true;
}

// ─── Checkout: the answer within Telegram's 10 seconds ─────────────────────────

/**
 * Telegram waits 10 seconds for a checkout's answer, then tells the user the payment failed. A
 * checkout flow that has not decided by this bound is answered with a refusal, so the user learns
 * why (docs/nodes/payments.md). BOTLOOM_CHECKOUT_DEADLINE_MS (which a token's env variables cannot
 * set) may shorten it for tests, never lengthen it.
 */
export const CHECKOUT_DEADLINE_MS = Math.min(8000, Number(env.BOTLOOM_CHECKOUT_DEADLINE_MS) > 0 ? Number(env.BOTLOOM_CHECKOUT_DEADLINE_MS) : 8000);

/** The refusal of a checkout its flow did not decide in time, in the user's language. */
export function lateCheckoutReason(turn: Turn): string {
  return userLanguageIsRussian(turn)
    ? "Магазин не успел подтвердить заказ. Попробуйте оплатить ещё раз."
    : "The shop could not confirm the order in time. Please try to pay again.";
}

export const CHECKOUT_VARS = ["payment_amount", "payment_currency", "payment_payload"] as const;

// Without a checkout_trigger every checkout is accepted; with one, its flow runs first and a
// refuse_checkout node in it refuses. Without any answer the user cannot pay, so it is given also
// in a chat an operator holds.
bot.on("pre_checkout_query", (ctx) => {
  const t = MESSAGE_TRIGGERS.find((x) => x.on === "checkout");
  if (!t) return answerCheckout(ctx, undefined);
  return checkout(ctx, t);
});

export function answerCheckout(ctx: Context, reason: string | undefined) {
  return (reason ? ctx.answerPreCheckoutQuery(false, { error_message: reason }) : ctx.answerPreCheckoutQuery(true)).catch((err) => console.error("pre_checkout_query failed:", err));
}

/**
 * Runs the checkout flow and answers by CHECKOUT_DEADLINE_MS. The flow does not wait in the chat's
 * queue, where a long turn (an http_request, an AI answer) would hold the answer past Telegram's
 * 10 seconds: it runs at once on a copy of the chat's state, and what it changed goes back to the
 * chat when it ends. Nothing is paid yet: the checkout's three values are its flow's only, and the
 * user keeps the variables of the last payment made (a refused or abandoned checkout must not look paid).
 */
export async function checkout(ctx: Context, t: MessageTriggerDef) {
  const q = ctx.preCheckoutQuery!;
  const chatId = q.from.id;
  noteIncoming(ctx, chatId);
  const chat = updateTurn(ctx, chatId);
  const before: ChatState = { ...chat.state, vars: Object.assign(Object.create(null) as Vars, chat.state.vars) };
  const turn: Turn = { ...chat, state: { ...before, vars: Object.assign(Object.create(null) as Vars, before.vars) } };
  turn.state.vars.payment_amount = q.total_amount;
  turn.state.vars.payment_currency = q.currency;
  turn.state.vars.payment_payload = q.invoice_payload;
  const flow = NODE_SCOPE.run("", () => go(turn, t.target, t.node)).catch((err) => console.error("chat " + chatId + ": checkout flow failed:", err));
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<"late">((resolve) => (timer = setTimeout(() => resolve("late"), CHECKOUT_DEADLINE_MS)));
  const first = await Promise.race([flow.then(() => "decided" as const), late]);
  clearTimeout(timer);
  if (first === "late") {
    console.error("chat " + chatId + ": checkout " + q.invoice_payload + " not decided within " + CHECKOUT_DEADLINE_MS / 1000 + " s: refused; its flow's decision will be ignored");
    await answerCheckout(ctx, lateCheckoutReason(turn));
  } else {
    log(turn, "checkout " + q.invoice_payload + (turn.event.refused ? " refused" : " accepted"));
    await answerCheckout(ctx, turn.event.refused);
  }
  await flow;
  if (first === "late") log(turn, "checkout " + q.invoice_payload + " decided late: ignored");
  keepCheckoutChanges(chat.state, before, turn.state);
  saveState(chat);
}

/** Writes into the chat's state what the checkout flow changed (`after` against `before`), its three values aside. */
export function keepCheckoutChanges(live: ChatState, before: ChatState, after: ChatState) {
  const own = new Set<string>(CHECKOUT_VARS);
  for (const k of Object.keys(after.vars)) if (!own.has(k) && after.vars[k] !== before.vars[k]) live.vars[k] = after.vars[k];
  for (const k of Object.keys(before.vars)) if (!own.has(k) && !Object.hasOwn(after.vars, k)) delete live.vars[k];
  const fields = live as unknown as Record<string, unknown>;
  for (const k of Object.keys(after) as (keyof ChatState)[]) if (k !== "vars" && after[k] !== before[k]) fields[k] = after[k];
}
