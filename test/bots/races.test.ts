// Supervision under concurrency, with real bot processes: the same token started, stopped and
// restarted at once, a stop during a webhook start, a bot that dies while starting, a server
// shutdown while a crash restart is pending. After each, exactly the processes the manager
// reports are alive, and every launch row is closed with the right status.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readlinkSync } from "node:fs";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import type { BotManager } from "../../src/bots/manager";
import type { SupervisionPolicy } from "../../src/bots/policy";
import { folderName } from "../../src/bots/folders";
import { botLaunches, botTokens } from "../../src/db/schema";
import { startFakeMessenger, type FakeMessenger } from "../support/fake-messenger";
import { createTestApp, loginAs, setUp, type TestApp } from "../support/app";
import { childPids, until } from "../support/process";
import { greeterScenario } from "./scenario-fixture";

const POLICY: SupervisionPolicy = { backoffBaseMs: 100, backoffCapMs: 400, crashLimit: 3, crashWindowMs: 60_000, stopGraceMs: 3000, listenTimeoutMs: 15_000 };

let fake: FakeMessenger;
const apps: TestApp[] = [];

beforeAll(async () => {
  fake = await startFakeMessenger();
});

afterAll(async () => {
  for (const t of apps) {
    await t.ctx.bots.shutdown().catch(() => {});
    t.cleanup();
  }
  await fake.stop();
});

async function newApp(policy: Partial<SupervisionPolicy> = {}, env: Record<string, string> = {}) {
  const t = createTestApp({ fileDb: true, env: { MESSENGER_API_ROOT: fake.url, WEBHOOK_BASE_URL: "http://127.0.0.1:9", BOT_ISOLATION: "process", ...env }, botPolicy: { ...POLICY, ...policy } });
  apps.push(t);
  await setUp(t);
  const cookie = await loginAs(t, 31);
  return { t, cookie, manager: t.ctx.bots as BotManager };
}

async function newToken(t: TestApp, cookie: string, launchMode: "polling" | "webhook" = "polling") {
  const project = await t.call("POST", "/api/projects", { cookie, json: { name: "Racer", data: greeterScenario } });
  const bot = fake.addBot();
  const token = await t.call("POST", `/api/bot/projects/${project.body.id}/tokens`, { cookie, json: { token: bot.token } });
  if (launchMode === "webhook") await t.call("PATCH", `/api/bot/tokens/${token.body.id}`, { cookie, json: { launchMode } });
  const projectId = project.body.id as number;
  const tokenId = token.body.id as number;
  return { projectId, tokenId, bot, folder: join(t.ctx.config.botsDir, folderName("Racer", projectId, tokenId)) };
}

/** Live child processes of this test process running in `folder` (a bot's cwd is its folder). */
/** A running bot killed by hand, its crash restart scheduled 500 ms later (not yet run). */
async function crashedWithRestartPending() {
  const { t, cookie, manager } = await newApp({ backoffBaseMs: 500 });
  const { tokenId, folder } = await newToken(t, cookie);
  await manager.start(tokenId);
  process.kill(manager.state(tokenId).pid!, "SIGKILL");
  await until(() => manager.state(tokenId).status === "starting", "the restart to be scheduled");
  return { t, cookie, manager, tokenId, folder };
}

const botProcesses = (folder: string) => childPids(process.pid, (pid) => readlinkSync(`/proc/${pid}/cwd`) === folder);

const launchesOf = (t: TestApp, tokenId: number) => t.ctx.db.select().from(botLaunches).where(eq(botLaunches.tokenId, tokenId)).orderBy(botLaunches.id).all();
const tokenRow = (t: TestApp, tokenId: number) => t.ctx.db.select().from(botTokens).where(eq(botTokens.id, tokenId)).get()!;
const settled = <T>(p: Promise<T>) => p.then((v) => ({ ok: true as const, v }), (e) => ({ ok: false as const, e }));

/** Waits until no process runs in the folder except `expected` (bounded), then checks it. */
async function expectProcesses(folder: string, expected: (number | null)[]) {
  const want = expected.filter((p): p is number => p !== null).sort();
  await until(() => JSON.stringify(botProcesses(folder).sort()) === JSON.stringify(want), `processes in ${folder} to be ${want}`, 5000).catch(() => {});
  expect(botProcesses(folder).sort()).toEqual(want);
}

