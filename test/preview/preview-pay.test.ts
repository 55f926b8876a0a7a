// Pay in a preview over HTTP, with a real preview bot whose checkout waits on a held loopback
// service (docs/nodes/payments.md "In the preview"): while the bot has not answered, the invoice
// says so and a second Pay is refused with the one error shape; a refusal leaves it payable with
// the bot's reason; a confirmation pays it, and the payment is a service line of the chat, which
// is not the user writing (a one-time reply keyboard stays).
import { afterAll, beforeAll, expect, test } from "bun:test";
import { createTestApp, loginAs, setUp, type TestApp } from "../support/app";
import { until } from "../support/process";
import { doc, node } from "../scenario/harness";
import { heldService } from "../scenario/held-service";
import { PreviewDriver } from "./support";

let t: TestApp;
let owner: string;
let projectId: number;
const shop = heldService();

beforeAll(async () => {
  t = createTestApp({ env: { EGRESS_ALLOW: "127.0.0.1" } });
  await setUp(t);
  owner = await loginAs(t, 631);
  projectId = (await t.call("POST", "/api/projects", { cookie: owner, json: { name: "Shop" } })).body.id;
});

afterAll(async () => {
  shop.releaseAll();
  await t.ctx.preview.stopAll();
  t.cleanup();
  shop.stop();
});

test("a Pay waits for the bot: a second Pay is refused meanwhile; refused, it is payable again; confirmed, it is paid and the payment a service line", async () => {
  const r = await t.call("POST", `/api/projects/${projectId}/preview`, { cookie: owner, json: { document: doc(...shop.heldCheckout()) } });
  expect(r.status).toBe(201);
  const d = new PreviewDriver(t, owner, r.body.id);
  await d.act({ type: "text", text: "/buy" });
  const [bill] = await d.botSays((m) => m.some((x) => x.startsWith("🧾 Premium")));
  const pay = () => t.call("POST", `/api/preview/${d.id}/actions`, { cookie: owner, json: { type: "pay", messageId: bill!.messageId } });

  expect((await pay()).status).toBe(200);
  // the bot's checkout flow is asking the stock service: the payment waits for its answer
  await until(() => shop.held.length === 1, "the checkout's stock request");
  expect((await d.entryWhen(bill!.messageId!, () => true)).invoice).toEqual({ amount: 5, paid: false, pending: true });
  const again = await pay();
  expect(again.status).toBe(400);
  expect(again.body).toEqual({ error: "VALIDATION_FAILED", message: "this invoice's payment waits for the bot's confirmation" });

  shop.held.shift()!({ left: 0 });
  const refused = await d.entryWhen(bill!.messageId!, (e) => !e.invoice.pending);
  expect(refused.invoice).toEqual({ amount: 5, paid: false, pending: false, refusal: "Sold out, sorry" });

  expect((await pay()).status).toBe(200);
  await until(() => shop.held.length === 1, "the second checkout's stock request");
  expect((await d.entryWhen(bill!.messageId!, () => true)).invoice).toEqual({ amount: 5, paid: false, pending: true });
  shop.held.shift()!({ left: 3 });
  const paid = await d.entryWhen(bill!.messageId!, (e) => e.invoice.paid);
  expect(paid.invoice).toEqual({ amount: 5, paid: true, pending: false });
  await d.botSays((m) => m.includes("paid 5"));
  // the payment is in the chat as Telegram's service line (successful_payment), not as a bot message
  const lines = (await d.transcript()).entries.filter((e: { kind: string }) => e.kind === "service");
  expect(lines).toEqual([expect.objectContaining({ from: "user", messageId: bill!.messageId! + 1, payment: { amount: 5, currency: "XTR" } })]);
  expect((await pay()).body).toEqual({ error: "VALIDATION_FAILED", message: "this invoice is paid already" });
  await t.call("DELETE", `/api/preview/${d.id}`, { cookie: owner });
}, 60_000);

test("a payment's service line is not the user writing: a one-time reply keyboard sent before it stays", async () => {
  const menu = node("cmd-menu", "command", { command: "/menu", messageText: "Pick", keyboardType: "reply", oneTimeKeyboard: true, buttons: [{ id: "b1", text: "Tea", action: "goto", target: "" }] });
  const r = await t.call("POST", `/api/projects/${projectId}/preview`, { cookie: owner, json: { document: doc(...shop.heldCheckout(), menu) } });
  expect(r.status).toBe(201);
  const d = new PreviewDriver(t, owner, r.body.id);
  await d.act({ type: "text", text: "/buy" });
  const [bill] = await d.botSays((m) => m.some((x) => x.startsWith("🧾 Premium")));
  await d.act({ type: "text", text: "/menu" });
  await d.botSays((m) => m.includes("Pick"));
  await d.act({ type: "pay", messageId: bill!.messageId });
  await until(() => shop.held.length === 1, "the checkout's stock request");
  shop.held.shift()!({ left: 3 });
  await d.botSays((m) => m.includes("paid 5"));
  const after = await d.transcript();
  expect(after.entries.some((e: { kind: string }) => e.kind === "service")).toBe(true);
  expect(after.replyKeyboard).toMatchObject({ rows: [[expect.objectContaining({ text: "Tea" })]], oneTime: true });
  await t.call("DELETE", `/api/preview/${d.id}`, { cookie: owner });
}, 60_000);
