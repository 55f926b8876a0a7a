// Executes a generated bot: a broadcast to 300 recorded bot users (bot_users) after the admin
// confirms it. Every user gets the message with their own name, no second of sending holds more
// than the sends started in it at 25 a second and the few still in flight (the messenger allows
// about 30), users who blocked the bot are logged as delivery errors, progress is logged, and the
// initiator gets the totals. Long by nature:
// 300 sends at 25 per second take 12 seconds (enough seconds to judge the throttle by its busiest one).
import { Database } from "bun:sqlite";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startFakeMessenger, type FakeMessenger, type RecordedCall } from "../support/fake-messenger";
import { broadcastScenario as scenario } from "./fixtures-messaging";
import { Chat, removeDir, startBot, tmpDir, type BotProcess } from "./harness";
import { createPlatformDb, dbEnv, type PlatformDb } from "./platform-db";

const USERS = 300;
const FIRST_USER = 6_000_001;
const PER_SECOND = 25;
/** runtime/broadcast.ts BROADCAST_IN_FLIGHT: a broadcast's sends in flight at most */
const IN_FLIGHT = 5;
/** What the messenger allows a bot in any one second before it answers 429. */
const MESSENGER_LIMIT = 30;
/**
 * Starts are at least 42 ms apart (25 a second and 2 ms of slack), so at most 24 start in any one
 * second; what reaches the messenger in it is those and the sends still in flight when it began
 * (docs/nodes/messaging.md#broadcast).
 */
const MOST_IN_A_SECOND = Math.ceil(1000 / (1000 / PER_SECOND + 2)) + IN_FLIGHT;
const BLOCKED = [FIRST_USER + 10, FIRST_USER + 250];

let fake: FakeMessenger;
let b: BotProcess;
let pdb: PlatformDb;
const admin = { id: 4_300_001, first_name: "Ada", language_code: "en" };

beforeAll(async () => {
  fake = await startFakeMessenger();
  const dir = tmpDir("scenario-broadcast-");
  pdb = createPlatformDb(dir);
  const db = new Database(pdb.path);
  const now = new Date().toISOString();
  const insert = db.query(
    "INSERT INTO bot_users (token_id, user_id, first_name, first_seen_at, last_seen_at) VALUES (?, ?, ?, ?, ?)",
  );
  db.transaction(() => {
    for (let i = 0; i < USERS; i++) insert.run(pdb.tokenId, String(FIRST_USER + i), `U${i}`, now, now);
  })();
  db.close();
  for (const id of BLOCKED) fake.setBlocked(id, true);
  b = await startBot(fake, scenario, { dir, generate: { userDatabaseEnabled: true }, env: { ...dbEnv(pdb), ADMIN_IDS: String(admin.id) } });
});

afterAll(async () => {
  await b?.stop();
  pdb?.close();
  if (b) removeDir(b.dir);
  await fake?.stop();
});

/** The largest number of calls inside any one-second window. */
function busiestSecond(calls: RecordedCall[]): number {
  const times = calls.map((c) => c.at).sort((x, y) => x - y);
  let most = 0;
  for (let i = 0, j = 0; i < times.length; i++) {
    while (times[i]! - times[j]! >= 1000) j++;
    most = Math.max(most, i - j + 1);
  }
  return most;
}

describe("broadcast", () => {
  test("a user who is not an admin cannot start it", async () => {
    const chat = new Chat(b);
    await chat.say("/news", 0);
    await chat.quiet(300);
  });

  test(
    "asks first, then reaches every recorded user under the throttle and reports the totals",
    async () => {
      const chat = new Chat(b, admin);
      const [ask] = await chat.say("/news");
      expect(ask.params.text).toBe("Send the news to everyone?");
      const started = Date.now();
      await chat.tap("✅ Send", 1); // the buttons are removed from the question
      // the admin and the user of the first test are recorded users too: they get the news as well
      const [own, report] = await chat.replies(2, 90_000);
      const seconds = (Date.now() - started) / 1000;
      const total = USERS + 2;
      expect(own.params.text).toBe("News for Ada");
      expect(report.params.text).toBe(`Sent ${total - BLOCKED.length} of ${total}, ${BLOCKED.length} failed`);
      const all = fake.calls(b.bot.token, "sendMessage").filter((c) => c.at >= started && /^News/.test(c.params.text));
      expect(all.length).toBe(total);
      const sends = all.filter((c) => Number(c.params.chat_id) >= FIRST_USER);
      expect(new Set(sends.map((c) => c.params.chat_id)).size).toBe(USERS);
      expect(sends.find((c) => c.params.chat_id === FIRST_USER + 7)?.params.text).toBe("News for U7");
      expect(sends.filter((c) => c.error).map((c) => c.params.chat_id).sort()).toEqual(BLOCKED);
      const most = busiestSecond(all);
      console.log(`broadcast: ${USERS} users in ${seconds.toFixed(1)} s, busiest second ${most} sends (${PER_SECOND} a second, at most ${MOST_IN_A_SECOND} in one)`);
      expect(most).toBeLessThanOrEqual(MOST_IN_A_SECOND);
      expect(MOST_IN_A_SECOND).toBeLessThan(MESSENGER_LIMIT);
      await b.waitForOutput(`broadcast a-news: 200/${total}, 1 failed`);
      await b.waitForOutput(`broadcast: user ${BLOCKED[0]}: Forbidden: bot was blocked by the user`);
    },
    120_000,
  );
});
