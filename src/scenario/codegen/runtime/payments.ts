// Runtime source: payments in Telegram Stars (docs/nodes/payments.md). A payment's flow runs once
// per charge the bot has seen, whatever came between and across restarts.
// (Part of every generated bot; see types.ts.)
import { go, log } from "./flow";
import { MESSAGE_TRIGGERS } from "./program-data";
import { queueRecord, recordSql } from "./record";
import { TOKEN_ID } from "./storage";
import type { IncomingMessage, Turn } from "./types";

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
