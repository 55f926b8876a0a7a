// Chats run side by side (docs/runtime.md#taking-updates): a long turn in one chat (here an
// http_request its server holds) does not keep the bot from answering other users, and one
// chat's own updates still run in the order they came.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { startFakeMessenger, type FakeMessenger } from "../support/fake-messenger";
import { until } from "../support/process";
import { doc, node, removeDir, startBot, tmpDir, type BotProcess } from "./harness";

let fake: FakeMessenger;
let bot: BotProcess | undefined;
const dir = tmpDir("scenario-side-by-side-");
/** requests the test's server holds until released */
const held: (() => void)[] = [];
const api = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  fetch: () => new Promise<Response>((resolve) => held.push(() => resolve(Response.json({ ok: true })))),
});

const scenario = doc(
  node("cmd-ping", "command_trigger", { command: "/ping", autoTransitionTo: "pong" }),
  node("pong", "message", { messageText: "pong" }),
  node("cmd-slow", "command_trigger", { command: "/slow", autoTransitionTo: "call" }),
  node("call", "http_request", { httpRequestUrl: `http://127.0.0.1:${api.port}/slow`, httpRequestTimeout: 60, httpRequestResponseVariable: "r", autoTransitionTo: "done" }),
  node("done", "message", { messageText: "slow done" }),
);

beforeAll(async () => {
  fake = await startFakeMessenger();
  bot = await startBot(fake, scenario, { dir, env: { DATABASE_PATH: `${dir}/project.db`, BOTLOOM_EGRESS_ALLOW: "127.0.0.1" } });
});
afterAll(async () => {
  for (const release of held.splice(0)) release();
  await bot?.stop();
  await fake.stop();
  api.stop(true);
  removeDir(dir);
});

test("a user is answered while another user's turn waits for a slow service; a chat's own updates keep their order", async () => {
  const b = bot!;
  const ann = { id: 9_400_001, first_name: "Ann" };
  const bob = { id: 9_400_002, first_name: "Bob" };
  fake.sendText(b.bot.token, ann, "/slow");
  await until(() => held.length === 1 || undefined, "Ann's request at the slow service");
  fake.sendText(b.bot.token, ann, "/ping");
  fake.sendText(b.bot.token, bob, "/ping");
  // Bob's answer comes while Ann's request is still held (the service answers only when released)
  expect((await fake.waitForSent(b.bot.token, bob.id, 1, 10_000))[0]!.params.text).toBe("pong");
  expect(held.length).toBe(1);
  expect(fake.sent(b.bot.token, ann.id)).toEqual([]);
  held.shift()!();
  const annSent = await fake.waitForSent(b.bot.token, ann.id, 2, 10_000);
  expect(annSent.map((c) => c.params.text)).toEqual(["slow done", "pong"]);
}, 40_000);

test("a reply the messenger refuses with 429 is sent again once its retry_after has passed", async () => {
  const b = bot!;
  const cid = { id: 9_400_003, first_name: "Cid" };
  fake.failNext(b.bot.token, "sendMessage", { error_code: 429, description: "Too Many Requests: retry after 1", retry_after: 1 });
  fake.sendText(b.bot.token, cid, "/ping");
  expect((await fake.waitForSent(b.bot.token, cid.id, 1, 10_000))[0]!.params.text).toBe("pong");
  const tries = fake.calls(b.bot.token, "sendMessage").filter((c) => c.params.chat_id === cid.id);
  expect(tries.length).toBe(2);
  await b.waitForOutput("the messenger asked to wait 1 s before sendMessage; sending again then");
});
