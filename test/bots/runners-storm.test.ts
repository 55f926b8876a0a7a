// Shared runners under a storm of operations (real processes, fake messenger): 200 bots of one
// owner started at once, restarted twice at once, stopped while they start, stopped all at once.
// No bot may be lost or run twice, every launch entry is closed, and state() tells the truth.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { botLaunches } from "../../src/db/schema";
import type { FakeMessenger } from "../support/fake-messenger";
import { loginAs, type TestApp } from "../support/app";
import { until } from "../support/process";
import { addBot, startRunnerPlatform, type RunnerPlatform, type TestBot } from "./runner-platform";

const COUNT = 200;
let p: RunnerPlatform;
let fake: FakeMessenger;
let t: TestApp;
let owner: string;
const bots: TestBot[] = [];

const pool = () => p.pool();
const scenario = {
  version: 2,
  sheets: [{ id: "s", name: "Main", edges: [], nodes: [{ id: "start", type: "start", position: { x: 0, y: 0 }, data: { command: "/start", messageText: "hello {first_name}" } }] }],
};
const act = (tokenId: number, what: "start" | "stop" | "restart") => t.call("POST", `/api/bot/tokens/${tokenId}/${what}`, { cookie: owner });

/** Each bot answers /start exactly once; returns the bots that did not. */
async function askAll(round: number) {
  const wrong: string[] = [];
  await Promise.all(
    bots.map(async (b, i) => {
      const from = { id: 20_000 + round * 1000 + i, first_name: "Kim" };
      fake.sendText(b.bot.token, from, "/start");
      try {
        await fake.waitForSent(b.bot.token, from.id, 1, 20_000);
      } catch {
        return void wrong.push(`${b.bot.username}: no answer`);
      }
      await Bun.sleep(300);
      const replies = fake.sent(b.bot.token, from.id).length;
      if (replies !== 1) wrong.push(`${b.bot.username}: ${replies} answers`);
    }),
  );
  return wrong;
}

const openLaunches = () => t.ctx.db.select().from(botLaunches).all().filter((l) => l.stoppedAt === null);

beforeAll(async () => {
  p = await startRunnerPlatform({ env: { BOT_RUNNERS: "2", BOT_RUNNER_CAPACITY: "60" }, policy: { stopGraceMs: 5000 } });
  ({ t, fake } = p);
  owner = await loginAs(t, 501);
  for (let i = 0; i < COUNT; i++) bots.push(await addBot(p, owner, `Storm${i}`, { data: scenario }));
}, 120_000);

afterAll(() => p.close());

describe(`shared runners: ${COUNT} bots of one owner`, () => {
  test("started at once: each runs once, in one of the owner's two runners", async () => {
    const started = await Promise.all(bots.map((b) => act(b.tokenId, "start")));
    expect(started.filter((r) => r.status !== 200).map((r) => r.text)).toEqual([]);
    const runners = pool().processes;
    expect(runners.length).toBe(2);
    for (const b of bots) expect(runners).toContain(t.ctx.bots.state(b.tokenId).pid!);
    expect(await askAll(0)).toEqual([]);
    expect(openLaunches().length).toBe(COUNT);
  }, 120_000);

  test("restarted twice at once, and stopped while starting: nothing lost, nothing twice, every launch closed", async () => {
    // Even bots: two restarts at once. Odd bots: a stop, a start and a stop at once (the last word is stop).
    // The manager directly: HTTP requests handled at once may reach it in any order.
    const m = t.ctx.bots;
    const failed: string[] = [];
    const ops = bots.flatMap((b, i) => (i % 2 === 0 ? [m.restart(b.tokenId), m.restart(b.tokenId)] : [m.stop(b.tokenId), m.start(b.tokenId), m.stop(b.tokenId)]));
    await Promise.all(ops.map((op) => op.catch((e: Error) => void failed.push(e.message))));
    expect(failed).toEqual([]);
    const states = bots.map((b, i) => [i % 2 === 0 ? "running" : "stopped", t.ctx.bots.state(b.tokenId).status]);
    expect(states.filter(([want, got]) => want !== got)).toEqual([]);
    // Stopped bots answer nothing; running ones exactly once.
    const running = bots.filter((_, i) => i % 2 === 0);
    const stopped = bots.filter((_, i) => i % 2 === 1);
    for (const b of stopped) fake.sendText(b.bot.token, { id: 30_001, first_name: "Ned" }, "/start");
    const all = bots.splice(0);
    bots.push(...running);
    expect(await askAll(1)).toEqual([]);
    bots.splice(0, bots.length, ...all);
    for (const b of stopped) expect(fake.sent(b.bot.token, 30_001).length).toBe(0);
    expect(openLaunches().map((l) => l.tokenId).sort()).toEqual(running.map((b) => b.tokenId).sort());
  }, 180_000);

  test("stopped all at once: every bot stopped, every launch closed, the runners end once idle", async () => {
    const stopped = await Promise.all(bots.map((b) => act(b.tokenId, "stop")));
    expect(stopped.filter((r) => r.status !== 200 || r.body.status !== "stopped").map((r) => r.text)).toEqual([]);
    expect(bots.filter((b) => t.ctx.bots.state(b.tokenId).status !== "stopped").length).toBe(0);
    expect(openLaunches()).toEqual([]);
    const pids = pool().processes;
    await until(() => pool().processes.length === 0, "idle runners to end", 20_000);
    for (const pid of pids) expect(() => process.kill(pid, 0)).toThrow();
  }, 120_000);
});
