// kill -9 of the server while a shared runner is blocked (a scenario query running for minutes):
// a runner notices its platform is gone when its stdin closes, but a blocked event loop reads
// nothing. The runner must not outlive the server anyway. Real processes: the server from source
// (`bun src/main.ts serve`) on loopback, its runner, the fake messenger.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { faultScenario } from "./scenario-fixture";
import { startFakeMessenger, type FakeMessenger } from "../support/fake-messenger";
import { childPids, isAlive, startProcessServer, until, type ProcessServer } from "../support/process";

const ADMIN_KEY = "orphan-admin-key-0123456789";
let fake: FakeMessenger;
let dir: string;
let server: ProcessServer | undefined;
const runners: number[] = [];

beforeAll(async () => {
  fake = await startFakeMessenger();
  dir = mkdtempSync(join(tmpdir(), "botloom-orphan-"));
});

afterAll(async () => {
  await server?.stop("SIGKILL");
  for (const pid of runners) if (isAlive(pid)) process.kill(pid, "SIGKILL");
  await fake.stop();
  rmSync(dir, { recursive: true, force: true });
});

test("kill -9 of the server while its runner is blocked: the runner ends within seconds", async () => {
  // The platform's own block limit is far away: only the runner's side is under test.
  const env = { ADMIN_KEY, SESSION_SECRET: "orphan-session-secret-0123456789", MESSENGER_API_ROOT: fake.url, BOT_RUNNER_BLOCK_SECONDS: "120" };
  server = await startProcessServer([process.execPath, resolve(import.meta.dir, "../../src/main.ts"), "serve"], { cwd: dir, env, timeoutMs: 30_000 });
  const url = server.url;
  const login = await fetch(`${url}/admin/api/login`, { method: "POST", body: new URLSearchParams({ key: ADMIN_KEY }), redirect: "manual" });
  const admin = login.headers.getSetCookie()[0]!.split(";")[0]!;
  await fetch(`${url}/admin/api/app-settings`, { method: "PUT", headers: { cookie: admin, "content-type": "application/json" }, body: JSON.stringify({ auth: { loginMode: "dev_login" } }) });
  const dev = await fetch(`${url}/api/auth/dev-login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ userId: 1 }) });
  const cookie = dev.headers.getSetCookie()[0]!.split(";")[0]!;
  const post = (path: string, body?: unknown) => fetch(url + path, { method: "POST", headers: { cookie, "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });

  const project = await (await post("/api/projects", { name: "Blocker", data: faultScenario })).json();
  const bot = fake.addBot({ username: "blocker_bot" });
  const token = await (await post(`/api/bot/projects/${project.id}/tokens`, { token: bot.token })).json();
  expect((await post(`/api/bot/tokens/${token.id}/start`)).status).toBe(200);
  await until(() => fake.calls(bot.token, "getUpdates").length > 0, "the bot to poll");
  runners.push(...childPids(server.proc.pid, "main.ts").filter((pid) => pid !== server!.proc.pid));
  expect(runners.length).toBe(1);

  const user = { id: 6301, first_name: "Uma" };
  fake.sendText(bot.token, user, "/start");
  await fake.waitForSent(bot.token, user.id, 1, 15_000);
  fake.sendText(bot.token, user, "/block");
  await Bun.sleep(2500); // the query runs: the runner's event loop is blocked

  await server.stop("SIGKILL");
  await until(() => !isAlive(runners[0]!), "the blocked runner to end after its server died", 15_000);
}, 90_000);
