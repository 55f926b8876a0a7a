// A schedule "for every user" whose flow sends several messages, and a broadcast whose message is
// two (a photo, then its text), keep the bot's mass pace per message, not per user
// (docs/nodes/triggers.md#time, docs/nodes/messaging.md#broadcast): each user's turn started at 25 a
// second, but its further messages went out at once, so three messages a user reached the
// messenger at about 75 a second, past its 30, which answers 429 and holds every user of the bot.
// A real bot process on the fake messenger with a user database.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { startFakeMessenger, type FakeMessenger } from "../support/fake-messenger";
import { Chat, doc, node, removeDir, startBot, tmpDir, type BotProcess } from "./harness";
import { createPlatformDb, dbEnv, recordBotUsers, type PlatformDb } from "./platform-db";
import { MOST_IN_A_SECOND, PER_SECOND, averagePerSecond, busiestSecond } from "./send-pace";

const USERS = 60;
const FIRST_USER = 6_700_001;
const users = Array.from({ length: USERS }, (_, i) => FIRST_USER + i);
const TEXTS = ["one", "two", "three"];

let fake: FakeMessenger;
let b: BotProcess;
let pdb: PlatformDb;

const scenario = doc(
  node("every", "schedule_trigger", { rules: [{ mode: "interval", intervalMinutes: 60 }], runOnStart: true, autoTransitionTo: "m0" }),
  ...TEXTS.map((text, i) => node(`m${i}`, "message", { messageText: text, ...(i + 1 < TEXTS.length ? { autoTransitionTo: `m${i + 1}` } : {}) })),
  node("cmd-news", "command_trigger", { command: "/news", autoTransitionTo: "a-news" }),
  node("a-news", "broadcast", { broadcastTargetNode: "news", successMessage: "Sent {sent} of {total}" }),
  node("news", "message", { messageText: "News", imageUrl: "https://example.com/news.jpg", mediaCaption: "Photo" }),
);

beforeAll(async () => {
  fake = await startFakeMessenger();
  const dir = tmpDir("scenario-schedule-mass-pace-");
  pdb = createPlatformDb(dir);
  recordBotUsers(pdb, users);
  b = await startBot(fake, scenario, { dir, generate: { userDatabaseEnabled: true, enableLogging: true }, env: dbEnv(pdb) });
});

afterAll(async () => {
  await b?.stop();
  pdb?.close();
  if (b) removeDir(b.dir);
  await fake?.stop();
});

test("every message of a schedule's turns for every user takes a slot of the bot's mass pace", async () => {
  await b.waitForOutput(`schedule every: ran for ${USERS} users`, 60_000);
  const sends = fake.calls(b.bot.token, "sendMessage");
  // everyone got the whole flow, in order
  for (const id of users) expect(sends.filter((c) => Number(c.params.chat_id) === id).map((c) => c.params.text)).toEqual(TEXTS);
  expect(sends.length).toBe(USERS * TEXTS.length);
  const most = busiestSecond(sends);
  const seconds = (sends.at(-1)!.at - sends[0]!.at) / 1000;
  console.log(`schedule: ${USERS} users × ${TEXTS.length} messages in ${seconds.toFixed(1)} s, busiest second ${most} sends`);
  // a bound the pace's spacing sets (a lower bound on time), not the machine's speed: the sends
  // before took their users' slots only, about 75 a second
  expect(most).toBeLessThanOrEqual(MOST_IN_A_SECOND);
  expect(averagePerSecond(sends)).toBeLessThanOrEqual(PER_SECOND * 1.05);
}, 90_000);

test("a broadcast whose message is a photo and a text takes a slot for each", async () => {
  const admin = new Chat(b, { id: FIRST_USER - 1, first_name: "Ada" });
  const started = Date.now();
  // the admin is recorded by the command: they get the news too, last, and then the report
  await admin.say("/news", 0);
  await b.waitForOutput(`broadcast a-news: done, ${USERS + 1} of ${USERS + 1} sent, 0 failed`, 30_000);
  expect((await admin.replies(3)).map((c) => c.params.caption ?? c.params.text)).toEqual(["Photo", "News", `Sent ${USERS + 1} of ${USERS + 1}`]);
  const sends = fake.calls(b.bot.token).filter((c) => c.at >= started && (c.method === "sendPhoto" || (c.method === "sendMessage" && c.params.text === "News")));
  for (const id of users) expect(sends.filter((c) => Number(c.params.chat_id) === id).map((c) => c.method)).toEqual(["sendPhoto", "sendMessage"]);
  const most = busiestSecond(sends);
  console.log(`broadcast: ${USERS + 1} users × 2 messages in ${((sends.at(-1)!.at - sends[0]!.at) / 1000).toFixed(1)} s, busiest second ${most} sends`);
  expect(most).toBeLessThanOrEqual(MOST_IN_A_SECOND);
  expect(averagePerSecond(sends)).toBeLessThanOrEqual(PER_SECOND * 1.05);
}, 60_000);
