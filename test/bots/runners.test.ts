// Shared runners (BOT_ISOLATION=runner, the default) with real processes on the fake messenger:
// bots of one owner share one runner, another owner's bots never do; each bot keeps its own logs,
// launches, environment and stop/restart; no token is written to disk; a killed runner's bots come
// back. Faults: a bot whose every update fails, one that blocks its runner (a long query), one that
// allocates without bound — each is named in its own log, gets a runner of its own, and the other
// bots keep answering (replies to them are counted during the fault).
// Process mode keeps its own tests: runtime.test.ts, races.test.ts, escape.test.ts.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startFakeMessenger, type FakeBot, type FakeMessenger, type FakeUser } from "../support/fake-messenger";
import { loginAs, type TestApp } from "../support/app";
import { until } from "../support/process";
import { addBot, startRunnerPlatform, type RunnerPlatform, type TestBot } from "./runner-platform";

let fake: FakeMessenger;
let t: TestApp;
let alice: string;
let bob: string;
const user: FakeUser = { id: 6001, first_name: "Uma" };


const pool = () => apps.at(-1)!.pool();
const pidOf = (tokenId: number) => t.ctx.bots.state(tokenId).pid;

/** A bot of its own project; `env` becomes its env variables (plain: a secret one never reaches a message, docs/security.md). */
async function newBot(cookie: string, name: string, env: Record<string, string> = {}) {
  const b = await addBot(apps.at(-1)!, cookie, name);
  for (const [key, value] of Object.entries(env)) expect((await t.call("POST", `/api/bot/tokens/${b.tokenId}/env`, { cookie, json: { key, value, isSecret: 0 } })).status).toBe(201);
  return b;
}

async function start(b: TestBot) {
  const r = await t.call("POST", `/api/bot/tokens/${b.tokenId}/start`, { cookie: b.cookie });
  expect([r.status, r.text]).toEqual([200, r.text]);
  await until(() => fake.calls(b.bot.token, "getUpdates").length > 0, `${b.bot.username} to poll`);
}

async function ask(bot: FakeBot, text: string, from = user, timeoutMs = 15_000) {
  fake.sendText(bot.token, from, text);
  return (await fake.waitForSent(bot.token, from.id, 1, timeoutMs))[0]!.params.text as string;
}

async function logText(b: TestBot) {
  return JSON.stringify((await t.call("GET", `/api/projects/${b.projectId}/logs/all?limit=1000`, { cookie: b.cookie })).body);
}

async function untilLogged(b: TestBot, text: string, timeoutMs = 15_000) {
  await until(async () => (await logText(b)).includes(text), `"${text}" in the log of ${b.bot.username}`, timeoutMs);
}

/** Asks each bot /start over and over until `stop` resolves; counts the replies. */
async function keepAsking(bots: TestBot[], stop: Promise<unknown>) {
  let done = false;
  void stop.finally(() => (done = true));
  const replies = new Map<number, number>(bots.map((b) => [b.tokenId, 0]));
  await Promise.all(
    bots.map(async (b, i) => {
      const from = { id: 7000 + i, first_name: "Kim" };
      while (!done) {
        try {
          if ((await ask(b.bot, "/start", from, 2000)) === "hello Kim") replies.set(b.tokenId, replies.get(b.tokenId)! + 1);
        } catch {
          // no answer within 2 s: counted as none
        }
      }
    }),
  );
  return replies;
}

const apps: RunnerPlatform[] = [];

/** A platform listening on loopback; `t`, `alice` and `bob` point at the newest. */
async function platform(env: Record<string, string>) {
  apps.push(await startRunnerPlatform({ fake, env }));
  t = apps.at(-1)!.t;
  alice = await loginAs(t, 301);
  bob = await loginAs(t, 302);
}

beforeAll(async () => {
  fake = await startFakeMessenger();
  // Blocking is caught after 2 s here; the memory test has a platform of its own (below), where a
  // bot growing fast is not first caught blocking.
  await platform({ BOT_RUNNER_BLOCK_SECONDS: "2", BOT_RUNNER_MEMORY_MB: "1024" });
});

