// Shared runners: a runner left without bots is ended after 10 s (its stdin closed). A bot started
// while that runner is still on its way out must go to a live runner, not into the closed pipe of
// one that is exiting (the start would be lost and the bot counted as crashed). The runner is held
// with SIGSTOP so "on its way out" lasts as long as the test needs. Real processes, fake messenger.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { createApp } from "../../src/app";
import type { BotManager } from "../../src/bots/manager";
import type { RunnerPool } from "../../src/bots/runner-pool";
import { startFakeMessenger, type FakeMessenger } from "../support/fake-messenger";
import { createTestApp, loginAs, setUp, type TestApp } from "../support/app";
import { freePort, isAlive, until } from "../support/process";
import { faultScenario } from "./scenario-fixture";

let fake: FakeMessenger;
let t: TestApp;
let alice: string;
let stopApp: () => void = () => {};
let held: number | undefined;

const pool = () => (t.ctx.bots as BotManager).host as RunnerPool;

async function newBot(name: string) {
  const project = await t.call("POST", "/api/projects", { cookie: alice, json: { name, data: faultScenario } });
  const bot = fake.addBot({ username: `${name.toLowerCase()}_bot` });
  const token = await t.call("POST", `/api/bot/projects/${project.body.id}/tokens`, { cookie: alice, json: { token: bot.token } });
  expect(token.status).toBe(200);
  return { projectId: project.body.id as number, tokenId: token.body.id as number, bot };
}
const act = (b: { tokenId: number }, what: "start" | "stop") => t.call("POST", `/api/bot/tokens/${b.tokenId}/${what}`, { cookie: alice });

beforeAll(async () => {
  fake = await startFakeMessenger();
  const port = await freePort();
  t = createTestApp({
    fileDb: true,
    // Pings of a held runner go unanswered: far from the limit here.
    env: { MESSENGER_API_ROOT: fake.url, WEBHOOK_BASE_URL: `http://127.0.0.1:${port}`, BOT_RUNNERS: "1", BOT_RUNNER_BLOCK_SECONDS: "60" },
    botPolicy: { backoffBaseMs: 100, backoffCapMs: 400, crashLimit: 3, crashWindowMs: 60_000, stopGraceMs: 3000, listenTimeoutMs: 15_000 },
  });
  await setUp(t);
  const app = createApp(t.ctx).listen({ port, hostname: "127.0.0.1" });
  stopApp = () => app.server?.stop(true);
  alice = await loginAs(t, 801);
});

afterAll(async () => {
  if (held !== undefined && isAlive(held)) process.kill(held, "SIGCONT");
  await t.ctx.bots.shutdown();
  stopApp();
  t.cleanup();
  await fake.stop();
});

test("a bot started while the owner's idle runner is ending goes to a live runner, without a crash", async () => {
  const first = await newBot("First");
  const second = await newBot("Second");
  expect((await act(first, "start")).status).toBe(200);
  await until(() => fake.calls(first.bot.token, "getUpdates").length > 0, "the first bot to poll");
  const runner = t.ctx.bots.state(first.tokenId).pid!;
  expect((await act(first, "stop")).body.status).toBe("stopped");
  // Held, the idle runner cannot exit when the pool ends it after 10 s.
  held = runner;
  process.kill(runner, "SIGSTOP");
  await Bun.sleep(11_000);
  expect(pool().processes).toContain(runner);

  expect((await act(second, "start")).status).toBe(200);
  process.kill(runner, "SIGCONT");
  await until(() => !isAlive(runner), "the ended runner to exit", 10_000);
  await until(() => fake.calls(second.bot.token, "getUpdates").length > 0, "the second bot to poll", 15_000);
  const user = { id: 6501, first_name: "Uma" };
  fake.sendText(second.bot.token, user, "/start");
  expect((await fake.waitForSent(second.bot.token, user.id, 1, 15_000))[0]!.params.text).toBe("hello Uma");
  const launches = (await t.call("GET", `/api/projects/${second.projectId}/launches/all`, { cookie: alice })).body as { status: string; errorMessage: string | null }[];
  expect(launches.map((l) => [l.status, l.errorMessage])).toEqual([["running", null]]);
}, 60_000);
