// The compiled binary, started in an empty folder, runs a bot (in a shared runner, the default); a
// restarted server brings its bots back; kill -9 of the server leaves no orphan runner (runners exit
// when their stdin closes). Process mode: test/hardening/faults.test.ts and test/bots/runtime.test.ts.
import { describe, expect, test } from "bun:test";
import { greeterScenario } from "../bots/scenario-fixture";
import { useBinaryServer } from "../support/binary-server";
import { childPids, isAlive, until } from "../support/process";

const ADMIN_KEY = "e2e-admin-key-0123456789";
const h = useBinaryServer("botloom-e2e-bots-", { ADMIN_KEY, SESSION_SECRET: "e2e-session-secret-0123456789" });
const user = { id: 4242, first_name: "Eve" };
const start = () => h.start();

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
    const bot = h.fake.addBot({ username: "binary_bot" });
    botToken = bot.token;
    const token = await (await fetch(`${s.url}/api/bot/projects/${project.id}/tokens`, { method: "POST", headers: json, body: JSON.stringify({ token: bot.token }) })).json();
    tokenId = token.id;
    const started = await fetch(`${s.url}/api/bot/tokens/${tokenId}/start`, { method: "POST", headers: { cookie } });
    expect(started.status).toBe(200);
    h.fake.sendText(botToken, user, "/start");
    const [hello] = await h.fake.waitForSent(botToken, user.id, 1, 20_000);
    expect(hello.params.text).toBe("Привет, Eve!");
    const pidLine = await fetch(`${s.url}/api/bot/tokens/${tokenId}/status`, { headers: { cookie } });
    expect((await pidLine.json()).status).toBe("running");
  }, 60_000);

  test("SIGTERM stops the bot; the next start brings it back", async () => {
    const s = h.servers.at(-1)!;
    const before = h.fake.calls(botToken, "getUpdates").length;
    expect(await s.stop("SIGTERM")).toBe(0);
    const s2 = await start();
    await until(async () => (await (await fetch(`${s2.url}/api/bot/tokens/${tokenId}/status`, { headers: { cookie } })).json()).status === "running", "bot resumed").catch((e) => {
      console.error(s2.output());
      throw e;
    });
    await until(() => h.fake.calls(botToken, "getUpdates").length > before, "polling again");
    h.fake.sendText(botToken, user, "дальше");
    expect((await h.fake.waitForSent(botToken, user.id, 1, 20_000))[0].params.text).toBe("Второй шаг");
  }, 60_000);

  test("kill -9 of the server leaves no orphan runner", async () => {
    const s = h.servers.at(-1)!;
    const pids = childPids(s.proc.pid, "main.ts");
    expect(pids.length).toBeGreaterThan(0);
    botPid = pids[0];
    expect(isAlive(botPid)).toBe(true);
    await s.stop("SIGKILL");
    await until(() => !isAlive(botPid), "the orphaned runner to exit", 10_000);
  }, 30_000);
});
