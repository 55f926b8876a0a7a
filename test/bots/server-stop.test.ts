// docs/cli.md: on SIGTERM the server stops accepting requests, stops its bots gracefully (they
// come back on the next start) and closes the database — also while an editor holds the live
// events WebSocket open, which would otherwise keep the server waiting forever.
import { afterAll, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { startServer } from "../../src/server";
import { startFakeMessenger } from "../support/fake-messenger";
import { createTestApp, loginAs, setUp } from "../support/app";
import { isAlive } from "../support/process";
import { greeterScenario } from "./scenario-fixture";

const cleanups: (() => unknown)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

test("server stop with an open /api/events WebSocket: finishes, the bot stops and stays wanted", async () => {
  const fake = await startFakeMessenger();
  cleanups.push(() => fake.stop());
  const t = createTestApp({ fileDb: true, env: { MESSENGER_API_ROOT: fake.url, PORT: "0", HOST: "127.0.0.1", BOT_ISOLATION: "process" } });
  cleanups.push(() => t.cleanup());
  await setUp(t);
  const cookie = await loginAs(t, 5);
  const project = await t.call("POST", "/api/projects", { cookie, json: { name: "Stopper", data: greeterScenario } });
  const bot = fake.addBot();
  const token = await t.call("POST", `/api/bot/projects/${project.body.id}/tokens`, { cookie, json: { token: bot.token } });
  const server = await startServer(t.ctx, { requestGraceMs: 200 });
  cleanups.push(() => server.stop());
  expect((await fetch(`${server.url}/api/bot/tokens/${token.body.id}/start`, { method: "POST", headers: { cookie } })).status).toBe(200);
  const pid = t.ctx.bots.state(token.body.id).pid!;

  const ws = new WebSocket(`${server.url.replace("http", "ws")}/api/events`, { headers: { cookie } } as unknown as string[]);
  await new Promise((resolve, reject) => {
    ws.onopen = resolve;
    ws.onerror = reject;
  });
  const closed = new Promise((resolve) => (ws.onclose = resolve));

  const outcome = await Promise.race([server.stop().then(() => "stopped"), Bun.sleep(10_000).then(() => "hung")]);
  expect(outcome).toBe("stopped");
  await closed;
  expect(isAlive(pid)).toBe(false);
  const db = new Database(t.ctx.config.databasePath, { readonly: true });
  expect(db.query("SELECT desired_state AS d FROM bot_tokens WHERE id = ?").get(token.body.id)).toEqual({ d: "running" });
  expect(db.query("SELECT status, stopped_at IS NOT NULL AS closed FROM bot_launches").all()).toEqual([{ status: "stopped", closed: 1 }]);
  db.close();
}, 30_000);
