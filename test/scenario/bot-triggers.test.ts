// Executes generated bots: incoming_message_trigger (runs for every message, before the usual
// handling), outgoing_message_trigger (after every message the bot sends, not for its own), the
// forum-topic group_message_trigger (to the user whose variable holds the topic id) and
// schedule_trigger (croner patterns with a time zone, in a configured chat or for every user).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { generateBot } from "../../src/scenario";
import { startFakeMessenger, type FakeMessenger } from "../support/fake-messenger";
import { SCHEDULE_GROUP, scheduleScenario, TOPIC_GROUP, triggersScenario } from "./fixtures-messaging";
import { Chat, removeDir, startBot, type BotProcess } from "./harness";

let fake: FakeMessenger;
let b: BotProcess;

beforeAll(async () => {
  fake = await startFakeMessenger();
  b = await startBot(fake, triggersScenario, { generate: { enableLogging: !!process.env.DEBUG_BOT } });
});

afterAll(async () => {
  if (process.env.DEBUG_BOT) console.log(b?.output());
  await b?.stop();
  if (b) removeDir(b.dir);
  await fake?.stop();
});

describe("message triggers", () => {
  test("incoming_message_trigger counts every message, commands included", async () => {
    const chat = new Chat(b);
    await chat.say("one", 0);
    await chat.say("two", 0);
    expect((await chat.say("/count"))[0].params.text).toBe("seen 3");
  });

  test("outgoing_message_trigger sees what the bot sent last (its own flow does not re-trigger)", async () => {
    const chat = new Chat(b);
    await chat.say("/count");
    expect((await chat.say("/last"))[0].params.text).toBe("last: seen 1");
    expect((await chat.say("/last"))[0].params.text).toBe("last: last: seen 1");
  });

  test("outgoing_message_trigger runs after a forward and a copy too: the forward's text is the forwarded message's", async () => {
    const chat = new Chat(b);
    await chat.say("/count");
    const [forwarded] = await chat.say("/fwdme please");
    expect(forwarded.method).toBe("forwardMessage");
    expect((await chat.say("/last"))[0].params.text).toBe("last: /fwdme please");
    // a copy's answer is its id only: the trigger runs, knowing no text
    const [copied] = await chat.say("/copyme");
    expect(copied.method).toBe("copyMessage");
    expect((await chat.say("/last"))[0].params.text.trim()).toBe("last:");
  });

  test("group_message_trigger: a topic message goes to the user the topic belongs to", async () => {
    const chat = new Chat(b);
    expect((await chat.say("/settopic"))[0].params.text).toBe("topic set");
    const operator = { id: 4_400_001, first_name: "Op" };
    fake.sendGroupMessage(b.bot.token, TOPIC_GROUP, operator, { text: "Your order ships today", message_thread_id: 77, is_topic_message: true });
    const [forwarded] = await chat.replies();
    expect(forwarded.params.text).toBe(`Operator: Your order ships today (for ${chat.user.id})`);
    // a topic nobody owns: nothing is sent anywhere
    fake.sendGroupMessage(b.bot.token, TOPIC_GROUP, operator, { text: "lost", message_thread_id: 78, is_topic_message: true });
    await chat.quiet(300);
    expect(fake.sent(b.bot.token, TOPIC_GROUP)).toEqual([]);
  });
});

describe("schedule_trigger", () => {
  test("daily, weekly, monthly and interval rules compile to croner patterns in their time zone; bad ones are reported", () => {
    const out = generateBot(scheduleScenario, { projectName: "S", userDatabaseEnabled: false });
    expect(out.code).toContain('cron: ["30 9 * * MON,FRI", "0 18 * * *", "0 8 1,15 * *"]');
    expect(out.code).toContain("every: [5400]");
    expect(out.code).toContain('timezone: "Europe/Berlin"');
    expect(out.warnings.some((w) => w.nodeId === "office" && /cron expression "not a cron" is invalid/.test(w.message))).toBe(true);
  });

  test("runs every second in the configured chat and every 2 seconds for every user who wrote", async () => {
    const s = await startBot(fake, scheduleScenario);
    try {
      const chat = new Chat(s);
      await chat.say("/start");
      const ticks = await fake.waitForSent(s.bot.token, SCHEDULE_GROUP, 2, 5000);
      expect(ticks.map((t) => t.params.text)).toEqual(["tick", "tick"]);
      expect(ticks[1]!.at - ticks[0]!.at).toBeGreaterThan(500); // one a second, not a burst
      const [reminder] = await chat.replies(1, 5000);
      expect(reminder.params.text).toBe("reminder");
      await s.waitForOutput("schedules: tick, remind, office");
    } finally {
      await s.stop();
      removeDir(s.dir);
    }
  });
});
