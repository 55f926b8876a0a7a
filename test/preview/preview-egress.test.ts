// The preview runs http_request under the egress policy too, and the preview's messenger does not
// deliver webhooks to internal addresses: a preview bot could register one through its own API
// root (which stays reachable) and have the server POST there. Allow list off.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { createTestApp, loginAs, setUp, type TestApp } from "../support/app";
import { INTERNAL_SECRET, startInternalService, type InternalService } from "../support/internal-service";
import { doc, node } from "../scenario/harness";
import { PreviewDriver } from "./support";

let t: TestApp;
let owner: string;
let projectId: number;
let internal: InternalService;


beforeAll(async () => {
  internal = startInternalService();
  t = createTestApp();
  await setUp(t);
  owner = await loginAs(t, 611);
  projectId = (await t.call("POST", "/api/projects", { cookie: owner, json: { name: "Egress" } })).body.id;
});

afterAll(async () => {
  await t.ctx.preview.stopAll();
  t.cleanup();
  internal.stop();
});

test("a preview's http_request and a webhook it registers never reach an internal service", async () => {
  const target = `http://127.0.0.1:${internal.port}/admin/api/status`;
  const document = doc(
    node("c1", "command_trigger", { command: "/ssrf", autoTransitionTo: "h1" }),
    node("h1", "http_request", { httpRequestUrl: target, httpRequestResponseVariable: "r", httpRequestTimeout: 5, autoTransitionTo: "m1" }),
    node("m1", "message", { messageText: "got=[{r.secret}] e={r.error}" }),
    node("c2", "command_trigger", { command: "/hook", autoTransitionTo: "h2" }),
    node("h2", "http_request", { httpRequestUrl: `https://api.telegram.org/bot{bot_token}/setWebhook?url=${encodeURIComponent(target)}`, httpRequestResponseVariable: "w", httpRequestTimeout: 5, autoTransitionTo: "m2" }),
    node("m2", "message", { messageText: "hook={w.ok}" }),
  );
  const r = await t.call("POST", `/api/projects/${projectId}/preview`, { cookie: owner, json: { document } });
  expect(r.status).toBe(201);
  const d = new PreviewDriver(t, owner, r.body.id);
  await d.act({ type: "text", text: "/ssrf" });
  const [reply] = await d.botSays((m) => m.some((x) => x.startsWith("got=")));
  expect(reply!.text).toStartWith("got=[] e=127.0.0.1:");
  expect(reply!.text).toContain("loopback");
  expect(reply!.text).not.toContain(INTERNAL_SECRET);

  // the bot's own API root stays reachable: it registers the webhook there
  await d.act({ type: "text", text: "/hook" });
  await d.botSays((m) => m.includes("hook=true"));
  // the next update is delivered to the webhook by the server: refused by the policy
  const webhookError = async () => (await t.ctx.preview.internalsOf(d.id, { chatId: 0, userId: 0 })).webhookError;
  await d.act({ type: "text", text: "anything" });
  for (const end = Date.now() + 10_000; !(await webhookError()) && Date.now() < end; ) await Bun.sleep(50);
  expect(await webhookError()).toBe("Connection refused");
  expect(internal.hits()).toBe(0);
  await t.call("DELETE", `/api/preview/${d.id}`, { cookie: owner });
}, 60_000);
