// End-to-end: the platform runs real bot processes against the fake messenger. Polling and
// webhook mode, logs, launch history, bot users, stop/restart, crash restarts and give-up.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { createApp } from "../../src/app";
import type { BotManager } from "../../src/bots/manager";
import { startFakeMessenger, type FakeMessenger, type FakeUser } from "../support/fake-messenger";
import { createTestApp, loginAs, setUp, type TestApp } from "../support/app";
import { freePort, until } from "../support/process";
import { greeterScenario } from "./scenario-fixture";

let fake: FakeMessenger;
let t: TestApp;
let server: { stop: () => void };
let cookie: string;
let baseUrl: string;
const alice: FakeUser = { id: 5001, first_name: "Alice", username: "alice" };


async function newProjectWithToken(name: string, launchMode: "polling" | "webhook" = "polling") {
  const project = await t.call("POST", "/api/projects", { cookie, json: { name, data: greeterScenario } });
  expect(project.status).toBe(201);
  const bot = fake.addBot({ username: `${name.toLowerCase()}_bot`, firstName: name });
  const token = await t.call("POST", `/api/bot/projects/${project.body.id}/tokens`, { cookie, json: { token: bot.token } });
  expect(token.status).toBe(200);
  if (launchMode === "webhook") {
    const patch = await t.call("PATCH", `/api/bot/tokens/${token.body.id}`, { cookie, json: { launchMode: "webhook" } });
    expect(patch.status).toBe(200);
  }
  return { projectId: project.body.id as number, tokenId: token.body.id as number, bot };
}

beforeAll(async () => {
  fake = await startFakeMessenger();
  const port = await freePort();
  baseUrl = `http://127.0.0.1:${port}`;
  t = createTestApp({
    fileDb: true,
    env: { MESSENGER_API_ROOT: fake.url, WEBHOOK_BASE_URL: baseUrl, BOT_ISOLATION: "process" },
    botPolicy: { backoffBaseMs: 100, backoffCapMs: 400, crashLimit: 3, crashWindowMs: 60_000, stopGraceMs: 3000, listenTimeoutMs: 15_000 },
  });
  await setUp(t);
  const app = createApp(t.ctx).listen({ port, hostname: "127.0.0.1" });
  server = { stop: () => app.server?.stop(true) };
  cookie = await loginAs(t, 77);
});

afterAll(async () => {
  await t.ctx.bots.shutdown();
  server?.stop();
  await fake.stop();
  t.cleanup();
});

