// docs/api.md#webhook-intake against a stand-in bot process on 127.0.0.1:9000+tokenId: the body is
// forwarded as sent with the secret header, the bot's status is copied, the answer body is empty
// and not JSON; the bot not answering gives 200. docs/api.md#webhook-intake: a missing or wrong secret is 401.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { webhookSecret } from "../../src/bots/program";
import { createTestApp, setUp, type TestApp } from "../support/app";
import { freePort } from "../support/process";

let t: TestApp;
let tokenId: number;
let bot: ReturnType<typeof Bun.serve>;
let answer = { status: 200, body: "" };
const received: { path: string; body: string; secret: string | null; type: string | null }[] = [];
const projectId = 3;

beforeAll(async () => {
  t = createTestApp();
  await setUp(t);
  // A free port above 9000 stands for the bot's port; the intake derives it from the token id.
  let port = await freePort();
  while (port <= 9000) port = await freePort();
  tokenId = port - 9000;
  bot = Bun.serve({
    hostname: "127.0.0.1",
    port,
    async fetch(req) {
      received.push({ path: new URL(req.url).pathname, body: await req.text(), secret: req.headers.get("x-telegram-bot-api-secret-token"), type: req.headers.get("content-type") });
      return new Response(answer.body, { status: answer.status, headers: { "content-type": "application/json" } });
    },
  });
});
afterAll(() => {
  bot.stop(true);
  t.cleanup();
});

const post = (body: string, secret?: string) =>
  t.call("POST", `/api/webhook/${projectId}/${tokenId}`, { body, headers: { "content-type": "application/json", ...(secret === undefined ? {} : { "x-telegram-bot-api-secret-token": secret }) } });

test("forwards the update as sent, copies the bot's status, answers with an empty non-JSON body", async () => {
  const secret = webhookSecret(t.ctx.config.sessionSecret, projectId, tokenId);
  const update = '{"update_id":7,"message":{"message_id":1,"date":0,"chat":{"id":1,"type":"private"},"text":"привет"}}';
  answer = { status: 200, body: '{"method":"sendMessage"}' };
  const ok = await post(update, secret);
  expect(ok.status).toBe(200);
  expect(ok.text).toBe("");
  expect(ok.headers.get("content-type") ?? "").not.toContain("json");
  expect(received.at(-1)).toEqual({ path: "/webhook", body: update, secret, type: "application/json" });

  answer = { status: 403, body: "" };
  expect((await post(update, secret)).status).toBe(403);
  answer = { status: 500, body: "boom" };
  const failed = await post(update, secret);
  expect(failed.status).toBe(500);
  expect(failed.text).toBe("");
});

test("a missing or wrong secret is 401 and never reaches the bot; the secret of another token is wrong too", async () => {
  const before = received.length;
  expect((await post("{}")).status).toBe(401);
  expect((await post("{}", "x")).status).toBe(401);
  expect((await post("{}", webhookSecret(t.ctx.config.sessionSecret, projectId, tokenId + 1))).status).toBe(401);
  expect((await post("{}", webhookSecret(t.ctx.config.sessionSecret, projectId + 1, tokenId))).status).toBe(401);
  expect(received.length).toBe(before);
});

test("ids that are not numbers are 400; nobody listening on the bot's port gives 200", async () => {
  for (const path of [`/api/webhook/x/${tokenId}`, `/api/webhook/${projectId}/1.5`, `/api/webhook/${projectId}/-1`, `/api/webhook/${projectId}/99999999999`]) {
    const r = await t.call("POST", path, { body: "{}" });
    expect({ path, status: r.status, error: r.body?.error }).toEqual({ path, status: 400, error: "VALIDATION_FAILED" });
  }
  const closed = await freePort();
  const idle = closed - 9000;
  if (idle > 0) {
    const r = await t.call("POST", `/api/webhook/${projectId}/${idle}`, { body: "{}", headers: { "x-telegram-bot-api-secret-token": webhookSecret(t.ctx.config.sessionSecret, projectId, idle) } });
    expect(r.status).toBe(200);
    expect(r.text).toBe("");
  }
});