describe("the same token, concurrently", () => {
  test("two restarts at once leave one process, the one the manager reports", async () => {
    const { t, cookie, manager } = await newApp();
    const { tokenId, folder } = await newToken(t, cookie);
    await manager.start(tokenId);
    const results = await Promise.all([settled(manager.restart(tokenId)), settled(manager.restart(tokenId))]);
    expect(results.every((r) => r.ok)).toBe(true);
    const s = manager.state(tokenId);
    expect(s.status).toBe("running");
    await expectProcesses(folder, [s.pid]);
    await manager.stop(tokenId);
    await expectProcesses(folder, []);
    expect(launchesOf(t, tokenId).every((l) => l.stoppedAt !== null && l.status === "stopped")).toBe(true);
  }, 30_000);

  test("a stop right after a start (polling) leaves no process and a stopped token", async () => {
    const { t, cookie, manager } = await newApp();
    const { tokenId, folder } = await newToken(t, cookie);
    const [started, stopped] = await Promise.all([settled(manager.start(tokenId)), settled(manager.stop(tokenId))]);
    expect(stopped.ok).toBe(true);
    expect(started.ok).toBe(true);
    expect(manager.state(tokenId)).toEqual({ status: "stopped", startedAt: null, pid: null });
    await expectProcesses(folder, []);
    expect(tokenRow(t, tokenId)).toMatchObject({ status: "stopped", desiredState: "stopped" });
    expect(launchesOf(t, tokenId).every((l) => l.stoppedAt !== null && l.status === "stopped")).toBe(true);
  }, 30_000);

  test("a stop during a webhook start's port wait: the start answers, the bot ends stopped, no webhook left", async () => {
    const { t, cookie, manager } = await newApp();
    const { tokenId, folder, bot } = await newToken(t, cookie, "webhook");
    const start = settled(manager.start(tokenId));
    await until(() => manager.state(tokenId).pid, "the process to be spawned");
    const stop = await settled(manager.stop(tokenId));
    const started = await start;
    expect(stop.ok).toBe(true);
    // The start finished its work (200 running) before the stop ran: no 500 for a client that stopped its own start.
    expect(started.ok).toBe(true);
    expect(manager.state(tokenId).status).toBe("stopped");
    await expectProcesses(folder, []);
    expect(fake.webhookOf(bot.token)).toBeNull();
    expect(tokenRow(t, tokenId)).toMatchObject({ status: "stopped", desiredState: "stopped" });
    expect(launchesOf(t, tokenId).every((l) => l.stoppedAt !== null && l.status === "stopped")).toBe(true);
  }, 30_000);

  test("start and start at once: one wins, the other is refused (CONFLICT, answered 409), one process", async () => {
    const { t, cookie, manager } = await newApp();
    const { tokenId, folder } = await newToken(t, cookie);
    const results = await Promise.all([settled(manager.start(tokenId)), settled(manager.start(tokenId))]);
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.filter((r) => !r.ok).map((r) => (r as { e: { kind: string } }).e.kind)).toEqual(["CONFLICT"]);
    await expectProcesses(folder, [manager.state(tokenId).pid]);
    await manager.stop(tokenId);
    await expectProcesses(folder, []);
  }, 30_000);
});

describe("a bot that fails while starting", () => {
  test("webhook bot exits during start: the start fails, no restarts behind the answer, the reason is in the launch", async () => {
    const { t, cookie, manager } = await newApp();
    const { tokenId, folder, bot } = await newToken(t, cookie, "webhook");
    fake.removeBot(bot.token); // the bot's getMe fails: it prints why and exits 1
    const r = await settled(manager.start(tokenId));
    expect(r.ok).toBe(false);
    // Enough for several backoff rounds (100, 200 ms) had a restart been scheduled.
    await Bun.sleep(800);
    await expectProcesses(folder, []);
    expect(manager.state(tokenId).status).toBe("error");
    const launches = launchesOf(t, tokenId);
    expect(launches).toHaveLength(1);
    expect(launches[0]).toMatchObject({ status: "error" });
    expect(launches[0].stoppedAt).not.toBeNull();
    expect(launches[0].errorMessage).toContain("cannot start");
    expect(launches[0].errorMessage).not.toContain(bot.token);
    expect(tokenRow(t, tokenId)).toMatchObject({ status: "error", desiredState: "stopped" });
  }, 30_000);

  test("webhook bot that does not listen in time: the start fails, the process is ended, no restarts", async () => {
    const { t, cookie, manager } = await newApp({ listenTimeoutMs: 30 });
    const { tokenId, folder } = await newToken(t, cookie, "webhook");
    const r = await settled(manager.start(tokenId));
    expect(r.ok).toBe(false);
    await Bun.sleep(800);
    await expectProcesses(folder, []);
    expect(manager.state(tokenId).status).toBe("error");
    const launches = launchesOf(t, tokenId);
    expect(launches).toHaveLength(1);
    expect(launches[0]).toMatchObject({ status: "error" });
    expect(launches[0].errorMessage).toContain("did not listen");
  }, 30_000);

  test("MESSENGER_API_ROOT unreachable: polling answers running and stops cleanly; webhook fails after the listen wait", async () => {
    const { t, cookie, manager } = await newApp({ listenTimeoutMs: 1500 });
    const polling = await newToken(t, cookie);
    const hooked = await newToken(t, cookie, "webhook");
    // Bots (not the already validated tokens) talk to a closed port; grammY keeps retrying getMe.
    (t.ctx.config as { messengerApiRoot: string }).messengerApiRoot = "http://127.0.0.1:9";
    expect((await manager.start(polling.tokenId)).status).toBe("running");
    const pid = manager.state(polling.tokenId).pid;
    await Bun.sleep(500);
    expect(manager.state(polling.tokenId)).toMatchObject({ status: "running", pid });
    expect((await manager.stop(polling.tokenId)).status).toBe("stopped");
    await expectProcesses(polling.folder, []);
    expect(launchesOf(t, polling.tokenId).map((l) => l.status)).toEqual(["stopped"]);

    const r = await settled(manager.start(hooked.tokenId));
    expect(r.ok).toBe(false);
    await expectProcesses(hooked.folder, []);
    expect(manager.state(hooked.tokenId).status).toBe("error");
    expect(launchesOf(t, hooked.tokenId).map((l) => [l.status, l.errorMessage?.includes("did not listen")])).toEqual([["error", true]]);
  }, 30_000);
});