describe("bot runtime", () => {
  test("polling: start, a user talks to the bot, logs, launches, users and stats fill, stop", async () => {
    const { projectId, tokenId, bot } = await newProjectWithToken("Greeter");
    const started = await t.call("POST", `/api/bot/tokens/${tokenId}/start`, { cookie });
    expect(started.status).toBe(200);
    expect(started.body.status).toBe("running");
    expect(started.body.instance.status).toBe("running");
    expect(started.text).not.toContain(bot.token);

    // The bot folder holds the program and its environment (0600).
    const folder = join(t.ctx.config.botsDir, `greeter_${projectId}_${tokenId}`);
    expect(readFileSync(join(folder, "bot.ts"), "utf8")).toContain('from "grammy"');
    expect(readFileSync(join(folder, ".env"), "utf8")).toContain(`TOKEN_ID="${tokenId}"`);
    expect(existsSync(join(t.ctx.config.botsDir, "node_modules", "grammy", "index.js"))).toBe(true);

    fake.sendText(bot.token, alice, "/start");
    const [hello] = await fake.waitForSent(bot.token, alice.id, 1, 15_000);
    expect(hello.params.text).toBe("Привет, Alice!");
    expect(hello.params.reply_markup.inline_keyboard[0][0].text).toBe("Дальше");
    fake.pressButton(bot.token, alice, hello.params.reply_markup.inline_keyboard[0][0].callback_data);
    const [second] = await fake.waitForSent(bot.token, alice.id, 1);
    expect(second.params.text).toBe("Второй шаг");
    expect(second.params.reply_markup.keyboard[0][0].text).toBe("Снова");
    fake.sendText(bot.token, alice, "дальше");
    expect((await fake.waitForSent(bot.token, alice.id, 1))[0].params.text).toBe("Второй шаг");

    const users = await until(async () => {
      const r = await t.call("GET", `/api/bot/tokens/${tokenId}/users`, { cookie });
      return r.body.count === 1 ? r : null;
    }, "the bot to record its user");
    expect(users.body.items[0]).toMatchObject({ userId: String(alice.id), firstName: "Alice", userName: "alice" });
    const stats = await t.call("GET", `/api/bot/tokens/${tokenId}/stats`, { cookie });
    expect(stats.body).toEqual({ total_users: 1, active_24h: 1, active_7d: 1, new_today: 1 });

    const status = await t.call("GET", `/api/bot/tokens/${tokenId}/status`, { cookie });
    expect(status.body.status).toBe("running");
    const list = await t.call("GET", `/api/bot/projects/${projectId}/tokens`, { cookie });
    expect(list.body.items[0].botStatus).not.toBe(undefined);

    const stopped = await t.call("POST", `/api/bot/tokens/${tokenId}/stop`, { cookie });
    expect(stopped.body.status).toBe("stopped");
    expect((await t.call("POST", `/api/bot/tokens/${tokenId}/stop`, { cookie })).status).toBe(200);

    const logs = await t.call("GET", `/api/projects/${projectId}/logs/all`, { cookie });
    expect(logs.body.length).toBeGreaterThan(0);
    expect(logs.body.some((l: any) => l.level === "stdout")).toBe(true);
    expect(logs.text).not.toContain(bot.token);
    const launches = await t.call("GET", `/api/projects/${projectId}/launches/all`, { cookie });
    expect(launches.body[0]).toMatchObject({ status: "stopped", errorMessage: null });
    expect(launches.body[0].stoppedAt).toBeString();
    const { logs: serverLogs } = t;
    expect(serverLogs.join("\n")).not.toContain(bot.token);
  }, 60_000);

  test("start twice is 409; the compat project endpoint answers 400 for it; restart works", async () => {
    const { projectId, tokenId, bot } = await newProjectWithToken("Twice");
    expect((await t.call("POST", `/api/bot/tokens/${tokenId}/start`, { cookie })).status).toBe(200);
    const again = await t.call("POST", `/api/bot/tokens/${tokenId}/start`, { cookie });
    expect(again.status).toBe(409);
    const compat = await t.call("POST", `/api/projects/${projectId}/bot/start`, { cookie, json: {} });
    expect(compat.status).toBe(400);
    const restart = await t.call("POST", `/api/projects/${projectId}/bot/restart`, { cookie, json: { tokenId: `token_${tokenId}` } });
    expect(restart.status).toBe(200);
    expect(restart.body).toEqual({ message: "Bot restarted", tokenId, status: "running" });
    fake.sendText(bot.token, alice, "/start");
    expect((await fake.waitForSent(bot.token, alice.id, 1, 15_000))[0].params.text).toBe("Привет, Alice!");
    const stop = await t.call("POST", `/api/projects/${projectId}/bot/stop`, { cookie });
    expect(stop.body).toEqual({ message: "Bot stopped", tokenId, status: "stopped" });
    const launches = await t.call("GET", `/api/projects/${projectId}/launches/all`, { cookie });
    expect(launches.body).toHaveLength(2);
  }, 60_000);

  test("webhook mode: the platform registers the webhook and forwards updates with the secret", async () => {
    const { projectId, tokenId, bot } = await newProjectWithToken("Hooked", "webhook");
    const started = await t.call("POST", `/api/bot/tokens/${tokenId}/start`, { cookie });
    expect(started.status).toBe(200);
    const hook = fake.webhookOf(bot.token)!;
    expect(hook.url).toBe(`${baseUrl}/api/webhook/${projectId}/${tokenId}`);
    expect(hook.secretToken).toMatch(/^[A-Za-z0-9_-]{32,256}$/);
    fake.sendText(bot.token, alice, "/start");
    const [hello] = await fake.waitForSent(bot.token, alice.id, 1, 15_000);
    expect(hello.params.text).toBe("Привет, Alice!");
    // The intake refuses a missing or wrong secret, and never reaches the bot then.
    const update = JSON.stringify({ update_id: 1, message: { message_id: 1, date: 0, chat: { id: 1, type: "private" }, text: "/start" } });
    expect((await fetch(`${baseUrl}/api/webhook/${projectId}/${tokenId}`, { method: "POST", body: update })).status).toBe(401);
    expect((await fetch(`${baseUrl}/api/webhook/${projectId}/${tokenId}`, { method: "POST", body: update, headers: { "x-telegram-bot-api-secret-token": "nope" } })).status).toBe(401);
    expect((await fetch(`${baseUrl}/api/webhook/x/${tokenId}`, { method: "POST", body: update })).status).toBe(400);
    // A restart registers the webhook again; a stop removes it, so updates wait at the messenger.
    expect((await t.call("POST", `/api/bot/tokens/${tokenId}/restart`, { cookie })).status).toBe(200);
    expect(fake.webhookOf(bot.token)?.url).toBe(hook.url);
    fake.sendText(bot.token, alice, "/start");
    expect((await fake.waitForSent(bot.token, alice.id, 1, 15_000))[0].params.text).toBe("Привет, Alice!");
    await t.call("POST", `/api/bot/tokens/${tokenId}/stop`, { cookie });
    expect(fake.webhookOf(bot.token)).toBeNull();
    // Forwarding to a stopped bot is answered 200 so the messenger does not redeliver.
    const res = await fetch(`${baseUrl}/api/webhook/${projectId}/${tokenId}`, { method: "POST", body: update, headers: { "x-telegram-bot-api-secret-token": hook.secretToken! } });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("");
  }, 60_000);

  test("webhook mode without WEBHOOK_BASE_URL is a clear 400", async () => {
    const other = createTestApp({ env: { MESSENGER_API_ROOT: fake.url } });
    await setUp(other);
    const c = await loginAs(other, 1);
    const p = await other.call("POST", "/api/projects", { cookie: c, json: { name: "NoHook", data: greeterScenario } });
    const bot = fake.addBot();
    const tok = await other.call("POST", `/api/bot/projects/${p.body.id}/tokens`, { cookie: c, json: { token: bot.token } });
    await other.call("PATCH", `/api/bot/tokens/${tok.body.id}`, { cookie: c, json: { launchMode: "webhook" } });
    const res = await other.call("POST", `/api/bot/tokens/${tok.body.id}/start`, { cookie: c });
    expect(res.status).toBe(400);
    expect(res.body.message).toContain("WEBHOOK_BASE_URL");
    other.cleanup();
  });

  test("a killed bot is restarted; a bot that keeps crashing ends in error with the reason", async () => {
    const { projectId, tokenId, bot } = await newProjectWithToken("Phoenix");
    await t.call("POST", `/api/bot/tokens/${tokenId}/start`, { cookie });
    const manager = t.ctx.bots as BotManager;
    const firstPid = manager.state(tokenId).pid!;
    process.kill(firstPid, "SIGKILL");
    const secondPid = await until(() => {
      const s = manager.state(tokenId);
      return s.status === "running" && s.pid !== firstPid ? s.pid : null;
    }, "the restart");
    fake.sendText(bot.token, alice, "/start");
    expect((await fake.waitForSent(bot.token, alice.id, 1, 15_000))[0].params.text).toBe("Привет, Alice!");

    // Now make every start crash: the bot's own getMe is refused each time (queued failures), while
    // the platform's checks still pass — a crash loop the manager must end.
    for (let i = 0; i < 10; i++) fake.failNext(bot.token, "getMe", { error_code: 401, description: "Unauthorized" });
    process.kill(secondPid, "SIGKILL");
    await until(() => manager.state(tokenId).status === "error", "give-up", 20_000);
    const status = await t.call("GET", `/api/bot/tokens/${tokenId}/status`, { cookie });
    expect(status.body.status).toBe("error");
    const launches = await t.call("GET", `/api/projects/${projectId}/launches/all`, { cookie });
    expect(launches.body[0].status).toBe("error");
    expect(launches.body[0].errorMessage).toContain("gave up");
    expect(launches.body[0].errorMessage.length).toBeLessThanOrEqual(100);
    // The reason goes into the last crashed launch itself: every row is a real process.
    const rows = t.ctx.db.$client.query("select pid from bot_launches where token_id = ?").all(tokenId) as { pid: number | null }[];
    expect(rows.every((r) => r.pid !== null)).toBe(true);
  }, 60_000);

  test("a revoked token is a clear 400 at start, not a crash loop", async () => {
    const { tokenId, bot } = await newProjectWithToken("Revoked");
    fake.removeBot(bot.token);
    const res = await t.call("POST", `/api/bot/tokens/${tokenId}/start`, { cookie });
    expect(res.status).toBe(400);
    expect(res.body.message).toContain("rejected this bot token");
    expect(res.text).not.toContain(bot.token);
    expect((t.ctx.bots as BotManager).state(tokenId).status).not.toBe("running");
  });

  test("a data change with restartOnUpdate restarts the running bot with the new scenario", async () => {
    const { projectId, tokenId, bot } = await newProjectWithToken("Editable");
    await t.call("POST", `/api/bot/tokens/${tokenId}/start`, { cookie });
    const manager = t.ctx.bots as BotManager;
    const pid = manager.state(tokenId).pid;
    const data = structuredClone(greeterScenario);
    data.sheets[0].nodes[0].data.messageText = "Здравствуйте, {first_name}!";
    const put = await t.call("PUT", `/api/projects/${projectId}`, { cookie, json: { data, restartOnUpdate: true } });
    expect(put.status).toBe(200);
    await until(() => {
      const s = manager.state(tokenId);
      return s.status === "running" && s.pid !== pid;
    }, "the restart after the update");
    fake.sendText(bot.token, alice, "/start");
    expect((await fake.waitForSent(bot.token, alice.id, 1, 15_000))[0].params.text).toBe("Здравствуйте, Alice!");
    // Without the flag the running bot is left alone.
    const pid2 = manager.state(tokenId).pid;
    data.sheets[0].nodes[0].data.messageText = "Третий текст";
    await t.call("PUT", `/api/projects/${projectId}`, { cookie, json: { data } });
    await Bun.sleep(300);
    expect(manager.state(tokenId).pid).toBe(pid2);
    await t.call("POST", `/api/bot/tokens/${tokenId}/stop`, { cookie });
  }, 60_000);

  test("one bot token has one poller: the same token in another project cannot start", async () => {
    const first = await newProjectWithToken("Owner");
    const other = await t.call("POST", "/api/projects", { cookie, json: { name: "Thief", data: greeterScenario } });
    const dup = await t.call("POST", `/api/bot/projects/${other.body.id}/tokens`, { cookie, json: { token: first.bot.token } });
    expect(dup.status).toBe(200);
    expect((await t.call("POST", `/api/bot/tokens/${first.tokenId}/start`, { cookie })).status).toBe(200);
    const res = await t.call("POST", `/api/bot/tokens/${dup.body.id}/start`, { cookie });
    expect(res.status).toBe(409);
    expect(res.body.message).toContain("already running");
    await t.call("POST", `/api/bot/tokens/${first.tokenId}/stop`, { cookie });
    expect((await t.call("POST", `/api/bot/tokens/${dup.body.id}/start`, { cookie })).status).toBe(200);
    await t.call("POST", `/api/bot/tokens/${dup.body.id}/stop`, { cookie });
  }, 60_000);

  test("lifecycle endpoints: credentials, access and ids", async () => {
    const { projectId, tokenId } = await newProjectWithToken("Guarded");
    expect((await t.call("POST", `/api/bot/tokens/${tokenId}/start`)).status).toBe(401);
    const stranger = await loginAs(t, 999);
    expect((await t.call("POST", `/api/bot/tokens/${tokenId}/start`, { cookie: stranger })).status).toBe(403);
    expect((await t.call("POST", `/api/projects/${projectId}/bot/start`, { cookie: stranger, json: {} })).status).toBe(403);
    expect((await t.call("POST", `/api/bot/tokens/abc/start`, { cookie })).status).toBe(400);
    expect((await t.call("POST", `/api/bot/tokens/999999/start`, { cookie })).status).toBe(404);
    expect((await t.call("POST", `/api/projects/${projectId}/bot/start`, { cookie, json: { tokenId: 999999 } })).status).toBe(404);
    const empty = await t.call("POST", "/api/projects", { cookie, json: { name: "Tokenless" } });
    const none = await t.call("POST", `/api/projects/${empty.body.id}/bot/start`, { cookie, json: {} });
    expect(none.status).toBe(400);
    expect(none.body.message).toContain("no bot token");
  });

  test("deleting a project stops its bots first", async () => {
    const { projectId, tokenId } = await newProjectWithToken("Doomed");
    await t.call("POST", `/api/bot/tokens/${tokenId}/start`, { cookie });
    const pid = (t.ctx.bots as BotManager).state(tokenId).pid!;
    expect((await t.call("DELETE", `/api/projects/${projectId}`, { cookie })).status).toBe(200);
    expect((t.ctx.bots as BotManager).state(tokenId).status).toBe("stopped");
    expect(() => process.kill(pid, 0)).toThrow();
  }, 60_000);
});
