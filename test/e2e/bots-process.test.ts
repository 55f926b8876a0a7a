// The compiled binary, started in an empty folder, runs a bot; a restarted server brings its bots
// back; kill -9 of the server leaves no orphan bot process (bots exit when their stdin closes).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { startFakeMessenger, type FakeMessenger } from "../support/fake-messenger";
import { buildBinary, freePort, startProcessServer, type ProcessServer } from "../support/process";
import { greeterScenario } from "../bots/scenario-fixture";

const root = resolve(import.meta.dir, "../..");
const ADMIN_KEY = "e2e-admin-key-0123456789";
let fake: FakeMessenger;
let dir: string;
let binary: string;
let port: number;
const servers: ProcessServer[] = [];
const user = { id: 4242, first_name: "Eve" };

const env = () => ({ ADMIN_KEY, MESSENGER_API_ROOT: fake.url, SESSION_SECRET: "e2e-session-secret-0123456789" });
async function start() {
  const s = await startProcessServer([binary, "serve"], { cwd: dir, env: env(), port });
  servers.push(s);
  return s;
}

function alive(pid: number) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function until(fn: () => boolean | Promise<boolean>, what: string, ms = 15_000) {
  const end = Date.now() + ms;
  while (!(await fn())) {
    if (Date.now() > end) throw new Error(`timed out: ${what}`);
    await Bun.sleep(100);
  }
}

beforeAll(async () => {
  fake = await startFakeMessenger();
  binary = await buildBinary(root);
  dir = mkdtempSync(join(tmpdir(), "botloom-e2e-bots-"));
  port = await freePort();
}, 120_000);

afterAll(async () => {
  for (const s of servers) await s.stop("SIGKILL");
  await fake.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe("bots under the compiled binary", () => {
  let tokenId: number;
  let botToken: string;
  let cookie: string;
  let botPid: number;

  test("an empty folder: set up, add a token, start, talk", async () => {
    const s = await start();
    const login = await fetch(`${s.url}/admin/api/login`, { method: "POST", body: new URLSearchParams({ key: ADMIN_KEY }), redirect: "manual" });
    const admin = login.headers.getSetCookie()[0].split(";")[0];
    const put = await fetch(`${s.url}/admin/api/app-settings`, { method: "PUT", headers: { cookie: admin, "content-type": "application/json" }, body: JSON.stringify({ auth: { loginMode: "dev_login" } }) });
    expect(put.status).toBe(200);
    const dev = await fetch(`${s.url}/api/auth/dev-login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ userId: 1 }) });
    cookie = dev.headers.getSetCookie()[0].split(";")[0];
    const json = { cookie, "content-type": "application/json" };
    const project = await (await fetch(`${s.url}/api/projects`, { method: "POST", headers: json, body: JSON.stringify({ name: "Binary bot", data: greeterScenario }) })).json();
    const bot = fake.addBot({ username: "binary_bot" });
    botToken = bot.token;
    const token = await (await fetch(`${s.url}/api/bot/projects/${project.id}/tokens`, { method: "POST", headers: json, body: JSON.stringify({ token: bot.token }) })).json();
    tokenId = token.id;
    const started = await fetch(`${s.url}/api/bot/tokens/${tokenId}/start`, { method: "POST", headers: { cookie } });
    expect(started.status).toBe(200);
    fake.sendText(botToken, user, "/start");
    const [hello] = await fake.waitForSent(botToken, user.id, 1, 20_000);
    expect(hello.params.text).toBe("Привет, Eve!");
    const pidLine = await fetch(`${s.url}/api/bot/tokens/${tokenId}/status`, { headers: { cookie } });
    expect((await pidLine.json()).status).toBe("running");
  }, 60_000);

  test("SIGTERM stops the bot; the next start brings it back", async () => {
    const s = servers.at(-1)!;
    const before = fake.calls(botToken, "getUpdates").length;
    expect(await s.stop("SIGTERM")).toBe(0);
    const s2 = await start();
    await until(async () => (await (await fetch(`${s2.url}/api/bot/tokens/${tokenId}/status`, { headers: { cookie } })).json()).status === "running", "bot resumed").catch((e) => { console.error(s2.output()); throw e; });
    await until(() => fake.calls(botToken, "getUpdates").length > before, "polling again");
    fake.sendText(botToken, user, "дальше");
    expect((await fake.waitForSent(botToken, user.id, 1, 20_000))[0].params.text).toBe("Второй шаг");
  }, 60_000);

  test("kill -9 of the server leaves no orphan bot", async () => {
    const s = servers.at(-1)!;
    const out = Bun.spawnSync(["pgrep", "-f", `_${tokenId}/bot.ts|bot.ts`, "-P", String(s.proc.pid)]);
    const pids = out.stdout.toString().trim().split("\n").filter(Boolean).map(Number);
    expect(pids.length).toBeGreaterThan(0);
    botPid = pids[0];
    expect(alive(botPid)).toBe(true);
    await s.stop("SIGKILL");
    await until(() => !alive(botPid), "the orphaned bot to exit", 10_000);
  }, 30_000);
});
