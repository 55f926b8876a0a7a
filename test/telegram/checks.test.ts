// Issue 30 items 1 and 5 without a bot: every button action of the reference format compiles without a
// "not run by this version" warning; bad Mini App URLs, empty copy texts and unknown colours are
// warnings in the editor; the preview emulator (and so the fake messenger) takes the new buttons
// and refuses what Telegram refuses, with Telegram's Bad Request.
import { afterEach, describe, expect, test } from "bun:test";
import { generateBot } from "../../src/scenario";
import { validateScenario } from "../../src/scenario/validate";
import { EmulatorSession } from "../../src/emulator/session";

const node = (id: string, type: string, data: Record<string, unknown>) => ({ id, type, position: { x: 0, y: 0 }, data });
const doc = (...nodes: ReturnType<typeof node>[]) => ({ version: 2, sheets: [{ id: "s1", name: "Main", nodes, edges: [] }] });
const OPTS = { projectName: "t", userDatabaseEnabled: false };

/** Every action the reference platform's buttons have (its ButtonAction), each on the keyboard it belongs to. */
const REFERENCE_ACTIONS: [string, "inline" | "reply", Record<string, unknown>][] = [
  ["goto", "inline", { target: "end" }],
  ["command", "inline", { target: "/start" }],
  ["url", "inline", { url: "https://example.org" }],
  ["contact", "reply", { target: "end" }],
  ["location", "reply", { target: "end" }],
  ["selection", "inline", {}],
  ["complete", "inline", { target: "end" }],
  ["default", "inline", { target: "end" }],
  ["copy_text", "inline", { copyText: "PROMO" }],
  ["web_app", "inline", { webAppUrl: "https://example.org/app" }],
  ["request_managed_bot", "reply", { suggestedBotName: "Helper" }],
];

function warningsFor(keyboardType: string, buttons: Record<string, unknown>[]) {
  const scenario = doc(
    node("start", "start", { command: "/start", messageText: "hi", keyboardType, buttons, multiSelectVariable: "picked", continueButtonTarget: "end" }),
    node("end", "message", { messageText: "end" }),
  );
  return generateBot(scenario, OPTS).warnings.map((w) => w.message);
}

describe("compiling today's buttons", () => {
  test.each(REFERENCE_ACTIONS)("%s on a %s keyboard runs (no 'not run by this version')", (action, kind, fields) => {
    const warnings = warningsFor(kind, [{ id: "b", text: "B", action, ...fields }]);
    expect(warnings.filter((w) => /not run by this version/.test(w))).toEqual([]);
    expect(warnings.filter((w) => /left out|Telegram/.test(w))).toEqual([]);
  });

  test("a request poll button (requestPoll or action poll) runs on a reply keyboard", () => {
    expect(warningsFor("reply", [{ id: "p", text: "Poll", requestPoll: true, pollType: "quiz", target: "end" }])).toEqual([]);
    expect(warningsFor("reply", [{ id: "p", text: "Poll", action: "poll", target: "end" }])).toEqual([]);
  });

  test("an action that is not a button's is still reported", () => {
    expect(warningsFor("inline", [{ id: "x", text: "X", action: "teleport" }]).join("\n")).toMatch(/"teleport" are not run by this version/);
  });

  const bad: [string, string, Record<string, unknown>, RegExp][] = [
    ["a Mini App over http", "inline", { action: "web_app", webAppUrl: "http://example.org/app" }, /not https/],
    ["a Mini App with javascript:", "inline", { action: "web_app", webAppUrl: "javascript:alert(1)" }, /not https/],
    ["a Mini App without a URL", "inline", { action: "web_app" }, /no Mini App URL/],
    ["nothing to copy", "inline", { action: "copy_text", copyText: "" }, /nothing to copy/],
    ["too much to copy", "inline", { action: "copy_text", copyText: "x".repeat(257) }, /more than 256/],
    ["an unknown colour", "inline", { action: "goto", target: "end", style: "pink" }, /style "pink"/],
    ["copy on a reply keyboard", "reply", { action: "copy_text", copyText: "x" }, /only on an inline keyboard/],
    ["a poll on an inline keyboard", "inline", { action: "poll", target: "end" }, /only on a reply keyboard/],
  ];
  test.each(bad)("%s is a warning", (_name, kind, fields, message) => {
    const scenario = doc(
      node("start", "start", { command: "/start", messageText: "hi", keyboardType: kind, buttons: [{ id: "b", text: "B", ...fields }] }),
      node("end", "message", { messageText: "end" }),
    );
    const all = [...validateScenario(scenario).warnings, ...generateBot(scenario, OPTS).warnings].map((w) => w.message);
    expect(all.some((w) => message.test(w))).toBe(true);
  });

  test("a Mini App URL from a {variable} is not judged in the editor (the bot checks it once filled in)", () => {
    expect(warningsFor("inline", [{ id: "b", text: "B", action: "web_app", webAppUrl: "{site}" }])).toEqual([]);
  });
});

