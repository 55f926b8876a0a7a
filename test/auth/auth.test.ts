import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { createHmac, createHash } from "node:crypto";
import { adminLogin, cookieFrom, createTestApp, loginAs, setUp, type TestApp } from "../support/app";

let t: TestApp;
beforeEach(async () => {
  t = createTestApp();
  await setUp(t);
});
afterEach(() => t.cleanup());

describe("dev login and sessions", () => {
  test("dev-login creates the user and a session cookie with the right attributes", async () => {
    const res = await t.call("POST", "/api/auth/dev-login", { json: { userId: 42, firstName: "Ann", username: "ann" } });
    expect(res.status).toBe(200);
    expect(res.body.user).toEqual({ id: 42, firstName: "Ann", lastName: null, username: "ann", photoUrl: null });
    const setCookie = res.headers.getSetCookie().find((c) => c.startsWith("connect.sid="))!;
    expect(setCookie).toContain("HttpOnly");
    expect(setCookie).toContain("SameSite=Lax");
    expect(setCookie).toContain("Path=/");
    expect(setCookie).toContain(`Max-Age=${30 * 24 * 3600}`);
    expect(setCookie).not.toContain("Secure");
    const me = await t.call("GET", "/api/auth/me", { cookie: cookieFrom(res.headers, "connect.sid") });
    expect(me.status).toBe(200);
    expect(me.body.user.id).toBe(42);
  });

  test("the session is stored only as a hash", async () => {
    const cookie = await loginAs(t, 5);
    const id = decodeURIComponent(cookie.split("=")[1]).split(".")[0];
    const rows = t.ctx.db.$client.query("select id from sessions").all() as { id: string }[];
    expect(rows).toHaveLength(1);
    expect(rows[0].id).toBe(createHash("sha256").update(id).digest("hex"));
  });

  test("bad dev-login bodies are 400 in the one error shape", async () => {
    for (const json of [{}, { userId: "7" }, { userId: -1 }, { userId: 1.5 }, { userId: 1, firstName: 5 }]) {
      const res = await t.call("POST", "/api/auth/dev-login", { json });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe("VALIDATION_FAILED");
      expect(res.body.message).toBeString();
    }
    const malformed = await t.call("POST", "/api/auth/dev-login", { body: "{nope", headers: { "content-type": "application/json" } });
    expect(malformed.status).toBe(400);
    expect(malformed.body.error).toBe("VALIDATION_FAILED");
  });

  test("dev-login is 403 when the mode is messenger_widget", async () => {
    t.ctx.db.$client.exec(`update app_settings set value = '{"loginMode":"messenger_widget"}' where key = 'auth'`);
    t.ctx.db.$client.exec(`insert into app_settings (key, value) values ('messenger', '{"clientId":"1","botToken":"1:x"}')`);
    t.ctx.settings.reload();
    const res = await t.call("POST", "/api/auth/dev-login", { json: { userId: 1 } });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe("FORBIDDEN");
  });

  test("garbage, forged and expired cookies are 401, never 500", async () => {
    const good = await loginAs(t, 9);
    const [name, value] = good.split("=");
    const forged = `${name}=${value.slice(0, -4)}abcd`;
    for (const cookie of [forged, "connect.sid=garbage", "connect.sid={\"a\":1}", "connect.sid=[1,2]", "connect.sid=" + "x".repeat(5000), "connect.sid=.", "connect.sid=%E0%A4%A"]) {
      const res = await t.call("GET", "/api/auth/me", { cookie });
      expect(res.status).toBe(401);
      expect(res.body.error).toBe("UNAUTHORIZED");
    }
    t.ctx.db.$client.exec("update sessions set expires_at = '2000-01-01T00:00:00.000Z'");
    expect((await t.call("GET", "/api/auth/me", { cookie: good })).status).toBe(401);
    expect((t.ctx.db.$client.query("select count(*) as n from sessions").get() as any).n).toBe(0);
  });

  test("me without credentials is 401; logout deletes the session and clears the cookie", async () => {
    expect((await t.call("GET", "/api/auth/me")).status).toBe(401);
    const cookie = await loginAs(t, 10);
    const out = await t.call("POST", "/api/auth/logout", { cookie });
    expect(out.status).toBe(200);
    expect(out.body).toEqual({ success: true });
    expect(out.headers.getSetCookie().find((c) => c.startsWith("connect.sid="))).toContain("Max-Age=0");
    expect((await t.call("GET", "/api/auth/me", { cookie })).status).toBe(401);
  });

  test("Secure cookies in production", async () => {
    const p = createTestApp({ env: { NODE_ENV: "production" } });
    await setUp(p);
    const res = await p.call("POST", "/api/auth/dev-login", { json: { userId: 1 } });
    expect(res.headers.getSetCookie()[0]).toContain("Secure");
    p.cleanup();
  });
});

