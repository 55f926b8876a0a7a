// A schedule "for every user" runs its users as a broadcast sends (docs/nodes/triggers.md#time):
// started at the bot's mass-send pace, a few at once, so a user whose turn is long (an
// http_request its server holds) holds only their own turn. The users used to run one after
// another, and everyone behind a slow one waited for it. A real bot process on the fake
// messenger with a user database; each wait is for an event the test releases.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { startFakeMessenger, type FakeMessenger } from "../support/fake-messenger";
import { until } from "../support/process";
import { heldService } from "./held-service";
import { doc, node, removeDir, startBot, tmpDir, type BotProcess } from "./harness";
import { createPlatformDb, dbEnv, recordBotUsers, type PlatformDb } from "./platform-db";

/** More than the turns in flight at once (BROADCAST_IN_FLIGHT, 5): the held one keeps its place while the rest pass through the others. */
const USERS = 12;
const FIRST_USER = 6_600_001;
const users = Array.from({ length: USERS }, (_, i) => FIRST_USER + i);

let fake: FakeMessenger;
let b: BotProcess;
let pdb: PlatformDb;
// the first user's call is held; everyone's after it is answered at once
const api = heldService({ first: 1 });

const scenario = doc(
  node("every", "schedule_trigger", { rules: [{ mode: "interval", intervalMinutes: 60 }], runOnStart: true, autoTransitionTo: "call" }),
  node("call", "http_request", { httpRequestUrl: api.url, httpRequestTimeout: 60, httpRequestResponseVariable: "r", autoTransitionTo: "news" }),
  node("news", "message", { messageText: "News" }),
);

beforeAll(async () => {
  fake = await startFakeMessenger();
  const dir = tmpDir("scenario-schedule-slow-");
  pdb = createPlatformDb(dir);
  recordBotUsers(pdb, users);
  b = await startBot(fake, scenario, { dir, generate: { userDatabaseEnabled: true, enableLogging: true }, env: { ...dbEnv(pdb), BOTLOOM_EGRESS_ALLOW: "127.0.0.1" } });
});

afterAll(async () => {
  api.releaseAll();
  await b?.stop();
  pdb?.close();
  if (b) removeDir(b.dir);
  await fake?.stop();
  api.stop();
});

test("a user whose turn is held does not keep the other users from getting the schedule's message", async () => {
  await until(() => api.held.length === 1 || undefined, "the first user's call held");
  const news = () => fake.sent(b.bot.token).filter((c) => c.params.text === "News").map((c) => Number(c.params.chat_id));
  await until(() => news().length === USERS - 1 || undefined, `the news for ${USERS - 1} users while one is held`);
  const waiting = users.filter((id) => !news().includes(id));
  expect(waiting.length).toBe(1);
  // the run ends with its last user, not before
  expect(b.output()).not.toContain("ran for");
  api.held.shift()!();
  expect((await fake.waitForSent(b.bot.token, waiting[0]!, 1, 10_000))[0]!.params.text).toBe("News");
  await b.waitForOutput(`schedule every: ran for ${USERS} users`);
  expect(news().sort()).toEqual(users);
}, 40_000);
