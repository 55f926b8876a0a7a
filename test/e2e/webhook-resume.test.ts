// After an unclean server stop the messenger keeps posting to the webhook. Updates that reach the
// restarted server before the bot is back must wait for it, not be answered 200 and lost.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { greeterScenario } from "../bots/scenario-fixture";
import { startFakeMessenger, type FakeMessenger } from "../support/fake-messenger";
import { buildBinary, firstHealth, freePort, spawnServer, startProcessServer, until, type ProcessServer } from "../support/process";

const ADMIN_KEY = "resume-admin-key-0123456789";
let fake: FakeMessenger;
let binary: string;
let dir: string;
let port: number;
const servers: ProcessServer[] = [];
const user = { id: 5150, first_name: "Ada" };
/** The webhook bot the first test sets up; the second restarts the server under it again. */
let hook: { projectId: number; tokenId: number; token: string } | null = null;

beforeAll(async () => {
  // Like the real messenger, keep retrying a webhook for a while when the server is down.
  fake = await startFakeMessenger({ webhookTimeoutMs: 20_000, webhookRetryDelaysMs: [300, 600, 1200, 2400, 4800] });
  binary = await buildBinary(resolve(import.meta.dir, "../.."));
  dir = mkdtempSync(join(tmpdir(), "botloom-webhook-resume-"));
  port = await freePort();
}, 120_000);

afterAll(async () => {
  for (const s of servers) await s.stop("SIGKILL");
  await fake.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function start() {
  const env = { ADMIN_KEY, SESSION_SECRET: "resume-session-secret-0123456789", MESSENGER_API_ROOT: fake.url, WEBHOOK_BASE_URL: `http://127.0.0.1:${port}` };
  const s = await startProcessServer([binary, "serve"], { cwd: dir, env, port });
  servers.push(s);
  return s;
}

test("an update posted while the server restarts is handled once the bot is back", async () => {
  const s1 = await start();
  const login = await fetch(`${s1.url}/admin/api/login`, { method: "POST", body: new URLSearchParams({ key: ADMIN_KEY }), redirect: "manual" });
  const admin = login.headers.getSetCookie()[0].split(";")[0];
  await fetch(`${s1.url}/admin/api/app-settings`, { method: "PUT", headers: { cookie: admin, "content-type": "application/json" }, body: JSON.stringify({ auth: { loginMode: "dev_login" } }) });
  const dev = await fetch(`${s1.url}/api/auth/dev-login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ userId: 1 }) });
  const cookie = dev.headers.getSetCookie()[0].split(";")[0];
  const json = { cookie, "content-type": "application/json" };
  const project = await (await fetch(`${s1.url}/api/projects`, { method: "POST", headers: json, body: JSON.stringify({ name: "Hooked", data: greeterScenario }) })).json();
  const bot = fake.addBot();
  const token = await (await fetch(`${s1.url}/api/bot/projects/${project.id}/tokens`, { method: "POST", headers: json, body: JSON.stringify({ token: bot.token }) })).json();
  const patch = await fetch(`${s1.url}/api/bot/tokens/${token.id}`, { method: "PATCH", headers: json, body: JSON.stringify({ launchMode: "webhook" }) });
  expect(patch.status).toBe(200);
  expect((await fetch(`${s1.url}/api/bot/tokens/${token.id}/start`, { method: "POST", headers: { cookie } })).status).toBe(200);
  expect(fake.webhookOf(bot.token)?.url).toBe(`http://127.0.0.1:${port}/api/webhook/${project.id}/${token.id}`);
  fake.sendText(bot.token, user, "/start");
  expect((await fake.waitForSent(bot.token, user.id, 1, 15_000))[0].params.text).toBe("Привет, Ada!");

  // The bot's reply is recorded before the webhook answer reaches the messenger: let that answer arrive.
  await fake.waitForConfirmed(bot.token);
  await s1.stop("SIGKILL"); // the webhook stays registered at the messenger
  fake.sendText(bot.token, user, "дальше"); // delivery fails now and is retried
  const webhookError = async () => ((await (await fetch(`${fake.url}/bot${bot.token}/getWebhookInfo`)).json()) as any).result.last_error_date;
  await until(webhookError, "a failed delivery of the update");
  await start();
  const [after] = await fake.waitForSent(bot.token, user.id, 1, 20_000);
  expect(after.params.text).toBe("Второй шаг");
  // as after /start: the next test's restart must not meet this update again
  await fake.waitForConfirmed(bot.token);
  hook = { projectId: project.id, tokenId: token.id, token: bot.token };
}, 90_000);

// The server answers health before its app has loaded (src/listener.ts) and holds other requests
// meanwhile: an update posted at that moment is held too, and must still wait for the bot's resume
// instead of being forwarded to a bot that is not started yet and lost.
test("an update posted at the first health answer after a restart reaches the bot", async () => {
  expect(hook).not.toBeNull();
  const { projectId, tokenId, token } = hook!;
  for (const s of servers) await s.stop("SIGKILL");
  fake.clear(token);
  const env = { ADMIN_KEY, SESSION_SECRET: "resume-session-secret-0123456789", MESSENGER_API_ROOT: fake.url, WEBHOOK_BASE_URL: `http://127.0.0.1:${port}` };
  const proc = spawnServer([binary, "serve"], { cwd: dir, port, env: { LOG_LEVEL: "warn", ...env }, output: "ignore" });
  try {
    await firstHealth(`http://127.0.0.1:${port}`, proc);
    const update = { update_id: 900_001, message: { message_id: 900_001, date: Math.floor(Date.now() / 1000), chat: { id: user.id, type: "private", first_name: user.first_name }, from: { ...user, is_bot: false }, text: "/start" } };
    // As the messenger posts it: with the secret the bot registered its webhook with.
    const secret = fake.webhookOf(token)?.secretToken;
    const headers: Record<string, string> = { "content-type": "application/json", ...(secret ? { "x-telegram-bot-api-secret-token": secret } : {}) };
    const posted = await fetch(`http://127.0.0.1:${port}/api/webhook/${projectId}/${tokenId}`, { method: "POST", headers, body: JSON.stringify(update) });
    expect(posted.status).toBe(200);
    const [reply] = await fake.waitForSent(token, user.id, 1, 20_000);
    expect(reply.params.text).toBe("Привет, Ada!");
  } finally {
    proc.kill("SIGKILL");
    await proc.exited;
  }
}, 60_000);
