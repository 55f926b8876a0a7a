// Waits survive a server killed with SIGKILL (docs/nodes/messaging.md, "Waiting"): a delay and a
// follow-up sequence running at the moment of the kill continue after the restart, each message
// exactly once, in both isolation modes. Real processes: the server from source on loopback, its
// runner or bot process, the fake messenger.
import { describe, expect, test } from "bun:test";
import { restartHarness, serverInFolder, startedBot } from "../support/restart-harness";
import { childPids, isAlive, until } from "../support/process";

const at = (id: string, type: string, data: Record<string, unknown>) => ({ id, type, position: { x: 0, y: 0 }, data });
const say = (id: string, text: string, next?: string) => at(id, "message", { messageText: text, ...(next ? { enableAutoTransition: true, autoTransitionTo: next } : {}) });
const PAUSE = 4; // seconds: long enough to kill the server inside the wait, even on a busy machine

const scenario = {
  version: 2,
  sheets: [
    {
      id: "s1",
      name: "Main",
      nodes: [
        at("cmd-remind", "command_trigger", { command: "/remind", autoTransitionTo: "set" }),
        say("set", "Reminder set", "pause"),
        at("pause", "delay", { delaySeconds: PAUSE, autoTransitionTo: "ring" }),
        say("ring", "Reminder!"),
        at("cmd-course", "command_trigger", { command: "/course", autoTransitionTo: "day1" }),
        say("day1", "Day 1", "gap1"),
        at("gap1", "delay", { delaySeconds: PAUSE, autoTransitionTo: "day2" }),
        say("day2", "Day 2", "gap2"),
        at("gap2", "delay", { delaySeconds: 1, autoTransitionTo: "day3" }),
        say("day3", "Day 3"),
        at("cmd-ping", "command_trigger", { command: "/ping", autoTransitionTo: "pong" }),
        say("pong", "pong"),
      ],
      edges: [],
    },
  ],
};

const ADMIN_KEY = "waits-admin-key-0123456789";
const h = restartHarness();

const texts = (token: string, chat: number) => h.fake.sent(token, chat).map((c) => c.params.text);

for (const isolation of ["runner", "process"] as const) {
  describe(`isolation ${isolation}`, () => {
    test("a delay and a follow-up running when the server is killed fire once after the restart", async () => {
      const serve = serverInFolder(h, `botloom-waits-${isolation}-`, { ADMIN_KEY, SESSION_SECRET: "waits-session-secret-0123456789", BOT_ISOLATION: isolation });
      const s1 = await serve();
      const { bot } = await startedBot(h, s1, ADMIN_KEY, `Waits ${isolation}`, scenario);

      const ann = { id: 7101, first_name: "Ann" };
      const bob = { id: 7102, first_name: "Bob" };
      const cid = { id: 7103, first_name: "Cid" };
      h.fake.sendText(bot.token, ann, "/remind");
      h.fake.sendText(bot.token, bob, "/course");
      await h.fake.waitForSent(bot.token, ann.id, 1, 20_000);
      await h.fake.waitForSent(bot.token, bob.id, 1, 20_000);
      await h.fake.waitForConfirmed(bot.token);
      const due = Date.now() + PAUSE * 1000;
      const bots = childPids(s1.proc.pid, () => true);
      await s1.stop("SIGKILL");
      // The bot's process (runner or program) ends when its stdin closes; it must not have fired.
      await until(() => bots.every((pid) => !isAlive(pid)), "the bot's process to end after its server", 10_000);
      expect(texts(bot.token, ann.id)).toEqual(["Reminder set"]);
      expect(texts(bot.token, bob.id)).toEqual(["Day 1"]);

      // Restart once the waits are overdue: they fire at once when the bot is back.
      await until(() => Date.now() > due, "the waits to fall due", 10_000);
      await serve();
      await h.fake.waitForSent(bot.token, ann.id, 1, 30_000);
      await until(() => texts(bot.token, bob.id).length >= 3 || undefined, "the follow-up to finish", 30_000);
      // One more round trip through the same bot before counting: a duplicate would be out by then.
      h.fake.sendText(bot.token, cid, "/ping");
      expect((await h.fake.waitForSent(bot.token, cid.id, 1, 20_000))[0]!.params.text).toBe("pong");
      expect(texts(bot.token, ann.id)).toEqual(["Reminder set", "Reminder!"]);
      expect(texts(bot.token, bob.id)).toEqual(["Day 1", "Day 2", "Day 3"]);
    }, 120_000);
  });
}

test("a stopped bot keeps its waits: they fire when it is started again", async () => {
  const s = await serverInFolder(h, "botloom-waits-stopped-", { ADMIN_KEY, SESSION_SECRET: "waits-session-secret-0123456789" })();
  const { bot, tokenId, post } = await startedBot(h, s, ADMIN_KEY, "Waits stopped", scenario);
  const token = { id: tokenId };
  const dan = { id: 7201, first_name: "Dan" };
  h.fake.sendText(bot.token, dan, "/remind");
  await h.fake.waitForSent(bot.token, dan.id, 1, 20_000);
  const due = Date.now() + PAUSE * 1000;
  expect((await post(`/api/bot/tokens/${token.id}/stop`)).status).toBe(200);
  await until(() => Date.now() > due, "the wait to fall due", 10_000);
  expect(texts(bot.token, dan.id)).toEqual(["Reminder set"]);
  expect((await post(`/api/bot/tokens/${token.id}/start`)).status).toBe(200);
  expect((await h.fake.waitForSent(bot.token, dan.id, 1, 20_000))[0]!.params.text).toBe("Reminder!");
  const eve = { id: 7202, first_name: "Eve" };
  h.fake.sendText(bot.token, eve, "/ping");
  await h.fake.waitForSent(bot.token, eve.id, 1, 20_000);
  expect(texts(bot.token, dan.id)).toEqual(["Reminder set", "Reminder!"]);
}, 90_000);