describe("the emulator takes today's buttons as Telegram does", () => {
  let open: EmulatorSession[] = [];
  afterEach(async () => {
    await Promise.all(open.map((e) => e.stop()));
    open = [];
  });
  async function send(reply_markup: unknown, chat_id = 42) {
    const e = new EmulatorSession({ token: "8200:t", id: 8200, username: "tg_bot", firstName: "T" }, { maxEntries: 100, maxBodyBytes: 1 << 20, maxFileBytes: 1 << 20 });
    e.start();
    open.push(e);
    const r = await fetch(`${e.url}/bot8200:t/sendMessage`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ chat_id, text: "x", reply_markup }) });
    return (await r.json()) as { ok: boolean; description?: string };
  }

  test.each([
    ["a Mini App", { inline_keyboard: [[{ text: "A", web_app: { url: "https://a.example" }, style: "primary" }]] }],
    ["a copy button", { inline_keyboard: [[{ text: "C", copy_text: { text: "code" }, style: "success" }]] }],
    ["a poll request", { keyboard: [[{ text: "P", request_poll: { type: "quiz" } }]] }],
    ["a reply Mini App", { keyboard: [[{ text: "F", web_app: { url: "https://f.example" }, style: "danger" }]] }],
    ["a managed bot request", { keyboard: [[{ text: "M", request_managed_bot: { request_id: 1 } }]] }],
  ])("%s is taken", async (_name, markup) => {
    expect((await send(markup)).ok).toBe(true);
  });

  test.each([
    ["an http Mini App", { inline_keyboard: [[{ text: "A", web_app: { url: "http://a.example" } }]] }, /Only HTTPS links/],
    ["a javascript: Mini App", { keyboard: [[{ text: "A", web_app: { url: "javascript:alert(1)" } }]] }, /Only HTTPS links/],
    ["an empty copy", { inline_keyboard: [[{ text: "C", copy_text: { text: "" } }]] }, /COPY_TEXT_INVALID/],
    ["a long copy", { inline_keyboard: [[{ text: "C", copy_text: { text: "x".repeat(257) } }]] }, /COPY_TEXT_INVALID/],
    ["an unknown colour", { inline_keyboard: [[{ text: "C", callback_data: "c", style: "pink" }]] }, /style/],
    ["two requests on one button", { keyboard: [[{ text: "P", request_contact: true, request_location: true }]] }, /mutually exclusive/],
    ["a wrong poll type", { keyboard: [[{ text: "P", request_poll: { type: "survey" } }]] }, /request_poll/],
  ])("%s is refused", async (_name, markup, why) => {
    const r = await send(markup);
    expect(r.ok).toBe(false);
    expect(r.description).toMatch(why);
  });

  // Mini Apps exist only in private chats; other buttons are fine in groups.
  test.each([
    ["an inline Mini App", { inline_keyboard: [[{ text: "A", web_app: { url: "https://a.example" } }]] }],
    ["a reply Mini App", { keyboard: [[{ text: "F", web_app: { url: "https://f.example" } }]] }],
  ])("%s in a group is refused as Telegram refuses it", async (_name, markup) => {
    expect(await send(markup, -1001234567890)).toEqual({ ok: false, error_code: 400, description: "Bad Request: BUTTON_TYPE_INVALID" } as never);
    expect((await send({ inline_keyboard: [[{ text: "C", copy_text: { text: "code" } }]] }, -1001234567890)).ok).toBe(true);
  });
});

