// A 429 holds all of a bot's calls (docs/nodes/messaging.md#flood-limit): Telegram's flood limit is
// the bot's, not the chat's, so when the messenger answers one reply with retry_after, a reply to
// another chat made meanwhile reaches it only once that time has passed (it used to go at once and
// meet the same limit). The hold is written to the token's send pace row too, where the bot's mass
// sends and the platform's campaigns reserve their send time. A real bot process on the fake
// messenger, with its project file; the order is read from the times the messenger recorded.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { startFakeMessenger, type FakeMessenger } from "../support/fake-messenger";
import { doc, node, removeDir, startBot, tmpDir, type BotProcess } from "./harness";
import { createPlatformDb, dbEnv, type PlatformDb } from "./platform-db";

const RETRY_AFTER_S = 2;

let fake: FakeMessenger;
let b: BotProcess;
let pdb: PlatformDb;

const scenario = doc(
  node("cmd-ping", "command_trigger", { command: "/ping", autoTransitionTo: "pong" }),
  node("pong", "message", { messageText: "pong" }),
);

beforeAll(async () => {
  fake = await startFakeMessenger();
  const dir = tmpDir("scenario-flood-hold-");
  pdb = createPlatformDb(dir);
  b = await startBot(fake, scenario, { dir, env: dbEnv(pdb) });
});

afterAll(async () => {
  await b?.stop();
  pdb?.close();
  if (b) removeDir(b.dir);
  await fake?.stop();
});

test("after a 429 with retry_after, a reply to another chat reaches the messenger only once that time has passed", async () => {
  const token = b.bot.token;
  const ann = { id: 9_500_001, first_name: "Ann" };
  const bob = { id: 9_500_002, first_name: "Bob" };
  fake.failNext(token, "sendMessage", { error_code: 429, description: `Too Many Requests: retry after ${RETRY_AFTER_S}`, retry_after: RETRY_AFTER_S });
  fake.sendText(token, ann, "/ping");
  const refused = await fake.waitForCall(token, (c) => c.method === "sendMessage" && c.error !== undefined && c.params.chat_id === ann.id, 10_000);
  const bobPing = fake.sendText(token, bob, "/ping").update_id;
  const [bobPong] = await fake.waitForSent(token, bob.id, 1, 10_000);
  const [annPong] = await fake.waitForSent(token, ann.id, 1, 10_000);
  expect([annPong!.params.text, bobPong!.params.text]).toEqual(["pong", "pong"]);
  const holdEnd = refused.at + RETRY_AFTER_S * 1000;
  // Bob's message was taken while the hold ran (the bot confirmed it with its next poll) ...
  const taken = fake.calls(token, "getUpdates").find((c) => Number(c.params.offset) > bobPing);
  expect(taken!.at).toBeLessThan(holdEnd);
  // ... and its answer reached the messenger after the hold, as did Ann's second try
  expect(bobPong!.at).toBeGreaterThanOrEqual(holdEnd);
  expect(annPong!.at).toBeGreaterThanOrEqual(holdEnd);
  // the token's send pace row holds the platform's and the bot's mass sends as long
  const [row] = pdb.query<{ next_at: number }>("SELECT next_at FROM send_pace WHERE token_id = ?", pdb.tokenId);
  expect(row?.next_at).toBeGreaterThanOrEqual(holdEnd);
}, 30_000);
