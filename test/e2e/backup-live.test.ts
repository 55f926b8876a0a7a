// A backup taken while a real bot writes its project database (users arriving), then a restore
// with the compiled binary, checked through the product's own API after the next start.
import { describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { greeterScenario } from "../bots/scenario-fixture";
import { useBinaryServer } from "../support/binary-server";

const ADMIN_KEY = "e2e-backup-admin-key-0123456789";
const h = useBinaryServer("botloom-e2e-backup-", { ADMIN_KEY, SESSION_SECRET: "e2e-backup-session-secret-0123", BACKUP_SCHEDULE: "off" });

const usersIn = (file: string) => {
  const db = new Database(file, { readonly: true });
  try {
    return {
      n: (db.query("select count(*) as n from bot_users").get() as { n: number }).n,
      check: (db.query("PRAGMA quick_check").get() as { quick_check: string }).quick_check,
    };
  } finally {
    db.close();
  }
};

describe("backup while a bot writes, restore with the binary", () => {
  test("the archive is one moment's state; after restore and start the API shows exactly it", async () => {
    const s = await h.start();
    const login = await fetch(`${s.url}/admin/api/login`, { method: "POST", body: new URLSearchParams({ key: ADMIN_KEY }), redirect: "manual" });
    const admin = login.headers.getSetCookie()[0].split(";")[0];
    await fetch(`${s.url}/admin/api/app-settings`, { method: "PUT", headers: { cookie: admin, "content-type": "application/json" }, body: JSON.stringify({ auth: { loginMode: "dev_login" } }) });
    const dev = await fetch(`${s.url}/api/auth/dev-login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ userId: 1 }) });
    const cookie = dev.headers.getSetCookie()[0].split(";")[0];
    const json = { cookie, "content-type": "application/json" };
    const project = await (await fetch(`${s.url}/api/projects`, { method: "POST", headers: json, body: JSON.stringify({ name: "Busy bot", data: greeterScenario, userDatabaseEnabled: 1 }) })).json();
    const bot = h.fake.addBot({ username: "busy_bot" });
    const token = await (await fetch(`${s.url}/api/bot/projects/${project.id}/tokens`, { method: "POST", headers: json, body: JSON.stringify({ token: bot.token }) })).json();
    expect((await fetch(`${s.url}/api/bot/tokens/${token.id}/start`, { method: "POST", headers: { cookie } })).status).toBe(200);

    // A first wave, answered: the backup cannot be empty.
    const say = (id: number) => h.fake.sendText(bot.token, { id, first_name: `U${id}` }, "/start");
    for (let id = 1; id <= 10; id++) say(id);
    for (let id = 1; id <= 10; id++) await h.fake.waitForSent(bot.token, id, 1, 20_000);

    // A second wave while the backup runs, from the hub's API.
    for (let id = 11; id <= 150; id++) say(id);
    const made = await fetch(`${s.url}/admin/api/backups`, { method: "POST", headers: { cookie: admin } });
    expect(made.status).toBe(201);
    const { name } = await made.json();
    for (let id = 11; id <= 150; id++) await h.fake.waitForSent(bot.token, id, 1, 30_000);
    expect(await s.stop("SIGTERM")).toBe(0);

    const projectFile = join(h.dir, "data", "projects", `${project.id}.db`);
    const live = usersIn(projectFile);
    expect(live).toEqual({ n: 150, check: "ok" });

    const restore = Bun.spawnSync([h.binary, "restore", join(h.dir, "data", "backups", name)], { cwd: h.dir, env: { PATH: process.env.PATH ?? "", LOG_LEVEL: "silent" } });
    expect(restore.stderr.toString()).toBe("");
    expect(restore.exitCode).toBe(0);
    const restored = usersIn(projectFile);
    expect(restored.check).toBe("ok");
    expect(restored.n).toBeGreaterThanOrEqual(10);
    expect(restored.n).toBeLessThanOrEqual(150);
    expect(readdirSync(join(h.dir, "data")).some((n) => n.startsWith("replaced-"))).toBe(true);

    // The product reads the restored state: the users endpoint counts what the backup held.
    const s2 = await h.start();
    const again = (await fetch(`${s2.url}/api/auth/dev-login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ userId: 1 }) })).headers.getSetCookie()[0].split(";")[0];
    const users = await (await fetch(`${s2.url}/api/bot/tokens/${token.id}/users?limit=1`, { headers: { cookie: again } })).json();
    expect(users.count).toBe(restored.n);
    await s2.stop("SIGTERM");
  }, 120_000);
});