describe("the emulator checks invoices in Stars as Telegram does", () => {
  let open: EmulatorSession[] = [];
  afterEach(async () => {
    await Promise.all(open.map((e) => e.stop()));
    open = [];
  });
  async function call(method: string, params: Record<string, unknown>) {
    const e = new EmulatorSession({ token: "8300:t", id: 8300, username: "pay_bot", firstName: "P" }, { maxEntries: 100, maxBodyBytes: 1 << 20, maxFileBytes: 1 << 20 });
    e.start();
    open.push(e);
    const r = await fetch(`${e.url}/bot8300:t/${method}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(params) });
    return (await r.json()) as { ok: boolean; description?: string };
  }
  const invoice = { chat_id: 42, title: "Premium", description: "A month", payload: "p1", currency: "XTR", prices: [{ label: "Premium", amount: 5 }] };

  test("a valid invoice is sent", async () => {
    expect((await call("sendInvoice", invoice)).ok).toBe(true);
  });

  test.each([
    ["another currency", { currency: "USD" }, /CURRENCY_INVALID/],
    ["an amount of 0", { prices: [{ label: "P", amount: 0 }] }, /AMOUNT_INVALID/],
    ["two prices", { prices: [{ label: "A", amount: 1 }, { label: "B", amount: 1 }] }, /AMOUNT_INVALID/],
    ["a payload over 128 bytes", { payload: "x".repeat(129) }, /PAYLOAD_INVALID/],
    ["an empty title", { title: "" }, /TITLE_INVALID/],
  ])("%s is refused", async (_name, change, why) => {
    const r = await call("sendInvoice", { ...invoice, ...change });
    expect(r.ok).toBe(false);
    expect(r.description).toMatch(why);
  });

  test("a refusal at checkout needs a reason; an unknown checkout or charge is refused", async () => {
    expect((await call("answerPreCheckoutQuery", { pre_checkout_query_id: "q", ok: false })).description).toMatch(/ERROR_MESSAGE_EMPTY/);
    expect(await call("answerPreCheckoutQuery", { pre_checkout_query_id: "q", ok: true })).toEqual({ ok: false, error_code: 400, description: "Bad Request: QUERY_ID_INVALID" } as never);
    expect((await call("refundStarPayment", { user_id: 42, telegram_payment_charge_id: "nope" })).description).toMatch(/CHARGE_NOT_FOUND/);
  });

  test("a checkout is answered once, and an invoice message is paid once", async () => {
    const e = new EmulatorSession({ token: "8302:t", id: 8302, username: "pay_bot", firstName: "P" }, { maxEntries: 100, maxBodyBytes: 1 << 20, maxFileBytes: 1 << 20 });
    e.start();
    open.push(e);
    const api = async (method: string, params: Record<string, unknown>) => {
      const r = await fetch(`${e.url}/bot8302:t/${method}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(params) });
      return (await r.json()) as { ok: boolean; description?: string; result?: any };
    };
    const ann = { id: 42, first_name: "Ann" };
    const sent = await api("sendInvoice", invoice);
    // what the preview chat reads of the invoice message (docs/preview.md): paid, waiting or not yet
    const invoiceIn = (messageId: number) => e.transcript.list(42).find((x) => x.messageId === messageId)?.invoice;
    expect(invoiceIn(sent.result.message_id)).toEqual({ amount: 5, paid: false, pending: false });
    e.pay(ann, 42, sent.result.message_id);
    // a second Pay while the bot has not answered the first opens no second checkout
    expect(() => e.pay(ann, 42, sent.result.message_id)).toThrow("this invoice's payment waits for the bot's confirmation");
    const updates = (await api("getUpdates", {})).result;
    expect(updates.filter((u: any) => u.pre_checkout_query).length).toBe(1);
    const query = updates.find((u: any) => u.pre_checkout_query).pre_checkout_query;
    // Pay pressed and not yet confirmed: not paid, waiting for the bot
    expect(invoiceIn(sent.result.message_id)).toEqual({ amount: 5, paid: false, pending: true });
    const before = e.transcript.version;
    expect((await api("answerPreCheckoutQuery", { pre_checkout_query_id: query.id, ok: true })).ok).toBe(true);
    // the chat learns it as a change of the invoice's entry (a reader asking for changes gets it),
    // followed by the payment's service line
    expect(invoiceIn(sent.result.message_id)).toEqual({ amount: 5, paid: true, pending: false });
    expect(e.transcript.list(42, before).map((x) => [x.kind, x.messageId])).toEqual([["message", sent.result.message_id], ["service", sent.result.message_id + 1]]);
    // answered already: as an unknown id
    expect(await api("answerPreCheckoutQuery", { pre_checkout_query_id: query.id, ok: true })).toEqual({ ok: false, error_code: 400, description: "Bad Request: QUERY_ID_INVALID" } as never);
    const paid = (await api("getUpdates", { offset: updates.at(-1).update_id + 1 })).result.filter((u: any) => u.message?.successful_payment);
    expect(paid.length).toBe(1);
    // the invoice is paid: Pay again is refused with words the preview shows
    expect(() => e.pay(ann, 42, sent.result.message_id)).toThrow("this invoice is paid already");
    // a refused checkout leaves the invoice payable
    const other = await api("sendInvoice", { ...invoice, payload: "p2" });
    e.pay(ann, 42, other.result.message_id);
    const second = (await api("getUpdates", { offset: paid.at(-1).update_id + 1 })).result.find((u: any) => u.pre_checkout_query).pre_checkout_query;
    expect((await api("answerPreCheckoutQuery", { pre_checkout_query_id: second.id, ok: false, error_message: "Sold out" })).ok).toBe(true);
    expect(invoiceIn(other.result.message_id)).toEqual({ amount: 5, paid: false, pending: false, refusal: "Sold out" });
    e.pay(ann, 42, other.result.message_id);
  });

  test("a charge is refunded to the user who paid it, once", async () => {
    const e = new EmulatorSession({ token: "8301:t", id: 8301, username: "pay_bot", firstName: "P" }, { maxEntries: 100, maxBodyBytes: 1 << 20, maxFileBytes: 1 << 20 });
    e.start();
    open.push(e);
    const api = async (method: string, params: Record<string, unknown>) => {
      const r = await fetch(`${e.url}/bot8301:t/${method}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(params) });
      return (await r.json()) as { ok: boolean; description?: string; result?: any };
    };
    // Ann pays the bot's invoice: Pay, the bot confirms the checkout, the charge is hers
    const sent = await api("sendInvoice", invoice);
    e.pay({ id: 42, first_name: "Ann" }, 42, sent.result.message_id);
    const query = (await api("getUpdates", {})).result.find((u: any) => u.pre_checkout_query).pre_checkout_query;
    expect((await api("answerPreCheckoutQuery", { pre_checkout_query_id: query.id, ok: true })).ok).toBe(true);
    const paid = (await api("getUpdates", { offset: 0 })).result.map((u: any) => u.message?.successful_payment).find(Boolean);
    const refund = (user_id: number) => api("refundStarPayment", { user_id, telegram_payment_charge_id: paid.telegram_payment_charge_id });
    expect((await refund(43)).description).toMatch(/CHARGE_NOT_FOUND/);
    expect((await refund(42)).ok).toBe(true);
    expect((await refund(42)).description).toMatch(/CHARGE_ALREADY_REFUNDED/);
  });
});
