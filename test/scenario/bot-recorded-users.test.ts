// Turns the bot runs for its recorded users, with no message of theirs, know each user as a message
// from them would: a broadcast's message (docs/nodes/messaging.md#broadcast) fills {first_name},
// {last_name}, {username} and {user_id} from the user's record. A broadcast's message used to have
// no last name. A real bot process on the fake messenger with a user database holding two users;
// Anna never writes, so what her turns know comes from her record.
import { Database } from "bun:sqlite";
import { afterAll, beforeAll, expect, test } from "bun:test";
import { startFakeMessenger, type FakeMessenger, type FakeUser } from "../support/fake-messenger";
import { doc, inlineData, node, removeDir, startBot, tmpDir, type BotProcess } from "./harness";
import { createPlatformDb, dbEnv, type PlatformDb } from "./platform-db";

const anna: FakeUser = { id: 7_700_001, first_name: "Anna", last_name: "Ivanova", username: "anna_iv", language_code: "ru" };
const bob: FakeUser = { id: 7_700_002, first_name: "Bob", last_name: "Stone", username: "bobstone", language_code: "en" };
const WHO = "{first_name} {last_name} (@{username}, {user_id})";
const who = (u: FakeUser) => `${u.first_name} ${u.last_name} (@${u.username}, ${u.id})`;

let fake: FakeMessenger;
let b: BotProcess;
let pdb: PlatformDb;

const scenario = doc(
  node("cmd-hi", "command_trigger", { command: "/hi", autoTransitionTo: "greet" }),
  node("greet", "message", { messageText: `Good morning, ${WHO}`, enableAutoTransition: true, autoTransitionTo: "share" }),
  node("share", "broadcast", { broadcastTargetNode: "digest", enableConfirmation: true, confirmationText: "Share the digest?" }),
  node("digest", "message", { messageText: `Digest for ${WHO}` }),
);

beforeAll(async () => {
  fake = await startFakeMessenger();
  const dir = tmpDir("scenario-recorded-users-");
  pdb = createPlatformDb(dir);
  const db = new Database(pdb.path);
  const now = new Date().toISOString();
  const insert = db.query(
    "INSERT INTO bot_users (token_id, user_id, first_name, last_name, username, language_code, first_seen_at, last_seen_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
  );
  for (const u of [anna, bob]) insert.run(pdb.tokenId, String(u.id), u.first_name, u.last_name!, u.username!, u.language_code!, now, now);
  db.close();
  b = await startBot(fake, scenario, { dir, generate: { userDatabaseEnabled: true, enableLogging: true }, env: dbEnv(pdb) });
});

afterAll(async () => {
  await b?.stop();
  pdb?.close();
  if (b) removeDir(b.dir);
  await fake?.stop();
});

test("a broadcast's message knows each recipient from their record", async () => {
  // Bob asks for the confirmation and presses Send
  const started = Date.now();
  fake.sendText(b.bot.token, bob, "/hi");
  const ask = await fake.waitForCall(b.bot.token, (c) => c.params.chat_id === bob.id && c.at >= started && inlineData(c, "✅ Send") !== undefined);
  fake.pressButton(b.bot.token, bob, inlineData(ask, "✅ Send")!, ask.messageId);
  const digestFor = (u: FakeUser) => fake.waitForCall(b.bot.token, (c) => c.params.chat_id === u.id && /^Digest/.test(c.params.text ?? ""), 10_000);
  expect((await digestFor(anna)).params.text).toBe(`Digest for ${who(anna)}`);
  expect((await digestFor(bob)).params.text).toBe(`Digest for ${who(bob)}`);
}, 30_000);