describe("messenger (Login Widget) login", () => {
  const BOT_TOKEN = "123456:ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghi";
  // The test vector is computed here exactly as Telegram documents it, independently of the service code.
  function signed(fields: Record<string, string | number>) {
    const check = Object.keys(fields).sort().map((k) => `${k}=${fields[k]}`).join("\n");
    const secret = createHash("sha256").update(BOT_TOKEN).digest();
    return { ...fields, hash: createHmac("sha256", secret).update(check).digest("hex") };
  }
  beforeEach(() => {
    t.ctx.db.$client.exec(`update app_settings set value = '{"loginMode":"messenger_widget"}' where key = 'auth'`);
    t.ctx.db.$client.exec(`insert into app_settings (key, value) values ('messenger', '${JSON.stringify({ clientId: "123456", botToken: BOT_TOKEN, botUsername: "loginbot", clientSecret: "" })}')`);
    t.ctx.settings.reload();
  });

  test("a valid payload logs in and stores the profile", async () => {
    const now = Math.floor(Date.now() / 1000);
    const res = await t.call("POST", "/api/auth/messenger-login", { json: signed({ id: 777, first_name: "Ivan", username: "ivan", photo_url: "https://t.me/i/userpic/320/x.jpg", auth_date: now }) });
    expect(res.status).toBe(200);
    expect(res.body.user).toEqual({ id: 777, firstName: "Ivan", lastName: null, username: "ivan", photoUrl: "https://t.me/i/userpic/320/x.jpg" });
    expect((await t.call("GET", "/api/auth/me", { cookie: cookieFrom(res.headers, "connect.sid") })).body.user.id).toBe(777);
  });

  test("a tampered payload, a wrong hash or an old auth_date is 401", async () => {
    const now = Math.floor(Date.now() / 1000);
    const good = signed({ id: 777, first_name: "Ivan", auth_date: now });
    expect((await t.call("POST", "/api/auth/messenger-login", { json: { ...good, first_name: "Eve" } })).status).toBe(401);
    expect((await t.call("POST", "/api/auth/messenger-login", { json: { ...good, hash: "0".repeat(64) } })).status).toBe(401);
    const old = signed({ id: 777, first_name: "Ivan", auth_date: now - 25 * 3600 });
    const res = await t.call("POST", "/api/auth/messenger-login", { json: old });
    expect(res.status).toBe(401);
    expect(res.body.message).toContain("24 hours");
    expect((await t.call("POST", "/api/auth/messenger-login", { json: { id: 1 } })).status).toBe(400);
  });

  test("messenger-login is 403 under dev_login", async () => {
    await t.ctx.settings.update({ auth: { loginMode: "dev_login" } });
    const res = await t.call("POST", "/api/auth/messenger-login", { json: signed({ id: 1, first_name: "A", auth_date: Math.floor(Date.now() / 1000) }) });
    expect(res.status).toBe(403);
  });

  test("auth config tells the login page what to show", async () => {
    const res = await t.call("GET", "/api/auth/config");
    expect(res.body).toEqual({ setUp: true, loginMode: "messenger_widget", botUsername: "loginbot" });
  });
});

