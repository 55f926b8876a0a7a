// A scenario cannot make its bot spam every recorded user faster than the documented pace: each
// schedule_trigger "for every user" and each broadcast kept 25 sends per second on its own, so a
// scenario with several schedules firing every second sent several times that (the messenger
// allows a bot about 30 per second and then answers 429 or restricts it). All of a bot's sends to
// every recorded user now share one pace. A real bot process on the fake messenger.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { startFakeMessenger, type FakeMessenger } from "../support/fake-messenger";
import { doc, node, removeDir, startBot, tmpDir, type BotProcess } from "./harness";
import { createPlatformDb, dbEnv, recordBotUsers, type PlatformDb } from "./platform-db";
import { MESSENGER_LIMIT, PER_SECOND, averagePerSecond, busiestSecond } from "./send-pace";

const USERS = 60;
const FIRST_USER = 6_500_001;
const SCHEDULES = 4;

let fake: FakeMessenger;
let b: BotProcess;
let pdb: PlatformDb;

const scenario = doc(
  ...Array.from({ length: SCHEDULES }, (_, i) =>
    node(`every${i}`, "schedule_trigger", { rules: [{ mode: "interval", intervalSeconds: 1 }], runOnStart: true, autoTransitionTo: `say${i}` }),
  ),
  ...Array.from({ length: SCHEDULES }, (_, i) => node(`say${i}`, "message", { messageText: `spam ${i}` })),
);

beforeAll(async () => {
  fake = await startFakeMessenger();
  const dir = tmpDir("scenario-pace-");
  pdb = createPlatformDb(dir);
  recordBotUsers(pdb, Array.from({ length: USERS }, (_, i) => FIRST_USER + i));
  b = await startBot(fake, scenario, { dir, generate: { userDatabaseEnabled: true }, env: dbEnv(pdb) });
});

afterAll(async () => {
  await b?.stop();
  pdb?.close();
  if (b) removeDir(b.dir);
  await fake?.stop();
});

test("several schedules for every user share one pace of 25 sends per second", async () => {
  // Enough sends for the pace to show: 3 s at 25 per second.
  const deadline = Date.now() + 20_000;
  while (fake.calls(b.bot.token, "sendMessage").length < 3 * PER_SECOND && Date.now() < deadline) await Bun.sleep(100);
  const sends = fake.calls(b.bot.token, "sendMessage").filter((c) => /^spam /.test(c.params.text));
  expect(sends.length).toBeGreaterThanOrEqual(3 * PER_SECOND);
  // Every schedule got its turn (the pace is shared, not taken by one).
  for (let i = 0; i < SCHEDULES; i++) expect(sends.some((c) => c.params.text === `spam ${i}`)).toBe(true);
  // The bot starts its sends at least 1000/25 ms apart; they arrive at the fake with the machine's
  // jitter (a busy CI box delays one and bunches the next), so arrivals are held to the messenger's
  // own limit of about 30 in any second, and to the pace on average. Without the shared pace four
  // schedules send about 100 per second.
  expect(busiestSecond(sends)).toBeLessThanOrEqual(MESSENGER_LIMIT);
  expect(averagePerSecond(sends)).toBeLessThanOrEqual(PER_SECOND * 1.05);
}, 30_000);
