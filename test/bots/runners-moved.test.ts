// Shared runners: a webhook bot is being started (the manager waits for its port) when another bot
// blocks their runner and the runner is killed. The starting bot did nothing wrong: like a running
// bot it is moved to another runner and its start succeeds — after a server restart this is how
// every webhook bot resuming next to a bot whose redelivered update blocks would otherwise fail.
// Real processes on the fake messenger.
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { FakeMessenger } from "../support/fake-messenger";
import type { TestApp } from "../support/app";
import { loginAs } from "../support/app";
import { until } from "../support/process";
import { act as actOn, addBot, startRunnerPlatform, type RunnerPlatform, type TestBot } from "./runner-platform";

let p: RunnerPlatform;
let fake: FakeMessenger;
let t: TestApp;
let alice: string;

const newBot = (name: string, mode: "polling" | "webhook" = "polling") => addBot(p, alice, name, { mode });
const act = (b: TestBot, what: "start" | "stop") => actOn(p, b, what);

beforeAll(async () => {
  p = await startRunnerPlatform({ env: { BOT_RUNNER_BLOCK_SECONDS: "2" } });
  ({ t, fake } = p);
  alice = await loginAs(t, 901);
});

afterAll(() => p.close());

test("a webhook bot starting in a runner killed for another bot's block is moved, and its start succeeds", async () => {
  const culprit = await newBot("Blocker");
  const hooked = await newBot("Hooked", "webhook");
  expect((await act(culprit, "start")).status).toBe(200);
  await until(() => fake.calls(culprit.bot.token, "getUpdates").length > 0, "the blocker to poll");
  const shared = t.ctx.bots.state(culprit.tokenId).pid;
  fake.sendText(culprit.bot.token, { id: 6601, first_name: "Uma" }, "/block");
  // once the runner misses a ping it is blocked: the webhook bot's start will wait in its pipe
  await until(() => p.pool().missedPing(shared!), "the runner blocked (a ping unanswered)");
  const started = await act(hooked, "start");
  expect([started.status, started.text]).toEqual([200, started.text]);
  expect(t.ctx.bots.state(hooked.tokenId).status).toBe("running");
  expect(t.ctx.bots.state(hooked.tokenId).pid).not.toBe(shared);
  const user = { id: 6602, first_name: "Uma" };
  fake.sendText(hooked.bot.token, user, "/start");
  expect((await fake.waitForSent(hooked.bot.token, user.id, 1, 15_000))[0]!.params.text).toBe("hello Uma");
  const launches = (await t.call("GET", `/api/projects/${hooked.projectId}/launches/all`, { cookie: alice })).body as { status: string; errorMessage: string | null }[];
  expect(launches.filter((l) => l.status === "error")).toEqual([]);
  expect(launches[0]!.status).toBe("running");
  await act(culprit, "stop");
  expect((await act(hooked, "stop")).body.status).toBe("stopped");
}, 60_000);
