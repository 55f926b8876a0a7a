// Every turn no update started knows the user of its private chat as a message turn does, from one
// reading of the store (recordedSender, readSenders: runtime/senders.ts; docs/runtime.md): names,
// username, language and premium. A schedule's turn for every user had no premium (bot_people
// holds it); a webhook's flow and an operator's resume knew only the first name and username of
// the chat list; a forum topic's message and an outgoing message's turn knew no user at all. Each
// flow here says who its user is, takes the is_premium branch, and ends in a broadcast's
// confirmation whose buttons are the runtime's own texts in the user's language. A schedule's log
// line also tells how many users' turns failed. A real bot process on the fake messenger with a
// user database; the users' records are written before it starts.
import { Database } from "bun:sqlite";
import { join } from "node:path";
import { afterAll, beforeAll, expect, test } from "bun:test";
import { startFakeMessenger, type FakeMessenger, type FakeUser } from "../support/fake-messenger";
import { doc, inlineRows, node, removeDir, startBot, tmpDir, type BotProcess } from "./harness";
import { createPlatformDb, dbEnv, type PlatformDb } from "./platform-db";

const anna: FakeUser = { id: 7_710_001, first_name: "Anna", last_name: "Ivanova", username: "anna_iv", language_code: "ru", is_premium: true };
const bob: FakeUser = { id: 7_710_002, first_name: "Bob", last_name: "Stone", username: "bobstone", language_code: "en" };
/** recorded, but blocked the bot on the messenger: the schedule's turn for him fails */
const carl: FakeUser = { id: 7_710_003, first_name: "Carl", last_name: "Ray", username: "carlray", language_code: "en" };
/** no user record: the chat list knows her name, her person record her language and premium */
const dora = { id: 7_710_004, first_name: "Dora", username: "dora_d" };
const TOPIC_GROUP = -1_005_550_007_777;
const WHO = "{first_name} {last_name} (@{username}, {user_id})";
const who = (u: FakeUser) => `${u.first_name} ${u.last_name ?? ""} (@${u.username}, ${u.id})`;
const RU = [["✅ Отправить", "❌ Отмена"]];
const EN = [["✅ Send", "❌ Cancel"]];

let fake: FakeMessenger;
let b: BotProcess;
let pdb: PlatformDb;

// each kind of turn opens with its own line, then all go the same way: premium or not, then the confirmation
const opener = (id: string, label: string) => node(id, "message", { messageText: `${label}: ${WHO}`, enableAutoTransition: true, autoTransitionTo: "tier" });
const scenario = doc(
  node("morning", "schedule_trigger", { rules: [{ mode: "interval", intervalMinutes: 60 }], runOnStart: true, autoTransitionTo: "sched-card" }),
  opener("sched-card", "Morning"),
  node("wh", "webhook_trigger", { autoTransitionTo: "hook-card" }),
  opener("hook-card", "Hook"),
  opener("back-card", "Back"),
  node("on-topic", "group_message_trigger", { groupChatIdSource: "manual", groupChatId: String(TOPIC_GROUP), threadIdVariable: "topic", autoTransitionTo: "topic-card" }),
  opener("topic-card", "Topic"),
  // the outgoing message "ping" (and no other) starts the flow; its own messages do not trigger it again
  node("on-out", "outgoing_message_trigger", { autoTransitionTo: "out-kind" }),
  node("out-kind", "condition", { variable: "{message_text}", branches: [{ id: "p", operator: "equals", value: "ping", target: "out-card" }] }),
  opener("out-card", "Out"),
  node("cmd-ping", "command_trigger", { command: "/ping", autoTransitionTo: "ping" }),
  node("ping", "message", { messageText: "ping" }),
  node("tier", "condition", { branches: [{ id: "v", operator: "is_premium", value: "", target: "vip" }, { id: "e", operator: "else", value: "", target: "plain" }] }),
  node("vip", "message", { messageText: "VIP", enableAutoTransition: true, autoTransitionTo: "ask" }),
  node("plain", "message", { messageText: "Plain", enableAutoTransition: true, autoTransitionTo: "ask" }),
  node("ask", "broadcast", { broadcastTargetNode: "digest", enableConfirmation: true, confirmationText: "Share?" }),
  node("digest", "message", { messageText: "Digest" }),
);

