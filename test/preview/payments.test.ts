// Payments in the preview emulator (docs/nodes/payments.md "In the preview"): a Pay, the bot's
// answer to its checkout, and what the preview chat's transcript makes of them.
import { afterEach, expect, test } from "bun:test";
import type { CallContext } from "../../src/emulator/bot-api/context";
import { findMethod } from "../../src/emulator/bot-api/methods";
import { EmulatorSession } from "../../src/emulator/session";

const ANN = { id: 42, first_name: "Ann" };
const INVOICE = { chat_id: ANN.id, title: "Premium", description: "A month", payload: "p1", currency: "XTR", prices: [{ label: "Premium", amount: 5 }] };
let open: EmulatorSession[] = [];

function emulator() {
  const e = new EmulatorSession({ token: "8400:pay-token", id: 8400, username: "pay_bot", firstName: "Shop" }, { maxEntries: 400, maxBodyBytes: 1 << 20, maxFileBytes: 1 << 20 });
  e.start();
  open.push(e);
  return e;
}

afterEach(async () => {
  await Promise.all(open.map((e) => e.stop()));
  open = [];
});

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