afterAll(async () => {
  for (const a of apps) await a.close();
  await fake.stop();
});

describe("shared runners", () => {
  let a1: TestBot;
  let a2: TestBot;
  let b1: TestBot;

  test("one owner's bots share one runner, another owner's run in another; env, logs and launches stay per bot; no token on disk", async () => {
    a1 = await newBot(alice, "AliceOne", { SHARED_NAME: "alice-secret-value-1" });
    a2 = await newBot(alice, "AliceTwo");
    b1 = await newBot(bob, "BobOne", { SHARED_NAME: "bob-secret-value-22" });
    // A folder left from BOT_ISOLATION=process (it holds the token in .env) goes when the bot starts in a runner.
    const oldFolder = join(t.ctx.config.botsDir, `aliceone_${a1.projectId}_${a1.tokenId}`);
    mkdirSync(oldFolder, { recursive: true });
    writeFileSync(join(oldFolder, ".env"), `BOT_TOKEN="${a1.bot.token}"\n`);
    for (const b of [a1, a2, b1]) await start(b);
    expect(existsSync(oldFolder)).toBe(false);
    expect(pidOf(a1.tokenId)).toBe(pidOf(a2.tokenId)!);
    expect(pidOf(b1.tokenId)).not.toBe(pidOf(a1.tokenId)!);
    expect(pool().processes.sort()).toEqual([pidOf(a1.tokenId)!, pidOf(b1.tokenId)!].sort());

    expect(await ask(a1.bot, "/start")).toBe("hello Uma");
    expect(await ask(a2.bot, "/start")).toBe("hello Uma");
    // Each bot reads its own variables only.
    expect(await ask(a1.bot, "/env")).toBe("env=[alice-secret-value-1]");
    expect(await ask(a2.bot, "/env")).toBe("env=[]"); // a variable nobody set is empty
    expect(await ask(b1.bot, "/env")).toBe("env=[bob-secret-value-22]");

    // The runner's own environment carries no token and no variable of any bot.
    const environ = readFileSync(`/proc/${pidOf(a1.tokenId)}/environ`, "utf8");
    for (const secret of [a1.bot.token, a2.bot.token, "alice-secret-value-1", t.ctx.config.sessionSecret]) expect(environ).not.toContain(secret);
    // Nothing under BOTS_DIR holds a token: bots of a runner get theirs through its pipe.
    const files = (dir: string): string[] => readdirSync(dir).flatMap((n) => (statSync(join(dir, n)).isDirectory() ? (n === "node_modules" ? [] : files(join(dir, n))) : [join(dir, n)]));
    const onDisk = files(t.ctx.config.botsDir).map((f) => readFileSync(f, "utf8")).join("\n");
    expect(onDisk).toContain("createBot");
    for (const b of [a1, a2, b1]) expect(onDisk).not.toContain(b.bot.token);

    await untilLogged(a1, "bot started @aliceone_bot");
    const log1 = await logText(a1);
    expect(log1).not.toContain("alicetwo_bot");
    expect(log1).not.toContain(a1.bot.token);
    const launches = await t.call("GET", `/api/projects/${a1.projectId}/launches/all`, { cookie: alice });
    expect(launches.body[0]).toMatchObject({ status: "running", stoppedAt: null });
  }, 60_000);

  test("a webhook bot in the owner's runner: registered once it listens, answers through the intake, restarts and stops", async () => {
    const hooked = await newBot(alice, "AliceHook");
    expect((await t.call("PATCH", `/api/bot/tokens/${hooked.tokenId}`, { cookie: alice, json: { launchMode: "webhook" } })).status).toBe(200);
    expect((await t.call("POST", `/api/bot/tokens/${hooked.tokenId}/start`, { cookie: alice })).status).toBe(200);
    expect(pidOf(hooked.tokenId)).toBe(pidOf(a1.tokenId)!);
    const hook = fake.webhookOf(hooked.bot.token)!;
    expect(hook.url).toEndWith(`/api/webhook/${hooked.projectId}/${hooked.tokenId}`);
    expect(await ask(hooked.bot, "/start")).toBe("hello Uma");
    expect((await t.call("POST", `/api/bot/tokens/${hooked.tokenId}/restart`, { cookie: alice })).status).toBe(200);
    expect(await ask(hooked.bot, "/start")).toBe("hello Uma");
    expect((await t.call("POST", `/api/bot/tokens/${hooked.tokenId}/stop`, { cookie: alice })).body.status).toBe("stopped");
    expect(fake.webhookOf(hooked.bot.token)).toBeNull();
    expect(await ask(a1.bot, "/start")).toBe("hello Uma");
  }, 60_000);

  test("a bot stops and restarts alone; its runner and the other bot go on", async () => {
    const runner = pidOf(a1.tokenId);
    expect((await t.call("POST", `/api/bot/tokens/${a2.tokenId}/stop`, { cookie: alice })).body.status).toBe("stopped");
    expect(await ask(a1.bot, "/start")).toBe("hello Uma");
    const calls = fake.calls(a2.bot.token).length;
    fake.sendText(a2.bot.token, user, "/start");
    await Bun.sleep(500);
    expect(fake.calls(a2.bot.token).filter((c) => c.method === "sendMessage").length).toBe(fake.calls(a2.bot.token).slice(0, calls).filter((c) => c.method === "sendMessage").length);
    expect((await t.call("POST", `/api/bot/tokens/${a2.tokenId}/start`, { cookie: alice })).status).toBe(200);
    expect(await ask(a2.bot, "/start", user)).toBe("hello Uma"); // the message sent while it was stopped, answered now
    expect((await t.call("POST", `/api/bot/tokens/${a1.tokenId}/restart`, { cookie: alice })).status).toBe(200);
    expect(pidOf(a1.tokenId)).toBe(runner!);
    expect(await ask(a1.bot, "/start")).toBe("hello Uma");
    const launches = await t.call("GET", `/api/projects/${a1.projectId}/launches/all`, { cookie: alice });
    expect(launches.body.map((l: any) => l.status)).toEqual(["running", "stopped"]);
  }, 60_000);

  test("a killed runner's bots are restarted (each counted as a crash)", async () => {
    const old = pidOf(a1.tokenId)!;
    process.kill(old, "SIGKILL");
    await until(() => {
      const s = t.ctx.bots.state(a1.tokenId);
      return s.status === "running" && s.pid !== old && t.ctx.bots.state(a2.tokenId).pid === s.pid;
    }, "both bots back in a new runner");
    expect(await ask(a1.bot, "/start")).toBe("hello Uma");
    expect(await ask(a2.bot, "/start")).toBe("hello Uma");
    const launches = await t.call("GET", `/api/projects/${a2.projectId}/launches/all`, { cookie: alice });
    expect(launches.body[1]).toMatchObject({ status: "error" });
    expect(launches.body[1].errorMessage).toContain("its runner exited");
    expect(() => process.kill(old, 0)).toThrow();
  }, 60_000);

  test("a bot whose every update fails at the messenger: its errors are in its own log, its neighbour answers", async () => {
    for (let i = 0; i < 5; i++) fake.failNext(a2.bot.token, "sendMessage", { error_code: 400, description: "Bad Request: injected failure" });
    for (let i = 0; i < 5; i++) fake.sendText(a2.bot.token, { id: 7100 + i, first_name: "Fay" }, "/start");
    expect(await ask(a1.bot, "/start")).toBe("hello Uma");
    await untilLogged(a2, "injected failure");
    expect(await logText(a1)).not.toContain("injected failure");
    expect(t.ctx.bots.state(a2.tokenId).status).toBe("running");
    expect(await ask(a2.bot, "/start")).toBe("hello Uma");
  }, 60_000);

  test("a bot that blocks its runner is named in its log and isolated; the others are moved and keep answering", async () => {
    const shared = pidOf(a1.tokenId)!;
    const blocked = (async () => {
      fake.sendText(a2.bot.token, user, "/block");
      await untilLogged(a2, "blocked its runner's event loop", 20_000);
    })();
    const replies = await keepAsking([a1, b1], blocked);
    // Bob's bots never shared the runner: they answered all along. Alice's other bot was moved.
    expect(replies.get(b1.tokenId)!).toBeGreaterThan(0);
    await until(() => t.ctx.bots.state(a1.tokenId).status === "running" && pidOf(a1.tokenId) !== shared, "a1 moved to a new runner");
    expect(await ask(a1.bot, "/start")).toBe("hello Uma");
    await untilLogged(a1, "was moved to another runner");
    // The blocking bot runs alone from now on (its redelivered update blocks only itself).
    await until(() => pidOf(a2.tokenId) !== null && pidOf(a2.tokenId) !== pidOf(a1.tokenId) || t.ctx.bots.state(a2.tokenId).status === "error", "a2 alone or given up");
    const launches = await t.call("GET", `/api/projects/${a2.projectId}/launches/all`, { cookie: alice });
    expect(launches.body.find((l: any) => l.status === "error")?.errorMessage).toContain("blocked its runner's event loop");
    const a1Launches = await t.call("GET", `/api/projects/${a1.projectId}/launches/all`, { cookie: alice });
    expect(a1Launches.body.some((l: any) => l.status === "error" && /blocked/.test(l.errorMessage ?? ""))).toBe(false);
    expect(t.logs.join("\n")).toContain(`bot of token ${a2.tokenId} blocked its runner's event loop`);
    await t.call("POST", `/api/bot/tokens/${a2.tokenId}/stop`, { cookie: alice });
    console.log(`replies during the block: bob's bot ${replies.get(b1.tokenId)}, alice's moved bot ${replies.get(a1.tokenId)}`);
  }, 90_000);

  test("server shutdown stops every bot and ends the runners; no runner is left", async () => {
    const pids = pool().processes;
    expect(pids.length).toBeGreaterThan(0);
    await t.ctx.bots.shutdown();
    for (const pid of pids) expect(() => process.kill(pid, 0)).toThrow();
    expect(t.ctx.bots.state(a1.tokenId).status).toBe("stopped");
  }, 30_000);
});

