// Turns the bot runs for its recorded users, with no message of theirs, know each user as a message
// from them would: a schedule "for every user" (docs/nodes/triggers.md#time) and a broadcast's
// message (docs/nodes/messaging.md#broadcast) fill {first_name}, {last_name}, {username},
// {user_id} and pick the runtime's own texts in the user's language from the user's record; a
// schedule's turn also passes admin-only nodes for an admin and mirrors its variables onto the
// user's record. A schedule's turns used to have no user at all (empty names, no {user_id},
// Russian texts for everyone, never an admin), a broadcast's message no last name. A real bot process on the fake messenger with a
// user database holding two users; Anna never writes, so what her turns know comes from her record.
import { Database } from "bun:sqlite";
import { afterAll, beforeAll, expect, test } from "bun:test";
import { startFakeMessenger, type FakeMessenger, type FakeUser } from "../support/fake-messenger";
import { Chat, doc, inlineData, inlineRows, node, removeDir, startBot, tmpDir, type BotProcess } from "./harness";
import { createPlatformDb, dbEnv, type PlatformDb } from "./platform-db";

const anna: FakeUser = { id: 7_700_001, first_name: "Anna", last_name: "Ivanova", username: "anna_iv", language_code: "ru" };
const bob: FakeUser = { id: 7_700_002, first_name: "Bob", last_name: "Stone", username: "bobstone", language_code: "en" };
const WHO = "{first_name} {last_name} (@{username}, {user_id})";
const who = (u: FakeUser) => `${u.first_name} ${u.last_name} (@${u.username}, ${u.id})`;

let fake: FakeMessenger;
let b: BotProcess;
let pdb: PlatformDb;

// the schedule notes the morning in a variable; the greeting is followed by an admin-only broadcast
// whose confirmation's buttons are the runtime's own texts (both users are admins)
const scenario = doc(
  node("morning", "schedule_trigger", { rules: [{ mode: "interval", intervalMinutes: 60 }], runOnStart: true, autoTransitionTo: "mark" }),
  node("mark", "set_variable", { assignments: [{ variable: "greeted", value: "yes", mode: "set" }], autoTransitionTo: "greet" }),
  node("cmd-hi", "command_trigger", { command: "/hi", autoTransitionTo: "greet" }),
  node("greet", "message", { messageText: `Good morning, ${WHO}`, enableAutoTransition: true, autoTransitionTo: "share" }),
  node("share", "broadcast", { broadcastTargetNode: "digest", enableConfirmation: true, confirmationText: "Share the digest?", adminOnly: true }),
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
  b = await startBot(fake, scenario, { dir, generate: { userDatabaseEnabled: true, enableLogging: true }, env: { ...dbEnv(pdb), ADMIN_IDS: `${anna.id},${bob.id}` } });
});

afterAll(async () => {
  await b?.stop();
  pdb?.close();
  if (b) removeDir(b.dir);
  await fake?.stop();
});

test("each user's turn of a schedule for every user knows that user, as a message from them does", async () => {
  await b.waitForOutput("schedule morning: ran for 2 users");
  const next = async (u: FakeUser) => (await fake.waitForSent(b.bot.token, u.id))[0]!;
  const annaGreeting = await next(anna);
  expect(annaGreeting.params.text).toBe(`Good morning, ${who(anna)}`);
  const bobGreeting = await next(bob);
  expect(bobGreeting.params.text).toBe(`Good morning, ${who(bob)}`);
  expect(inlineRows(await next(anna))).toEqual([["✅ Отправить", "❌ Отмена"]]);
  const bobAsk = await next(bob);
  expect(inlineRows(bobAsk)).toEqual([["✅ Send", "❌ Cancel"]]);
  // what the turn set is on Anna's record, as a message's turn would have put it
  const [record] = pdb.query<{ variables: string }>("SELECT variables FROM bot_users WHERE token_id = ? AND user_id = ?", pdb.tokenId, String(anna.id));
  expect(JSON.parse(record!.variables)).toEqual({ greeted: "yes" });

  // the same flow started by a message of Bob's says the same
  const [greeting, ask] = await new Chat(b, bob).say("/hi", 2);
  expect(greeting!.params.text).toBe(bobGreeting.params.text);
  expect(inlineRows(ask!)).toEqual(inlineRows(bobAsk));
}, 30_000);

test("a broadcast's message knows each recipient from their record", async () => {
  // Bob asks for the confirmation and presses Send (found by its button: the schedule's turn may have asked him too)
  const started = Date.now();
  fake.sendText(b.bot.token, bob, "/hi");
  const ask = await fake.waitForCall(b.bot.token, (c) => c.params.chat_id === bob.id && c.at >= started && inlineData(c, "✅ Send") !== undefined);
  fake.pressButton(b.bot.token, bob, inlineData(ask, "✅ Send")!, ask.messageId);
  const digestFor = (u: FakeUser) => fake.waitForCall(b.bot.token, (c) => c.params.chat_id === u.id && /^Digest/.test(c.params.text ?? ""), 10_000);
  expect((await digestFor(anna)).params.text).toBe(`Digest for ${who(anna)}`);
  expect((await digestFor(bob)).params.text).toBe(`Digest for ${who(bob)}`);
}, 30_000);