describe("personal access tokens", () => {
  test("create, use, list (never the token), delete; lastUsedAt is set", async () => {
    const cookie = await loginAs(t, 21);
    const created = await t.call("POST", "/api/auth/pats", { cookie, json: { name: "laptop" } });
    expect(created.status).toBe(201);
    expect(created.body.token).toMatch(/^mcp_[A-Za-z0-9]{40,}$/);
    expect(created.body.scopes).toEqual([]);
    const token = created.body.token;
    const stored = t.ctx.db.$client.query("select token_hash from personal_access_tokens").get() as any;
    expect(stored.token_hash).toBe(createHash("sha256").update(token).digest("hex"));
    const me = await t.call("GET", "/api/auth/me", { bearer: token });
    expect(me.body.user.id).toBe(21);
    const list = await t.call("GET", "/api/auth/pats", { bearer: token });
    expect(list.body.count).toBe(1);
    expect(list.text).not.toContain(token);
    expect(list.body.items[0].lastUsedAt).toBeString();
    // docs/api.md field list exactly: never the token, its hash or the owner column.
    expect(Object.keys(list.body.items[0]).sort()).toEqual(["createdAt", "id", "lastUsedAt", "name", "scopes"]);
    expect(Object.keys(created.body).sort()).toEqual(["createdAt", "id", "name", "scopes", "token"]);
    expect(list.text).not.toContain(stored.token_hash);
    const del = await t.call("DELETE", `/api/auth/pats/${created.body.id}`, { cookie });
    expect(del.body).toEqual({ success: true });
    expect((await t.call("GET", "/api/auth/me", { bearer: token })).status).toBe(401);
  });

  test("a user cannot see or delete another user's PAT", async () => {
    const a = await loginAs(t, 1);
    const b = await loginAs(t, 2);
    const pat = (await t.call("POST", "/api/auth/pats", { cookie: a, json: { name: "a" } })).body;
    expect((await t.call("GET", "/api/auth/pats", { cookie: b })).body.count).toBe(0);
    expect((await t.call("DELETE", `/api/auth/pats/${pat.id}`, { cookie: b })).status).toBe(404);
    expect((await t.call("DELETE", `/api/auth/pats/abc`, { cookie: b })).status).toBe(400);
  });

  test("garbage bearer tokens are 401", async () => {
    for (const bearer of ["mcp_short", "nope", "mcp_" + "A".repeat(43), "' OR 1=1 --"]) {
      const res = await t.call("GET", "/api/auth/me", { bearer });
      expect(res.status).toBe(401);
      expect(res.body.error).toBe("UNAUTHORIZED");
    }
    expect((await t.call("GET", "/api/auth/me", { headers: { authorization: "Bearer" } })).status).toBe(401);
  });

  test("a PAT cannot create PATs (403); a session can", async () => {
    const cookie = await loginAs(t, 4);
    const token = (await t.call("POST", "/api/auth/pats", { cookie, json: { name: "first" } })).body.token;
    const res = await t.call("POST", "/api/auth/pats", { bearer: token, json: { name: "second" } });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe("FORBIDDEN");
    expect((await t.call("GET", "/api/auth/pats", { bearer: token })).body.count).toBe(1);
  });

  test("PAT names are validated", async () => {
    const cookie = await loginAs(t, 3);
    expect((await t.call("POST", "/api/auth/pats", { cookie, json: { name: "" } })).status).toBe(400);
    expect((await t.call("POST", "/api/auth/pats", { cookie, json: { name: "x".repeat(101) } })).status).toBe(400);
  });

  test("admin cookies do not authenticate user routes", async () => {
    const admin = await adminLogin(t);
    expect((await t.call("GET", "/api/auth/me", { cookie: admin })).status).toBe(401);
  });
});
