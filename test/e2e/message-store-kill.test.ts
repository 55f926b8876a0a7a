// A server killed with SIGKILL while users write (docs/dialogs.md "the batch window"): its bots
// see their pipe close and stop, writing what their queue holds. Every message the bot answered
// before it ended — the user's message and the bot's reply — is in the project's file afterwards:
// no acknowledged record is lost (the batch window, 50 ms, bounds the loss only when a bot process
// itself is killed). In a shared runner and with a process per bot.
import { expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { greeterScenario } from "../bots/scenario-fixture";
import { restartHarness } from "../support/restart-harness";
import { childPids, isAlive, startProcessServer, until } from "../support/process";

const ROOT = resolve(import.meta.dir, "../..");
const ADMIN_KEY = "kill-admin-key-0123456789";
const h = restartHarness();

for (const isolation of ["runner", "process"] as const) {
  test(`SIGKILL of the server (${isolation}): every answered message is recorded, both sides`, async () => {
    const dir = mkdtempSync(join(tmpdir(), "botloom-store-kill-"));
    h.dirs.push(dir);
    const dataDir = join(dir, "data");
    const env = { ADMIN_KEY, SESSION_SECRET: "kill-session-secret-0123456789", MESSENGER_API_ROOT: h.fake.url, BOT_ISOLATION: isolation, DATA_DIR: dataDir, BOTS_DIR: join(dir, "bots") };
    const s = await startProcessServer([process.execPath, join(ROOT, "src/main.ts"), "serve"], { cwd: dir, env });
    h.servers.push(s);
    const login = await fetch(`${s.url}/admin/api/login`, { method: "POST", body: new URLSearchParams({ key: ADMIN_KEY }), redirect: "manual" });
    const admin = login.headers.getSetCookie()[0]!.split(";")[0]!;
    await fetch(`${s.url}/admin/api/app-settings`, { method: "PUT", headers: { cookie: admin, "content-type": "application/json" }, body: JSON.stringify({ auth: { loginMode: "dev_login" } }) });
    const dev = await fetch(`${s.url}/api/auth/dev-login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ userId: 1 }) });
    const json = { cookie: dev.headers.getSetCookie()[0]!.split(";")[0]!, "content-type": "application/json" };
    const project = await (await fetch(`${s.url}/api/projects`, { method: "POST", headers: json, body: JSON.stringify({ name: "Killed", data: greeterScenario }) })).json();
    const bot = h.fake.addBot();
    const token = await (await fetch(`${s.url}/api/bot/projects/${project.id}/tokens`, { method: "POST", headers: json, body: JSON.stringify({ token: bot.token }) })).json();
    expect((await fetch(`${s.url}/api/bot/tokens/${token.id}/start`, { method: "POST", headers: json })).status).toBe(200);
    const users = Array.from({ length: 5 }, (_, i) => ({ id: 7_300_000 + i + (isolation === "process" ? 100 : 0), first_name: `U${i}` }));
    h.fake.sendText(bot.token, users[0]!, "/start");
    await h.fake.waitForSent(bot.token, users[0]!.id, 1, 15_000);
    const botPids = childPids(s.proc.pid, () => true);
    expect(botPids.length).toBeGreaterThan(0);

    // Users keep writing; the server is killed in the middle of it.
    let writing = true;
    const writers = users.map(async (u) => {
      while (writing) {
        h.fake.sendText(bot.token, u, "дальше");
        await Bun.sleep(15);
      }
    });
    await until(() => h.fake.sent(bot.token).length >= 60, "the bot answering under load", 15_000);
    s.proc.kill("SIGKILL");
    await s.proc.exited;
    // The bots notice their pipe closing and stop (bounded by their own 3 s grace).
    await until(() => botPids.every((pid) => !isAlive(pid)), "the bots to stop", 15_000);
    writing = false;
    await Promise.all(writers);

    const answered = h.fake.sent(bot.token).filter((c) => c.method === "sendMessage");
    const db = new Database(join(dataDir, "projects", `${project.id}.db`), { readonly: true });
    try {
      const outIds = new Set((db.query("SELECT messenger_message_id AS m FROM bot_messages WHERE direction = 'out'").all() as { m: number }[]).map((r) => r.m));
      const missing = answered.filter((c) => !outIds.has(c.messageId!));
      expect(missing.map((c) => c.messageId)).toEqual([]);
      // every answer was to a message of the user, recorded before it (chat order)
      for (const u of users) {
        const rows = db.query("SELECT direction FROM bot_messages WHERE chat_id = ? ORDER BY id").all(String(u.id)) as { direction: string }[];
        const ins = rows.filter((r) => r.direction === "in").length;
        const outs = rows.length - ins;
        expect(outs).toBe(answered.filter((c) => Number(c.params.chat_id) === u.id).length);
        expect(ins).toBeGreaterThanOrEqual(outs);
      }
      expect(answered.length).toBeGreaterThanOrEqual(60);
    } finally {
      db.close();
    }
  }, 90_000);
}
