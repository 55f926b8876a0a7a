// A stall of the SERVER's event loop (a slow request, a long synchronous read) is no runner's fault:
// the pool must not take the missing pongs of those seconds as its runners' silence, kill them and
// count a crash of every bot in them. Two owners' bots in runners on the fake messenger; this test
// process hosts the pool and busy-loops for 10 s (longer than the pool's limit, block 5 s + slack);
// afterwards both runners are the same processes, no launch was closed, and the bots answer.
// A runner that is really frozen (SIGSTOP: its watchdog thread cannot speak either) is still
// replaced, but with no bot to blame none of its bots is charged a crash.
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { FakeUser } from "../support/fake-messenger";
import { loginAs } from "../support/app";
import { until } from "../support/process";
import { act, addBot, startRunnerPlatform, type RunnerPlatform, type TestBot } from "./runner-platform";

let p: RunnerPlatform;

beforeAll(async () => {
  p = await startRunnerPlatform({ env: { BOT_RUNNER_BLOCK_SECONDS: "5" } });
});

afterAll(() => p.close());

async function ask(b: TestBot, from: FakeUser) {
  p.fake.sendText(b.bot.token, from, "/start");
  return (await p.fake.waitForSent(b.bot.token, from.id, 1, 15_000))[0]!.params.text as string;
}

const launchesOf = async (b: TestBot) => (await p.t.call("GET", `/api/projects/${b.projectId}/launches/all`, { cookie: b.cookie })).body as { status: string; errorMessage: string | null }[];

let bots: TestBot[] = [];

test("a 10 s stall of the server's event loop kills no runner and counts no crash; every owner's bots answer afterwards", async () => {
  const alice = await loginAs(p.t, 1401);
  const bob = await loginAs(p.t, 1402);
  bots = [await addBot(p, alice, "StallA1"), await addBot(p, alice, "StallA2"), await addBot(p, bob, "StallB1")];
  for (const b of bots) {
    expect((await act(p, b, "start")).status).toBe(200);
    await until(() => p.fake.calls(b.bot.token, "getUpdates").length > 0, `${b.bot.username} to poll`);
  }
  for (const [i, b] of bots.entries()) expect(await ask(b, { id: 14100 + i, first_name: "Ann" })).toBe("hello Ann");
  const runners = p.pool().processes.sort();
  expect(runners.length).toBe(2);
  const pids = bots.map((b) => p.t.ctx.bots.state(b.tokenId).pid);

  // The server's own loop stalls: no timer, no pipe read, no request for 10 s.
  const end = performance.now() + 10_000;
  while (performance.now() < end) {}

  // Two rounds: the first runs while the pool catches up on the pongs it did not read; a kill in
  // its first watch after the stall would come before these answers.
  for (const round of [0, 1]) for (const [i, b] of bots.entries()) expect(await ask(b, { id: 14200 + 10 * round + i, first_name: "Bea" })).toBe("hello Bea");
  expect(p.pool().processes.sort()).toEqual(runners);
  expect(bots.map((b) => p.t.ctx.bots.state(b.tokenId))).toEqual(pids.map((pid) => expect.objectContaining({ status: "running", pid })));
  for (const b of bots) expect((await launchesOf(b)).map((l) => [l.status, l.errorMessage])).toEqual([["running", null]]);
}, 90_000);

test("a frozen runner that names no bot is replaced; its bots are moved, no crash counted; the other owner's runner stays", async () => {
  const [a1, a2, b1] = bots;
  const frozen = p.t.ctx.bots.state(a1!.tokenId).pid!;
  const other = p.t.ctx.bots.state(b1!.tokenId).pid!;
  process.kill(frozen, "SIGSTOP");
  await until(() => [a1!, a2!].every((b) => p.t.ctx.bots.state(b.tokenId).status === "running" && ![null, frozen].includes(p.t.ctx.bots.state(b.tokenId).pid)), "alice's bots in a new runner", 30_000);
  for (const [i, b] of bots.entries()) expect(await ask(b, { id: 14300 + i, first_name: "Cat" })).toBe("hello Cat");
  expect(p.t.ctx.bots.state(b1!.tokenId).pid).toBe(other);
  for (const b of [a1!, a2!]) {
    const [now, before] = await launchesOf(b);
    expect(now!.status).toBe("running");
    expect([before!.status, before!.errorMessage]).toEqual(["stopped", expect.stringContaining("no bot to name")]);
  }
  for (const b of bots) expect((await act(p, b, "stop")).body.status).toBe("stopped");
}, 60_000);
