// Shared runners: a bot stopped while it blocks its runner. The stop cannot wait for a blocked
// event loop, so the bot is let go after the stop grace and the stop answers; when the watchdog
// then reports the block, the bot that caused it is still the one named and isolated, and the
// runner's other bots are moved, not counted as crashed. Real processes on the fake messenger.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { FakeMessenger, FakeUser } from "../support/fake-messenger";
import { loginAs, type TestApp } from "../support/app";
import { until } from "../support/process";
import { act as actOn, addBot, startRunnerPlatform, type RunnerPlatform, type TestBot } from "./runner-platform";

let p: RunnerPlatform;
let fake: FakeMessenger;
let t: TestApp;
let alice: string;
const user: FakeUser = { id: 6401, first_name: "Uma" };

async function newBot(name: string) {
  const b = await addBot(p, alice, name);
  expect((await act(b, "start")).status).toBe(200);
  await until(() => fake.calls(b.bot.token, "getUpdates").length > 0, `${name} to poll`);
  return b;
}

const act = (b: TestBot, what: "start" | "stop") => actOn(p, b, what);
const launchesOf = async (b: TestBot) => (await t.call("GET", `/api/projects/${b.projectId}/launches/all`, { cookie: alice })).body as { status: string; errorMessage: string | null }[];
const pidOf = (b: TestBot) => t.ctx.bots.state(b.tokenId).pid;

beforeAll(async () => {
  // The block is reported after 6 s; a stop lets its bot go after 1 s.
  p = await startRunnerPlatform({ env: { BOT_RUNNER_BLOCK_SECONDS: "6" }, policy: { stopGraceMs: 1000 } });
  ({ t, fake } = p);
  alice = await loginAs(t, 701);
});

afterAll(() => p.close());

describe("shared runners: stopping a bot that blocks its runner", () => {
  test("the stopped bot is still named for the block and isolated; its neighbour is moved, not crashed", async () => {
    const culprit = await newBot("Stuck");
    const neighbour = await newBot("Neighbour");
    const shared = pidOf(culprit);
    expect(pidOf(neighbour)).toBe(shared);
    fake.sendText(culprit.bot.token, user, "/block");
    await until(() => p.pool().missedPing(shared!), "the runner blocked (a ping unanswered)");
    expect((await act(culprit, "stop")).body.status).toBe("stopped");
    await until(() => t.logs.some((l) => l.includes("blocked its runner's event loop")), "the block reported", 30_000);
    expect(t.logs.filter((l) => l.includes("blocked its runner's event loop")).join("\n")).toContain(`bot of token ${culprit.tokenId} blocked`);
    await until(() => t.ctx.bots.state(neighbour.tokenId).status === "running" && pidOf(neighbour) !== shared, "the neighbour in another runner", 20_000);
    expect((await launchesOf(neighbour)).filter((l) => l.status === "error")).toEqual([]);
    const culpritLog = async () => JSON.stringify((await t.call("GET", `/api/projects/${culprit.projectId}/logs/all?limit=100`, { cookie: alice })).body);
    await until(async () => (await culpritLog()).includes("blocked its runner's event loop"), "the block in the culprit's own log");
    fake.sendText(neighbour.bot.token, user, "/start");
    expect((await fake.waitForSent(neighbour.bot.token, user.id, 1, 10_000))[0]!.params.text).toBe("hello Uma");
    // Started again, the culprit gets a runner of its own (its /block is delivered again there).
    expect((await act(culprit, "start")).status).toBe(200);
    expect(pidOf(culprit)).not.toBe(pidOf(neighbour));
    expect((await act(culprit, "stop")).body.status).toBe("stopped");
  }, 90_000);
});
