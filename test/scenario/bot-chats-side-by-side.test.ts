// Chats run side by side (docs/runtime.md#taking-updates): a long turn in one chat (here an
// http_request its server holds) does not keep the bot from answering other users, and one
// chat's own updates still run in the order they came; past TURNS_AHEAD updates unfinished the bot
// takes no more until the one it started last ends, so a flood cannot queue without bound.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { startFakeMessenger, type FakeMessenger } from "../support/fake-messenger";
import { until } from "../support/process";
import { heldService } from "./held-service";
import { doc, node, removeDir, startBot, tmpDir, type BotProcess } from "./harness";

/** runtime/router.ts TURNS_AHEAD: updates the bot runs unfinished before it waits (docs/runtime.md#taking-updates) */
const TURNS_AHEAD = 500;

let fake: FakeMessenger;
let bot: BotProcess | undefined;
const dir = tmpDir("scenario-side-by-side-");
const api = heldService();
/** requests the test's server holds until released */
const held = api.held;

const scenario = doc(
  node("cmd-ping", "command_trigger", { command: "/ping", autoTransitionTo: "pong" }),
  node("pong", "message", { messageText: "pong" }),
  ...api.slowCommand(),
);

beforeAll(async () => {
  fake = await startFakeMessenger();
  bot = await startBot(fake, scenario, { dir, env: { DATABASE_PATH: `${dir}/project.db`, BOTLOOM_EGRESS_ALLOW: "127.0.0.1" } });
});
afterAll(async () => {
  api.releaseAll();
  await bot?.stop();
  await fake.stop();
  api.stop();
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

test("past 500 unfinished updates the bot takes no more until the one it started last has ended", async () => {
  const b = bot!;
  const token = b.bot.token;
  const dan = { id: 9_400_004, first_name: "Dan" };
  const eve = { id: 9_400_005, first_name: "Eve" };
  fake.sendText(token, dan, "/slow");
  await until(() => held.length === 1 || undefined, "Dan's request at the slow service");
  // Dan's next messages wait behind his held turn in his chat: with it, TURNS_AHEAD + 1 unfinished
  let last = 0;
  for (let i = 0; i < TURNS_AHEAD; i++) last = fake.sendText(token, dan, `queued ${i}`).update_id;
  fake.sendText(token, eve, "/ping");
  const confirmedPast = (id: number) => fake.calls(token, "getUpdates").some((c) => Number(c.params.offset) > id);
  // the bot takes Dan's messages up to the batch (at most 100) that holds the one past the cap ...
  await until(() => confirmedPast(last - 100) || undefined, "the bot polling for the batch of Dan's last message", 20_000);
  // ... and then nothing more: what does not happen is watched for a bounded window (docs/testing.md)
  await Bun.sleep(1000);
  expect(fake.sent(token, eve.id)).toEqual([]);
  expect(confirmedPast(last)).toBe(false);
  expect(fake.pending(token)).toBeGreaterThan(0);
  expect(held.length).toBe(1);
  // Dan's turn ends, his queued messages after it, and only then is Eve's /ping taken
  held.shift()!();
  expect((await fake.waitForSent(token, eve.id, 1, 20_000))[0]!.params.text).toBe("pong");
  const texts = fake.sent(token).map((c) => `${c.params.chat_id} ${c.params.text}`);
  expect(texts.indexOf(`${dan.id} slow done`)).toBeGreaterThan(-1);
  expect(texts.indexOf(`${dan.id} slow done`)).toBeLessThan(texts.indexOf(`${eve.id} pong`));
  await fake.waitForConfirmed(token);
}, 60_000);
