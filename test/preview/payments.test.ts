// Payments in the preview emulator (docs/nodes/payments.md "In the preview"): a Pay, the bot's
// answer to its checkout, and what the preview chat's transcript makes of them.
import { expect, jest, test } from "bun:test";
import type { CallContext } from "../../src/emulator/bot-api/context";
import { findMethod } from "../../src/emulator/bot-api/methods";
import { CHECKOUT_WAIT_MS } from "../../src/emulator/bot-api/user-actions";
import type { EmulatorSession } from "../../src/emulator/session";
import { emulatorsOf } from "./support";

const ANN = { id: 42, first_name: "Ann" };
const INVOICE = { chat_id: ANN.id, title: "Premium", description: "A month", payload: "p1", currency: "XTR", prices: [{ label: "Premium", amount: 5 }] };
const emulator = emulatorsOf({ token: "8400:pay-token", id: 8400, username: "pay_bot", firstName: "Shop" });

async function call(e: EmulatorSession, method: string, params: Record<string, unknown> = {}) {
  const r = await fetch(`${e.url}/bot${e.bot.token}/${method}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(params) });
  return (await r.json()) as { ok: boolean; description?: string; result?: any };
}

/** The bot's invoice, Ann's Pay on it, and the pre_checkout_query the bot gets. */
async function payInvoice(e: EmulatorSession) {
  const messageId: number = (await call(e, "sendInvoice", INVOICE)).result.message_id;
  e.pay(ANN, ANN.id, messageId);
  const query = (await call(e, "getUpdates", { timeout: 0 })).result.find((u: any) => u.pre_checkout_query).pre_checkout_query;
  return { messageId, query };
}

test("a confirmed checkout names the invoice message it paid as numbers (nothing parses a key)", async () => {
  const e = emulator();
  const { messageId, query } = await payInvoice(e);
  const ctx: CallContext = { state: e.state, dir: e.dir, files: e.files, params: { pre_checkout_query_id: query.id, ok: true }, signal: new AbortController().signal };
  expect(await findMethod("answerPreCheckoutQuery")!.h(ctx)).toBe(true);
  expect(ctx.paidInvoice).toEqual({ chatId: ANN.id, messageId });
});

test("a Pay waits for the bot's answer: pending meanwhile, a second Pay refused; a refusal leaves it payable with the bot's reason", async () => {
  const e = emulator();
  const { messageId, query } = await payInvoice(e);
  const invoice = () => e.transcript.find(ANN.id, messageId)!.invoice;
  expect(invoice()).toEqual({ amount: 5, paid: false, pending: true });
  expect(() => e.pay(ANN, ANN.id, messageId)).toThrow("this invoice's payment waits for the bot's confirmation");
  const before = e.transcript.version;
  expect((await call(e, "answerPreCheckoutQuery", { pre_checkout_query_id: query.id, ok: false, error_message: "Sold out" })).ok).toBe(true);
  expect(invoice()).toEqual({ amount: 5, paid: false, pending: false, refusal: "Sold out" });
  // a change of the entry: a reader asking for changes learns it
  expect(e.transcript.list(ANN.id, before).map((x) => x.messageId)).toContain(messageId);
  // Pay again: waiting again, the old refusal gone; the bot confirms: paid
  e.pay(ANN, ANN.id, messageId);
  expect(invoice()).toEqual({ amount: 5, paid: false, pending: true });
  const again = (await call(e, "getUpdates", { offset: 0, timeout: 0 })).result.filter((u: any) => u.pre_checkout_query).at(-1).pre_checkout_query;
  expect((await call(e, "answerPreCheckoutQuery", { pre_checkout_query_id: again.id, ok: true })).ok).toBe(true);
  expect(invoice()).toEqual({ amount: 5, paid: true, pending: false });
});

test("a checkout the bot leaves unanswered past Telegram's wait ends the waiting: payable again, marked expired", async () => {
  const e = emulator();
  const messageId: number = (await call(e, "sendInvoice", INVOICE)).result.message_id;
  jest.useFakeTimers();
  try {
    e.pay(ANN, ANN.id, messageId);
    const query = (await e.call("getUpdates", { timeout: 0 }, new AbortController().signal)) as any[];
    jest.advanceTimersByTime(CHECKOUT_WAIT_MS - 1);
    expect(e.transcript.find(ANN.id, messageId)!.invoice).toEqual({ amount: 5, paid: false, pending: true });
    jest.advanceTimersByTime(2);
    expect(e.transcript.find(ANN.id, messageId)!.invoice).toEqual({ amount: 5, paid: false, pending: false, expired: true });
    // the bot's late answer finds no checkout, as on Telegram, and changes nothing
    await expect(e.call("answerPreCheckoutQuery", { pre_checkout_query_id: query.find((u) => u.pre_checkout_query).pre_checkout_query.id, ok: true }, new AbortController().signal)).rejects.toThrow("QUERY_ID_INVALID");
    expect(e.transcript.find(ANN.id, messageId)!.invoice).toEqual({ amount: 5, paid: false, pending: false, expired: true });
    e.pay(ANN, ANN.id, messageId);
    expect(e.transcript.find(ANN.id, messageId)!.invoice).toEqual({ amount: 5, paid: false, pending: true });
  } finally {
    jest.useRealTimers();
  }
});

test("a confirmed payment is a service line of the chat, Telegram's successful_payment, not a bot message; a refused one leaves none", async () => {
  const e = emulator();
  const refused = await payInvoice(e);
  expect((await call(e, "answerPreCheckoutQuery", { pre_checkout_query_id: refused.query.id, ok: false, error_message: "Sold out" })).ok).toBe(true);
  expect(e.transcript.list(ANN.id).filter((x) => x.kind === "service")).toEqual([]);

  e.pay(ANN, ANN.id, refused.messageId);
  const query = (await call(e, "getUpdates", { offset: 0, timeout: 0 })).result.filter((u: any) => u.pre_checkout_query).at(-1).pre_checkout_query;
  const before = e.transcript.version;
  expect((await call(e, "answerPreCheckoutQuery", { pre_checkout_query_id: query.id, ok: true })).ok).toBe(true);
  const update = (await call(e, "getUpdates", { offset: 0, timeout: 0 })).result.find((u: any) => u.message?.successful_payment);
  const line = e.transcript.list(ANN.id, before).find((x) => x.kind === "service");
  // the message the bot gets, as the chat shows it: the payer's, with the amount, and nothing a bubble would show
  expect(line).toMatchObject({ kind: "service", chatId: ANN.id, from: "user", userId: ANN.id, messageId: update.message.message_id, payment: { amount: 5, currency: "XTR" } });
  expect(line!.text).toBeUndefined();
  expect(e.transcript.list(ANN.id).at(-1)!.seq).toBe(line!.seq);
});
