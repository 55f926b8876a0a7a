// docs/hooks.md "In the preview": the preview fires a webhook_trigger of the document it runs; the
// flow runs in the preview chat with the body's fields as variables; another user's preview is 404.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { createTestApp, loginAs, setUp, type TestApp } from "../support/app";
import { PreviewDriver } from "../preview/support";
import { hookScenario } from "./scenario";

let t: TestApp;
let owner: string;
let projectId: number;

beforeAll(async () => {
  t = createTestApp();
  await setUp(t);
  owner = await loginAs(t, 612);
  projectId = (await t.call("POST", "/api/projects", { cookie: owner, json: { name: "Hooks preview" } })).body.id;
});

afterAll(async () => {
  await t.ctx.preview.stopAll();
  t.cleanup();
});

test("firing the hook runs its flow in the preview chat with the body's variables; the answer is the node's", async () => {
  const r = await t.call("POST", `/api/projects/${projectId}/preview`, { cookie: owner, json: { document: hookScenario } });
  expect(r.status).toBe(201);
  const d = new PreviewDriver(t, owner, r.body.id);
  await d.act({ type: "text", text: "/start" });
  await d.botSays((m) => m.some((x) => x.startsWith("hi ")));
  const fired = await t.call("POST", `/api/preview/${r.body.id}/hooks/paid`, { cookie: owner, json: { order: "P-9", total: 3, customer: { telegram_id: 1 } } });
  expect(fired.status).toBe(200);
  expect(fired.body).toMatchObject({ status: 200, body: '{"ok":true}' });
  const [said] = await d.botSays((m) => m.some((x) => x.startsWith("Order ")));
  expect(said!.text).toStartWith("Order P-9 paid: 3, thanks");

  // not a webhook_trigger of the document, bad bodies, someone else's preview
  expect((await t.call("POST", `/api/preview/${r.body.id}/hooks/thanks`, { cookie: owner, json: {} })).status).toBe(404);
  expect((await t.call("POST", `/api/preview/${r.body.id}/hooks/paid`, { cookie: owner, json: [1] })).status).toBe(400);
  const deep = await t.call("POST", `/api/preview/${r.body.id}/hooks/paid`, { cookie: owner, body: '{"a":'.repeat(10_000) + "1" + "}".repeat(10_000), headers: { "content-type": "application/json" } });
  expect(deep.status).toBe(400);
  const other = await loginAs(t, 613);
  expect((await t.call("POST", `/api/preview/${r.body.id}/hooks/paid`, { cookie: other, json: {} })).status).toBe(404);

  // an edited document run in the same preview: its hooks answer from then on, not the first one's
  const edited = structuredClone(hookScenario);
  const paid = edited.sheets[0]!.nodes.find((n) => n.id === "paid")!;
  Object.assign(paid.data, { answerStatus: 202, answerBody: "took {order}" });
  edited.sheets[0]!.nodes.push({ id: "late", type: "webhook_trigger", position: { x: 0, y: 0 }, data: { userField: "customer.telegram_id", autoTransitionTo: "thanks" } });
  expect((await t.call("PUT", `/api/preview/${r.body.id}/document`, { cookie: owner, json: { document: edited } })).status).toBe(200);
  const again = await t.call("POST", `/api/preview/${r.body.id}/hooks/paid`, { cookie: owner, json: { order: "P-10", total: 4, customer: { telegram_id: 1 } } });
  expect(again.body).toMatchObject({ status: 202, body: "took P-10" });
  expect((await t.call("POST", `/api/preview/${r.body.id}/hooks/late`, { cookie: owner, json: { order: "P-11", customer: { telegram_id: 1 } } })).status).toBe(200);
}, 30_000);
