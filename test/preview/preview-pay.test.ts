// Pay in a preview over HTTP, with a real preview bot whose checkout waits on a held loopback
// service (docs/nodes/payments.md "In the preview"): while the bot has not answered, the invoice
// says so and a second Pay is refused with the one error shape; a refusal leaves it payable with
// the bot's reason; a confirmation pays it.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { createTestApp, loginAs, setUp, type TestApp } from "../support/app";
import { until } from "../support/process";
import { doc } from "../scenario/harness";
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

test("a Pay waits for the bot: a second Pay is refused meanwhile; refused, it is payable again; confirmed, it is paid", async () => {
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
  expect((await pay()).body).toEqual({ error: "VALIDATION_FAILED", message: "this invoice is paid already" });
  await t.call("DELETE", `/api/preview/${d.id}`, { cookie: owner });
}, 60_000);
