// An input's timeout survives a server killed with SIGKILL (docs/nodes/messaging.md, "Waiting"): a
// question asked just before the kill expires once after the restart, in both isolation modes, and
// a question answered before the kill never expires. Real processes: the server from source on
// loopback, its runner or bot process, the fake messenger.
import { describe, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { restartHarness } from "../support/restart-harness";
import { childPids, devLoginOnServer, isAlive, startProcessServer, until } from "../support/process";

const at = (id: string, type: string, data: Record<string, unknown>) => ({ id, type, position: { x: 0, y: 0 }, data });
const PAUSE = 4; // seconds: long enough to kill the server inside the wait, even on a busy machine

const scenario = {
  version: 2,
  sheets: [
    {
      id: "s1",
      name: "Main",
      nodes: [
        at("cmd-ask", "command_trigger", { command: "/ask", autoTransitionTo: "ask" }),
        at("ask", "input", { inputPrompt: "Your order number?", inputVariable: "order", inputTargetNodeId: "got", inputTimeout: PAUSE, inputTimeoutTarget: "late" }),
        at("got", "message", { messageText: "Order {order} noted" }),
        at("late", "message", { messageText: "No answer, {first_name}: ask again with /ask" }),
        at("cmd-ping", "command_trigger", { command: "/ping", autoTransitionTo: "pong" }),
        at("pong", "message", { messageText: "pong" }),
      ],
      edges: [],
    },
  ],
};

const ADMIN_KEY = "timeout-admin-key-0123456789";
const h = restartHarness();
const texts = (token: string, chat: number) => h.fake.sent(token, chat).map((c) => c.params.text);

for (const isolation of ["runner", "process"] as const) {
  describe(`isolation ${isolation}`, () => {
    test("a question's timeout running when the server is killed fires once after the restart", async () => {
      const dir = mkdtempSync(join(tmpdir(), `botloom-input-timeout-${isolation}-`));
      h.dirs.push(dir);
      const env = { ADMIN_KEY, SESSION_SECRET: "timeout-session-secret-0123456789", MESSENGER_API_ROOT: h.fake.url, BOT_ISOLATION: isolation };
      const serve = async () => {
        const s = await startProcessServer([process.execPath, resolve(import.meta.dir, "../../src/main.ts"), "serve"], { cwd: dir, env, timeoutMs: 30_000 });
        h.servers.push(s);
        return s;
      };
      const s1 = await serve();
      const cookie = await devLoginOnServer(s1.url, ADMIN_KEY, 1);
      const post = (path: string, body?: unknown) => fetch(s1.url + path, { method: "POST", headers: { cookie, "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });
      const project = await (await post("/api/projects", { name: `Timeout ${isolation}`, data: scenario })).json();
      const bot = h.fake.addBot({ username: `timeout_${isolation}_bot` });
      const token = await (await post(`/api/bot/projects/${project.id}/tokens`, { token: bot.token })).json();
      expect((await post(`/api/bot/tokens/${token.id}/start`)).status).toBe(200);

      const ann = { id: 7301, first_name: "Ann" };
      const bob = { id: 7302, first_name: "Bob" };
      const cid = { id: 7303, first_name: "Cid" };
      h.fake.sendText(bot.token, ann, "/ask");
      h.fake.sendText(bot.token, bob, "/ask");
      await h.fake.waitForSent(bot.token, ann.id, 1, 20_000);
      await h.fake.waitForSent(bot.token, bob.id, 1, 20_000);
      const due = Date.now() + PAUSE * 1000;
      h.fake.sendText(bot.token, bob, "42");
      expect((await h.fake.waitForSent(bot.token, bob.id, 1, 20_000))[0]!.params.text).toBe("Order 42 noted");
      const bots = childPids(s1.proc.pid, () => true);
      await s1.stop("SIGKILL");
      await until(() => bots.every((pid) => !isAlive(pid)), "the bot's process to end after its server", 10_000);
      expect(texts(bot.token, ann.id)).toEqual(["Your order number?"]);

      await until(() => Date.now() > due, "the timeout to fall due", 10_000);
      await serve();
      expect((await h.fake.waitForSent(bot.token, ann.id, 1, 30_000))[0]!.params.text).toBe("No answer, Ann: ask again with /ask");
      // One more round trip through the same bot before counting: a duplicate would be out by then.
      h.fake.sendText(bot.token, cid, "/ping");
      expect((await h.fake.waitForSent(bot.token, cid.id, 1, 20_000))[0]!.params.text).toBe("pong");
      expect(texts(bot.token, ann.id)).toEqual(["Your order number?", "No answer, Ann: ask again with /ask"]);
      expect(texts(bot.token, bob.id)).toEqual(["Your order number?", "Order 42 noted"]);
    }, 120_000);
  });
}