beforeAll(async () => {
  fake = await startFakeMessenger();
  fake.setBlocked(carl.id, true);
  const dir = tmpDir("scenario-system-turn-users-");
  pdb = createPlatformDb(dir);
  const db = new Database(pdb.path);
  const now = new Date().toISOString();
  const user = db.query("INSERT INTO bot_users (token_id, user_id, first_name, last_name, username, language_code, first_seen_at, last_seen_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)");
  for (const u of [anna, bob, carl]) user.run(pdb.tokenId, String(u.id), u.first_name, u.last_name!, u.username!, u.language_code!, now, now);
  const person = db.query("INSERT INTO bot_people (token_id, user_id, is_premium, language_code, first_seen_at, last_seen_at) VALUES (?, ?, ?, ?, ?, ?)");
  person.run(pdb.tokenId, String(anna.id), 1, "ru", now, now);
  person.run(pdb.tokenId, String(bob.id), 0, "en", now, now);
  person.run(pdb.tokenId, String(dora.id), 1, "en", now, now);
  db.query("INSERT INTO bot_chats (token_id, chat_id, kind, user_id, first_name, username) VALUES (?, ?, 'private', ?, ?, ?)")
    .run(pdb.tokenId, String(dora.id), String(dora.id), dora.first_name, dora.username);
  // the forum topics 77 and 78 are Anna's and Bob's
  const state = db.query("INSERT INTO bot_state (token_id, chat_id, variables, updated_at) VALUES (?, ?, ?, ?)");
  state.run(pdb.tokenId, String(anna.id), JSON.stringify({ topic: "77" }), now);
  state.run(pdb.tokenId, String(bob.id), JSON.stringify({ topic: "78" }), now);
  db.close();
  b = await startBot(fake, scenario, { dir, generate: { userDatabaseEnabled: true, enableLogging: true }, env: { ...dbEnv(pdb), BOTLOOM_SUPERVISED: "1" }, stdin: "pipe" });
});

afterAll(async () => {
  await b?.stop();
  pdb?.close();
  if (b) removeDir(b.dir);
  await fake?.stop();
});

/** The three messages of the flow `label` opened for this user: the opener, the premium branch's, the confirmation (its buttons). */
async function flowOf(id: number, label: string, token = b.bot.token) {
  const inChat = () => fake.sent(token, id);
  // the flow's third message is the one two after its opener
  const third = await fake.waitForCall(token, (c) => {
    const list = inChat();
    const i = list.indexOf(c);
    return i >= 2 && String(list[i - 2]!.params.text).startsWith(label + ": ");
  }, 10_000);
  const list = inChat();
  const sent = list.slice(list.indexOf(third) - 2, list.indexOf(third) + 1);
  return { texts: sent.map((c) => c.params.text), buttons: inlineRows(sent[2]!) };
}

/** The message the bot sent this user that says `text`. */
const said = (id: number, text: string) => fake.waitForCall(b.bot.token, (c) => Number(c.params.chat_id) === id && c.params.text === text && !c.error, 10_000);

const tell = (command: Record<string, unknown>) => {
  const stdin = b.proc.stdin as import("bun").FileSink;
  stdin.write(JSON.stringify(command) + "\n");
  stdin.flush();
};

test("a schedule for every user takes the is_premium branch for the premium user only, and its log line counts the failed turns", async () => {
  expect(await flowOf(anna.id, "Morning")).toEqual({ texts: [`Morning: ${who(anna)}`, "VIP", "Share?"], buttons: RU });
  expect(await flowOf(bob.id, "Morning")).toEqual({ texts: [`Morning: ${who(bob)}`, "Plain", "Share?"], buttons: EN });
  // Carl blocked the bot: his turn's first message failed
  await b.waitForOutput("schedule morning: ran for 3 users (1 failed)");
}, 30_000);

test("an inbound webhook's flow and an operator's resume know the user's last name, language and premium", async () => {
  tell({ op: "hook", chatId: String(bob.id), nodeId: "wh", vars: {} });
  expect(await flowOf(bob.id, "Hook")).toEqual({ texts: [`Hook: ${who(bob)}`, "Plain", "Share?"], buttons: EN });
  tell({ op: "hook", chatId: String(anna.id), nodeId: "wh", vars: {} });
  expect(await flowOf(anna.id, "Hook")).toEqual({ texts: [`Hook: ${who(anna)}`, "VIP", "Share?"], buttons: RU });
  tell({ op: "resume", chatId: String(bob.id), nodeId: "back-card" });
  expect(await flowOf(bob.id, "Back")).toEqual({ texts: [`Back: ${who(bob)}`, "Plain", "Share?"], buttons: EN });
  // no user record: the chat list's name, the person's language and premium
  tell({ op: "hook", chatId: String(dora.id), nodeId: "wh", vars: {} });
  expect(await flowOf(dora.id, "Hook")).toEqual({ texts: [`Hook: ${who(dora)}`, "VIP", "Share?"], buttons: EN });
}, 30_000);

