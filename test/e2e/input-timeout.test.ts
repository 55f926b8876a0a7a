// An input's timeout survives a server killed with SIGKILL (docs/nodes/messaging.md, "Waiting"): a
// question asked just before the kill expires once after the restart, in both isolation modes, and
// a question answered before the kill never expires. Real processes: the server from source on
// loopback, its runner or bot process, the fake messenger.
import { describe, expect, test } from "bun:test";
import { restartHarness, serverInFolder, startedBot } from "../support/restart-harness";
import { childPids, isAlive, until } from "../support/process";
import { inputTimeoutScenario } from "../scenario/fixtures-input-timeout";

const PAUSE = 4; // seconds: long enough to kill the server inside the wait, even on a busy machine
const scenario = inputTimeoutScenario(PAUSE);

const ADMIN_KEY = "timeout-admin-key-0123456789";
const h = restartHarness();
const texts = (token: string, chat: number) => h.fake.sent(token, chat).map((c) => c.params.text);

for (const isolation of ["runner", "process"] as const) {
  describe(`isolation ${isolation}`, () => {
    test("a question's timeout running when the server is killed fires once after the restart", async () => {
      const serve = serverInFolder(h, `botloom-input-timeout-${isolation}-`, { ADMIN_KEY, SESSION_SECRET: "timeout-session-secret-0123456789", BOT_ISOLATION: isolation });
      const s1 = await serve();
      const { bot } = await startedBot(h, s1, ADMIN_KEY, `Timeout ${isolation}`, scenario);

      const ann = { id: 7301, first_name: "Ann" };
      const bob = { id: 7302, first_name: "Bob" };
      const cid = { id: 7303, first_name: "Cid" };
      h.fake.sendText(bot.token, ann, "/ask");
      h.fake.sendText(bot.token, bob, "/ask");
      await h.fake.waitForSent(bot.token, ann.id, 1, 20_000);
      await h.fake.waitForSent(bot.token, bob.id, 1, 20_000);
      const due = Date.now() + PAUSE * 1000;
      h.fake.sendText(bot.token, bob, "42");
      expect((await h.fake.waitForSent(bot.token, bob.id, 1, 20_000))[0]!.params.text).toBe("Thanks, 42");
      await h.fake.waitForConfirmed(bot.token);
      const bots = childPids(s1.proc.pid, () => true);
      await s1.stop("SIGKILL");
      await until(() => bots.every((pid) => !isAlive(pid)), "the bot's process to end after its server", 10_000);
      expect(texts(bot.token, ann.id)).toEqual(["Your name?"]);

      await until(() => Date.now() > due, "the timeout to fall due", 10_000);
      await serve();
      expect((await h.fake.waitForSent(bot.token, ann.id, 1, 30_000))[0]!.params.text).toBe("Too late, Ann");
      // One more round trip through the same bot before counting: a duplicate would be out by then.
      h.fake.sendText(bot.token, cid, "/ping");
      expect((await h.fake.waitForSent(bot.token, cid.id, 1, 20_000))[0]!.params.text).toBe("pong");
      expect(texts(bot.token, ann.id)).toEqual(["Your name?", "Too late, Ann"]);
      expect(texts(bot.token, bob.id)).toEqual(["Your name?", "Thanks, 42"]);
    }, 120_000);
  });
}
