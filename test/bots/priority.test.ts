// Who gets the cores first (src/lib/priority.ts): a runner hosting bots runs BOT_NICE nicer than
// the server, so a bot burning CPU in its scenario SQL cannot delay the server's answers
// (bench/health-under-load.ts). Real processes, fake messenger.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { getPriority } from "node:os";
import { BACKGROUND_NICE, BOT_NICE, lowerPriority } from "../../src/lib/priority";
import { loginAs } from "../support/app";
import { until } from "../support/process";
import { act, addBot, startRunnerPlatform, type RunnerPlatform } from "./runner-platform";

let p: RunnerPlatform;

beforeAll(async () => {
  p = await startRunnerPlatform();
});

afterAll(async () => {
  await p.close();
});

test("lowerPriority makes a process nicer than the caller by the amount asked, at most 19", async () => {
  const sleeper = Bun.spawn(["sleep", "30"]);
  try {
    lowerPriority(sleeper.pid, BACKGROUND_NICE);
    expect(getPriority(sleeper.pid)).toBe(Math.min(19, getPriority(0) + BACKGROUND_NICE));
    lowerPriority(sleeper.pid, 40);
    expect(getPriority(sleeper.pid)).toBe(19);
  } finally {
    sleeper.kill();
  }
});

test("a runner hosting bots runs BOT_NICE below the server", async () => {
  const cookie = await loginAs(p.t, 811);
  const b = await addBot(p, cookie, "Niced");
  expect((await act(p, b, "start")).status).toBe(200);
  await until(() => p.fake.calls(b.bot.token, "getUpdates").length > 0, "the bot to poll");
  const runner = p.t.ctx.bots.state(b.tokenId).pid!;
  expect(getPriority(runner)).toBe(Math.min(19, getPriority(0) + BOT_NICE));
  expect(getPriority(runner)).toBeGreaterThan(getPriority(0));
}, 60_000);
