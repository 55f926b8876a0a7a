// Shared runners: a runner left without bots is ended after RUNNER_IDLE_MS (its stdin closed). A bot started
// while that runner is still on its way out must go to a live runner, not into the closed pipe of
// one that is exiting (the start would be lost and the bot counted as crashed). The runner is held
// with SIGSTOP so "on its way out" lasts as long as the test needs. Real processes, fake messenger.
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { FakeMessenger } from "../support/fake-messenger";
import type { TestApp } from "../support/app";
import { loginAs } from "../support/app";
import { isAlive, until } from "../support/process";
import { act as actOn, addBot, startRunnerPlatform, type RunnerPlatform, type TestBot } from "./runner-platform";

let p: RunnerPlatform;
let fake: FakeMessenger;
let t: TestApp;
let alice: string;
let held: number | undefined;

const pool = () => p.pool();
const newBot = (name: string) => addBot(p, alice, name);
const act = (b: TestBot, what: "start" | "stop") => actOn(p, b, what);

beforeAll(async () => {
  // Pings of a held runner go unanswered: far from the limit here.
  p = await startRunnerPlatform({ env: { BOT_RUNNER_BLOCK_SECONDS: "60" } });
  ({ t, fake } = p);
  alice = await loginAs(t, 801);
});

afterAll(async () => {
  if (held !== undefined && isAlive(held)) process.kill(held, "SIGCONT");
  await p.close();
});

test("a bot started while the owner's idle runner is ending goes to a live runner, without a crash", async () => {
  const first = await newBot("First");
  const second = await newBot("Second");
  pool().idleMs = 1500; // long enough to hold the runner (SIGSTOP) before the pool ends it
  expect((await act(first, "start")).status).toBe(200);
  await until(() => fake.calls(first.bot.token, "getUpdates").length > 0, "the first bot to poll");
  const runner = t.ctx.bots.state(first.tokenId).pid!;
  expect((await act(first, "stop")).body.status).toBe("stopped");
  // Held, the idle runner cannot exit when the pool ends it (idle time shortened for the test).
  held = runner;
  process.kill(runner, "SIGSTOP");
  await until(() => pool().ending.includes(runner), "the pool to end the idle runner");
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