test("a forum topic's message runs as the user the topic belongs to", async () => {
  const operator = { id: 4_410_001, first_name: "Op" };
  fake.sendGroupMessage(b.bot.token, TOPIC_GROUP, operator, { text: "Shipped", message_thread_id: 78, is_topic_message: true });
  expect(await flowOf(bob.id, "Topic")).toEqual({ texts: [`Topic: ${who(bob)}`, "Plain", "Share?"], buttons: EN });
  fake.sendGroupMessage(b.bot.token, TOPIC_GROUP, operator, { text: "Shipped", message_thread_id: 77, is_topic_message: true });
  expect(await flowOf(anna.id, "Topic")).toEqual({ texts: [`Topic: ${who(anna)}`, "VIP", "Share?"], buttons: RU });
}, 30_000);

test("an outgoing message's flow runs as the user of the private chat", async () => {
  fake.sendText(b.bot.token, bob, "/ping");
  await said(bob.id, "ping");
  expect(await flowOf(bob.id, "Out")).toEqual({ texts: [`Out: ${who(bob)}`, "Plain", "Share?"], buttons: EN });
  fake.sendText(b.bot.token, anna, "/ping");
  await said(anna.id, "ping");
  expect(await flowOf(anna.id, "Out")).toEqual({ texts: [`Out: ${who(anna)}`, "VIP", "Share?"], buttons: RU });
}, 30_000);

test("without a user database, a schedule's users are the chats seen, each known by what the chat list and their messages recorded, and one who blocked the bot is left out", async () => {
  const eve: FakeUser = { id: 7_710_005, first_name: "Eve", username: "eve_e", language_code: "en", is_premium: true };
  const frank: FakeUser = { id: 7_710_006, first_name: "Frank", username: "frank_f", language_code: "en" };
  const dir = tmpDir("scenario-system-turn-seen-");
  const seen = doc(
    node("cmd-start", "command_trigger", { command: "/start", autoTransitionTo: "hi" }),
    node("hi", "message", { messageText: "hi" }),
    node("tick", "schedule_trigger", { rules: [{ mode: "interval", intervalSeconds: 1 }], autoTransitionTo: "tick-card" }),
    node("tick-card", "message", { messageText: `Tick: ${WHO}`, enableAutoTransition: true, autoTransitionTo: "tier" }),
    ...scenario.sheets[0]!.nodes.filter((n) => ["tier", "vip", "plain", "ask", "digest"].includes(n.id)),
  );
  const s = await startBot(fake, seen, { dir, env: { DATABASE_PATH: join(dir, "project.db") } });
  try {
    fake.sendText(s.bot.token, eve, "/start");
    // the ticks before Eve wrote ran for no one; the record of her message is written within its batch window
    const { texts, buttons } = await flowOf(eve.id, "Tick", s.bot.token);
    expect({ texts, buttons }).toEqual({ texts: ["Tick: Eve  (@eve_e, 7710005)", "VIP", "Share?"], buttons: EN });
    // Frank blocks the bot: the tick that fails for him marks him so, and the later ticks leave him out
    fake.sendText(s.bot.token, frank, "/start");
    await fake.waitForCall(s.bot.token, (c) => Number(c.params.chat_id) === frank.id && String(c.params.text).startsWith("Tick: ") && !c.error, 10_000);
    fake.setBlocked(frank.id, true);
    // whichever of the tick's messages comes first after the block
    const refused = await fake.waitForCall(s.bot.token, (c) => Number(c.params.chat_id) === frank.id && !!c.error, 10_000);
    const ticksToEve = () => fake.sent(s.bot.token, eve.id).filter((c) => String(c.params.text).startsWith("Tick: ")).length;
    // three ticks later, at most one more was tried for him (it may have begun before the refusal was recorded)
    const after = ticksToEve();
    await fake.waitForCall(s.bot.token, () => ticksToEve() >= after + 3, 10_000);
    const triedSince = fake.calls(s.bot.token, "sendMessage").filter((c) => Number(c.params.chat_id) === frank.id && String(c.params.text).startsWith("Tick: ") && c.at > refused.at);
    expect(triedSince.length).toBeLessThanOrEqual(1);
  } finally {
    await s.stop();
    removeDir(dir);
  }
}, 30_000);