describe("shared runners: memory", () => {
  test("a bot that allocates without bound recycles its runner, is named and isolated; the others keep answering", async () => {
    await platform({ BOT_RUNNER_BLOCK_SECONDS: "60", BOT_RUNNER_MEMORY_MB: "400" });
    const a1 = await newBot(alice, "AliceAgain");
    const b1 = await newBot(bob, "BobAgain");
    const b2 = await newBot(bob, "BobGrow");
    await start(a1);
    await start(b1);
    await start(b2);
    const shared = pidOf(b2.tokenId)!;
    expect(pidOf(b1.tokenId)).toBe(shared);
    const grown = (async () => {
      fake.sendText(b2.bot.token, user, "/grow");
      await untilLogged(b2, "its runner's memory reached", 30_000);
    })();
    const replies = await keepAsking([a1, b1], grown);
    expect(replies.get(a1.tokenId)!).toBeGreaterThan(0);
    await until(() => t.ctx.bots.state(b1.tokenId).status === "running" && pidOf(b1.tokenId) !== shared, "b1 moved to a new runner");
    expect(await ask(b1.bot, "/start")).toBe("hello Uma");
    expect(t.logs.join("\n")).toContain(`bot of token ${b2.tokenId} was running when its runner's memory reached`);
    await t.call("POST", `/api/bot/tokens/${b2.tokenId}/stop`, { cookie: bob });
    console.log(`replies during the memory fault: alice's bot ${replies.get(a1.tokenId)}, bob's moved bot ${replies.get(b1.tokenId)}`);
  }, 90_000);

});
