// Executes a generated bot: a broadcast to 300 recorded bot users (bot_users) after the admin
// confirms it. Every user gets the message with their own name, no second of sending holds more
// than the sends started in it at 25 a second and the few still in flight (the messenger allows
// about 30), users who blocked the bot are logged as delivery errors, progress is logged, and the
// initiator gets the totals. Long by nature:
// 300 sends at 25 per second take 12 seconds (enough seconds to judge the throttle by its busiest one).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startFakeMessenger, type FakeMessenger } from "../support/fake-messenger";
import { broadcastScenario as scenario } from "./fixtures-messaging";
import { Chat, removeDir, startBot, tmpDir, type BotProcess } from "./harness";
import { createPlatformDb, dbEnv, recordBotUsers, type PlatformDb } from "./platform-db";
import { MESSENGER_LIMIT, MOST_IN_A_SECOND, PER_SECOND, busiestSecond } from "./send-pace";

const USERS = 300;
const FIRST_USER = 6_000_001;
const BLOCKED = [FIRST_USER + 10, FIRST_USER + 250];

let fake: FakeMessenger;
let b: BotProcess;
let pdb: PlatformDb;
const admin = { id: 4_300_001, first_name: "Ada", language_code: "en" };

beforeAll(async () => {
  fake = await startFakeMessenger();
  const dir = tmpDir("scenario-broadcast-");
  pdb = createPlatformDb(dir);
  recordBotUsers(pdb, Array.from({ length: USERS }, (_, i) => FIRST_USER + i));
  for (const id of BLOCKED) fake.setBlocked(id, true);
  b = await startBot(fake, scenario, { dir, generate: { userDatabaseEnabled: true }, env: { ...dbEnv(pdb), ADMIN_IDS: String(admin.id) } });
});

afterAll(async () => {
  await b?.stop();
  pdb?.close();
  if (b) removeDir(b.dir);
  await fake?.stop();
});

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