describe("server shutdown", () => {
  test("while a crash restart is pending: nothing is spawned afterwards, the bot stays wanted, launches closed", async () => {
    const { t, cookie, manager, tokenId, folder } = await crashedWithRestartPending();
    await manager.shutdown();
    await Bun.sleep(900);
    await expectProcesses(folder, []);
    expect(tokenRow(t, tokenId).desiredState).toBe("running");
    expect(launchesOf(t, tokenId).every((l) => l.stoppedAt !== null)).toBe(true);
    const after = await settled(manager.start(tokenId));
    expect(after.ok).toBe(false);
  }, 30_000);

  test("while a start is in flight: the started bot is stopped too and stays wanted", async () => {
    const { t, cookie, manager } = await newApp();
    const { tokenId, folder, bot } = await newToken(t, cookie, "webhook");
    const start = settled(manager.start(tokenId));
    await until(() => manager.state(tokenId).pid, "the process to be spawned");
    await manager.shutdown();
    expect(fake.webhookOf(bot.token)).toBeNull();
    expect((await start).ok).toBe(true);
    await expectProcesses(folder, []);
    expect(tokenRow(t, tokenId).desiredState).toBe("running");
    expect(launchesOf(t, tokenId).map((l) => [l.status, l.stoppedAt !== null])).toEqual([["stopped", true]]);
  }, 30_000);
});

describe("deletes while the bot runs or crashes", () => {
  test("the token deleted while a crash restart is pending: nothing comes back", async () => {
    const { t, cookie, manager, tokenId, folder } = await crashedWithRestartPending();
    expect((await t.call("DELETE", `/api/bot/tokens/${tokenId}`, { cookie })).status).toBe(200);
    await Bun.sleep(900);
    await expectProcesses(folder, []);
    expect(manager.state(tokenId).status).toBe("stopped");
  }, 30_000);

  test("the project deleted while its bot runs: process gone, no error from late log lines", async () => {
    const { t, cookie, manager } = await newApp();
    const { projectId, tokenId, folder } = await newToken(t, cookie);
    await manager.start(tokenId);
    expect((await t.call("DELETE", `/api/projects/${projectId}`, { cookie })).status).toBe(200);
    await expectProcesses(folder, []);
    expect(manager.state(tokenId).status).toBe("stopped");
    // In the trash the launch history stays (docs/api.md "Trash"); the purge takes it.
    expect(launchesOf(t, tokenId)).toHaveLength(1);
    await t.ctx.projects.purge(projectId);
    expect(launchesOf(t, tokenId)).toHaveLength(0);
  }, 30_000);
});

describe("a start racing a delete", () => {
  test("project delete with a start arriving meanwhile: no bot is left running for the deleted project", async () => {
    const { t, cookie, manager } = await newApp();
    const { projectId, tokenId, folder } = await newToken(t, cookie);
    await manager.start(tokenId);
    const [del, start] = await Promise.all([t.call("DELETE", `/api/projects/${projectId}`, { cookie }), t.call("POST", `/api/bot/tokens/${tokenId}/start`, { cookie })]);
    expect(del.status).toBe(200);
    expect([404, 409]).toContain(start.status);
    await expectProcesses(folder, []);
    expect(manager.state(tokenId).status).toBe("stopped");
  }, 30_000);

  test("token delete with a start arriving meanwhile: no bot is left running for the deleted token", async () => {
    const { t, cookie, manager } = await newApp();
    const { tokenId, folder } = await newToken(t, cookie);
    await manager.start(tokenId);
    const [del, start] = await Promise.all([t.call("DELETE", `/api/bot/tokens/${tokenId}`, { cookie }), t.call("POST", `/api/bot/tokens/${tokenId}/start`, { cookie })]);
    expect(del.status).toBe(200);
    expect([200, 404, 409]).toContain(start.status);
    await expectProcesses(folder, []);
    expect(manager.state(tokenId).status).toBe("stopped");
  }, 30_000);
});
