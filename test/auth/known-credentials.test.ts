// Resolved credentials are reused between writes (src/http/auth.ts, KnownCredentials). A credential
// that was just used must stop working the moment it is revoked, logged out, expired or its row is
// removed by another connection to the database file (another process: a restore, the CLI).
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { createTestApp, loginAs, setUp, type TestApp } from "../support/app";

let t: TestApp;
beforeEach(async () => {
  t = createTestApp({ fileDb: true });
  await setUp(t);
});
afterEach(() => t.cleanup());

const me = (o: { cookie?: string; bearer?: string }) => t.call("GET", "/api/auth/me", o).then((r) => r.status);

describe("a credential used a moment ago", () => {
  test("a session stops at logout", async () => {
    const cookie = await loginAs(t, 21);
    expect([await me({ cookie }), await me({ cookie })]).toEqual([200, 200]);
    expect((await t.call("POST", "/api/auth/logout", { cookie })).status).toBe(200);
    expect(await me({ cookie })).toBe(401);
  });

  test("a PAT stops when it is deleted", async () => {
    const cookie = await loginAs(t, 22);
    const pat = (await t.call("POST", "/api/auth/pats", { cookie, json: { name: "x" } })).body;
    expect([await me({ bearer: pat.token }), await me({ bearer: pat.token })]).toEqual([200, 200]);
    expect((await t.call("DELETE", `/api/auth/pats/${pat.id}`, { cookie })).status).toBe(200);
    expect(await me({ bearer: pat.token })).toBe(401);
  });

  test("a session and a PAT stop when another connection removes them", async () => {
    const cookie = await loginAs(t, 23);
    const pat = (await t.call("POST", "/api/auth/pats", { cookie, json: { name: "y" } })).body;
    expect([await me({ cookie }), await me({ bearer: pat.token })]).toEqual([200, 200]);
    const other = new Database(t.ctx.config.databasePath);
    other.exec("PRAGMA busy_timeout = 5000");
    other.exec("DELETE FROM sessions; DELETE FROM personal_access_tokens");
    other.close();
    expect([await me({ cookie }), await me({ bearer: pat.token })]).toEqual([401, 401]);
  });

  test("an expired session stops", async () => {
    const cookie = await loginAs(t, 24);
    expect(await me({ cookie })).toBe(200);
    const other = new Database(t.ctx.config.databasePath);
    other.exec("PRAGMA busy_timeout = 5000");
    other.exec("UPDATE sessions SET expires_at = '2000-01-01T00:00:00.000Z'");
    other.close();
    expect(await me({ cookie })).toBe(401);
  });

  test("a bot_manager's acting user is created again after its row was removed", async () => {
    const cookie = await loginAs(t, 25);
    const pat = t.ctx.auth.createPat(25, "bm", ["bot_manager"]).token;
    expect((await t.call("GET", "/api/bot/projects?messenger_id=777", { bearer: pat })).status).toBe(200);
    expect(t.ctx.auth.getUser(777)).not.toBeNull();
    t.ctx.db.$client.exec("DELETE FROM users WHERE id = 777");
    expect((await t.call("GET", "/api/bot/projects?messenger_id=777", { bearer: pat })).status).toBe(200);
    expect(t.ctx.auth.getUser(777)).not.toBeNull();
    expect(cookie).toBeString();
  });
});
