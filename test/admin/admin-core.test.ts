import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { ADMIN_KEY, adminLogin, createTestApp, loginAs, patFor, setUp, type TestApp } from "../support/app";
import { issueAdminCookie, verifyAdminCookie } from "../../src/modules/admin/admin-auth";
import { startFakeMessenger, type FakeMessenger } from "../support/fake-messenger";

let t: TestApp;
beforeEach(() => {
  t = createTestApp();
});
afterEach(() => t.cleanup());

const login = (app: TestApp, key: string) => app.call("POST", "/admin/api/login", { body: new URLSearchParams({ key }) });

describe("admin login", () => {
  test("right key: 302 to /admin/settings before setup, /admin after; cookie attributes", async () => {
    let res = await login(t, ADMIN_KEY);
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/admin/settings");
    const c = res.headers.getSetCookie().find((x) => x.startsWith("admin_auth="))!;
    expect(c).toContain("HttpOnly");
    expect(c).toContain("Path=/admin");
    expect(c).toContain(`Max-Age=${7 * 24 * 3600}`);
    expect(c).toContain("SameSite=Lax");
    expect(c).not.toContain("Secure");
    await setUp(t);
    res = await login(t, ADMIN_KEY);
    expect(res.headers.get("location")).toBe("/admin");
  });

  test("wrong or missing key: 302 to /admin/login?error=1 without a cookie", async () => {
    for (const body of [new URLSearchParams({ key: "wrong" }), new URLSearchParams({})]) {
      const res = await t.call("POST", "/admin/api/login", { body });
      expect(res.status).toBe(302);
      expect(res.headers.get("location")).toBe("/admin/login?error=1");
      expect(res.headers.getSetCookie()).toHaveLength(0);
    }
    expect((await t.call("GET", "/admin/login?error=1")).text).toContain("Wrong admin key");
  });

  test("no key configured outside production: login 503, pages still render", async () => {
    const n = createTestApp({ env: { ADMIN_KEY: "" } });
    const res = await login(n, "anything");
    expect(res.status).toBe(503);
    expect(res.body.error).toBe("NOT_SET_UP");
    expect((await n.call("GET", "/admin/login")).text).toContain("No admin key is configured");
    n.cleanup();
  });

  test("production without a key: the admin area is not mounted", async () => {
    const p = createTestApp({ env: { ADMIN_KEY: "", NODE_ENV: "production" } });
    for (const path of ["/admin", "/admin/login", "/admin/api/status"]) expect((await p.call("GET", path)).status).toBe(404);
    expect((await login(p, "x")).status).toBe(404);
    // Every /admin route the area has elsewhere (settings, users, PATs, storage, templates, bot folders) is a plain 404 here.
    const adminRoutes = t.app.routes.filter((r) => r.path.startsWith("/admin"));
    expect(adminRoutes.length).toBeGreaterThan(20);
    for (const r of adminRoutes) {
      const path = r.path.replaceAll(/:[^/]+/g, "1").replace("/*", "/x");
      const res = await p.call(r.method, path, { json: r.method === "GET" || r.method === "HEAD" ? undefined : {} });
      expect([r.method, path, res.status, res.body?.error]).toEqual([r.method, path, 404, r.method === "HEAD" ? undefined : "NOT_FOUND"]);
    }
    p.cleanup();
  });

  test("production with a key: Secure cookie", async () => {
    const p = createTestApp({ env: { NODE_ENV: "production" } });
    const res = await login(p, ADMIN_KEY);
    expect(res.headers.getSetCookie()[0]).toContain("Secure");
    p.cleanup();
  });

  test("status, logout", async () => {
    expect((await t.call("GET", "/admin/api/status")).body).toEqual({ authenticated: false, adminEnabled: true });
    const cookie = await adminLogin(t);
    expect((await t.call("GET", "/admin/api/status", { cookie })).body).toEqual({ authenticated: true, adminEnabled: true });
    const out = await t.call("POST", "/admin/api/logout", { cookie });
    expect(out.status).toBe(302);
    expect(out.headers.get("location")).toBe("/admin/login");
    expect(out.headers.getSetCookie()[0]).toContain("Max-Age=0");
    expect(out.headers.getSetCookie()[0]).toContain("Path=/admin"); // the path it was set with, or the browser keeps it
  });

  test("logout ends every admin session issued until then, a copied cookie too, also after a restart; only the admin's own page can", async () => {
    const status = async (cookie: string) => (await t.call("GET", "/admin/api/status", { cookie })).body.authenticated;
    const here = await adminLogin(t);
    const copied = await adminLogin(t); // the same admin in another browser, or a stolen copy
    // nobody else ends them: an anonymous logout, or the admin's cookie sent by another site's page
    await t.call("POST", "/admin/api/logout", {});
    await t.call("POST", "/admin/api/logout", { cookie: copied, headers: { origin: "http://evil.localhost", "sec-fetch-site": "same-site" } });
    expect([await status(here), await status(copied)]).toEqual([true, true]);
    // the admin's own logout, one millisecond on: every cookie issued until then is void
    await Bun.sleep(2);
    expect((await t.call("POST", "/admin/api/logout", { cookie: here, headers: { origin: "http://localhost", "sec-fetch-site": "same-origin" } })).status).toBe(302);
    expect([await status(here), await status(copied)]).toEqual([false, false]);
    expect((await t.call("GET", "/admin/api/app-settings", { cookie: copied })).status).toBe(401);
    // kept in the database: a restart (settings read anew) keeps them void
    t.ctx.settings.reload();
    expect(await status(copied)).toBe(false);
    await Bun.sleep(2);
    expect(await status(await adminLogin(t))).toBe(true);
  });

  test("cookie: signed, expiring, bound to the key", () => {
    const now = Date.now();
    const c = issueAdminCookie("k1", now);
    expect(verifyAdminCookie("k1", c, now)).toBe(true);
    expect(verifyAdminCookie("k2", c, now)).toBe(false);
    expect(verifyAdminCookie("k1", c, now + 8 * 24 * 3600 * 1000)).toBe(false);
    const [exp, sig] = c.split(".");
    expect(verifyAdminCookie("k1", `${Number(exp) + 1000}.${sig}`, now)).toBe(false);
    expect(verifyAdminCookie("k1", { a: 1 }, now)).toBe(false);
    expect(verifyAdminCookie(null, c, now)).toBe(false);
    // issued before a logout's time: void
    expect(verifyAdminCookie("k1", c, now, now + 1)).toBe(false);
    expect(verifyAdminCookie("k1", c, now, now)).toBe(true);
  });
});

describe("admin API authorization", () => {
  test("401 ADMIN_UNAUTHORIZED without an admin session; user sessions and PATs do not count", async () => {
    await setUp(t);
    const user = await loginAs(t, 5);
    const pat = patFor(t, 5, ["bot_manager"]);
    for (const opts of [{}, { cookie: user }, { bearer: pat }, { cookie: "admin_auth=garbage" }, { cookie: "admin_auth=99999999999999.abc" }]) {
      for (const [m, p] of [["GET", "/admin/api/app-settings"], ["PUT", "/admin/api/app-settings"], ["GET", "/admin/api/pats"], ["POST", "/admin/api/pats"], ["DELETE", "/admin/api/pats/1"]]) {
        const res = await t.call(m, p, { ...opts, json: m === "GET" || m === "DELETE" ? undefined : {} });
        expect(res.status).toBe(401);
        expect(res.body.error).toBe("ADMIN_UNAUTHORIZED");
      }
    }
  });

  test("pages redirect to /admin/login without a session", async () => {
    for (const p of ["/admin", "/admin/settings"]) {
      const res = await t.call("GET", p);
      expect(res.status).toBe(302);
      expect(res.headers.get("location")).toBe("/admin/login");
    }
  });
});

describe("app settings", () => {
  let fake: FakeMessenger;
  let a: TestApp;
  beforeEach(async () => {
    fake = await startFakeMessenger();
    a = createTestApp({ env: { MESSENGER_API_ROOT: fake.url } });
  });
  afterEach(async () => {
    a.cleanup();
    await fake.stop();
  });

  test("read shape before setup; secrets never returned", async () => {
    const cookie = await adminLogin(a);
    const res = await a.call("GET", "/admin/api/app-settings", { cookie });
    expect(res.body).toEqual({
      auth: { loginMode: null, devLoginEnabled: false },
      providers: { messenger: { clientId: "", botUsername: null, clientSecretConfigured: false, botTokenConfigured: false, configured: false } },
      platform: { operatorIds: "" },
    });
  });

  test("messenger_widget with a bot token: username resolved via getMe, secrets kept on empty, never echoed", async () => {
    const bot = fake.addBot({ username: "login_bot", firstName: "Login" });
    const cookie = await adminLogin(a);
    const put = await a.call("PUT", "/admin/api/app-settings", {
      cookie,
      json: { auth: { loginMode: "messenger_widget" }, messenger: { clientId: String(bot.id), clientSecret: "s3cr3t-value", botToken: bot.token } },
    });
    expect(put.status).toBe(200);
    expect(put.body).toEqual({ success: true, configured: true, auth: { loginMode: "messenger_widget", devLoginEnabled: false }, providers: { messenger: { configured: true, botUsername: "login_bot" } }, platform: { operatorIds: "" } });
    expect(put.text).not.toContain(bot.token);
    const again = await a.call("PUT", "/admin/api/app-settings", { cookie, json: { messenger: { clientId: String(bot.id), clientSecret: "", botToken: "" } } });
    expect(again.status).toBe(200);
    const read = await a.call("GET", "/admin/api/app-settings", { cookie });
    expect(read.body.providers.messenger).toMatchObject({ clientSecretConfigured: true, botTokenConfigured: true, configured: true, botUsername: "login_bot" });
    expect(read.text).not.toContain(bot.token);
    expect(read.text).not.toContain("s3cr3t-value");
    expect(a.logs.join("\n")).not.toContain(bot.token);
    expect((await a.call("GET", "/api/auth/config")).body).toEqual({ setUp: true, loginMode: "messenger_widget", botUsername: "login_bot" });
  });

  test("a new bot token without a usable botUsername takes the new bot's username", async () => {
    const first = fake.addBot({ username: "first_bot" });
    const second = fake.addBot({ username: "second_bot" });
    const cookie = await adminLogin(a);
    await a.call("PUT", "/admin/api/app-settings", { cookie, json: { messenger: { clientId: "1", botToken: first.token } } });
    for (const botUsername of [undefined, "", "   "]) {
      const bot = botUsername === "" ? first : second;
      const res = await a.call("PUT", "/admin/api/app-settings", { cookie, json: { messenger: { clientId: "1", botToken: bot.token, botUsername } } });
      expect(res.status).toBe(200);
      expect(res.body.providers.messenger.botUsername).toBe(bot === first ? "first_bot" : "second_bot");
    }
    const explicit = await a.call("PUT", "/admin/api/app-settings", { cookie, json: { messenger: { clientId: "1", botToken: first.token, botUsername: "@chosen_bot" } } });
    expect(explicit.body.providers.messenger.botUsername).toBe("chosen_bot");
  });

  test("validation: bad mode, unknown fields, invalid token, incomplete widget provider", async () => {
    const cookie = await adminLogin(a);
    const bad = [
      { auth: { loginMode: "password" } },
      { auth: { loginMode: "dev_login", extra: 1 } },
      { other: {} },
      { messenger: { clientId: {} } },
      { auth: { loginMode: "messenger_widget" } },
      { auth: { loginMode: "messenger_widget" }, messenger: { clientId: "1", botToken: "123456:invalidinvalidinvalidinvalid12" } },
      { messenger: { botToken: "not-a-token" } },
    ];
    for (const json of bad) {
      const res = await a.call("PUT", "/admin/api/app-settings", { cookie, json });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe("VALIDATION_FAILED");
    }
    expect(a.ctx.settings.isSetUp()).toBe(false);
    const malformed = await a.call("PUT", "/admin/api/app-settings", { cookie, body: "{", headers: { "content-type": "application/json" } });
    expect(malformed.status).toBe(400);
  });

  test("the messenger platform being unreachable is a clear 502, not a hang", async () => {
    const b = createTestApp({ env: { MESSENGER_API_ROOT: "http://127.0.0.1:9" } });
    const cookie = await adminLogin(b);
    const res = await b.call("PUT", "/admin/api/app-settings", { cookie, json: { messenger: { clientId: "1", botToken: "123456:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA" } } });
    expect(res.status).toBe(502);
    expect(res.body.error).toBe("BAD_GATEWAY");
    b.cleanup();
  });

  test("the settings page form works without JavaScript", async () => {
    const cookie = await adminLogin(a);
    const page = await a.call("GET", "/admin/settings", { cookie });
    expect(page.text).toContain('name="loginMode"');
    const res = await a.call("POST", "/admin/settings", { cookie, body: new URLSearchParams({ loginMode: "dev_login", clientId: "", botToken: "", clientSecret: "", botUsername: "" }) });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/admin");
    expect(a.ctx.settings.isSetUp()).toBe(true);
    const bad = await a.call("POST", "/admin/settings", { cookie, body: new URLSearchParams({ loginMode: "messenger_widget" }) });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain("Client id and Bot token required");
  });
});

describe("admin PATs", () => {
  test("create a bot_manager PAT (shown once), list without the token, delete", async () => {
    await setUp(t);
    const cookie = await adminLogin(t);
    const res = await t.call("POST", "/admin/api/pats", { cookie, json: { name: "manager", userId: 555, scopes: ["bot_manager"] } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ name: "manager", userId: 555, scopes: ["bot_manager"] });
    expect(res.body.token).toStartWith("mcp_");
    const list = await t.call("GET", "/admin/api/pats", { cookie });
    expect(list.body.count).toBe(1);
    expect(list.text).not.toContain(res.body.token);
    expect(Object.keys(list.body.items[0]).sort()).toEqual(["createdAt", "id", "lastUsedAt", "name", "scopes", "userId"]);
    expect(Object.keys(res.body).sort()).toEqual(["createdAt", "id", "name", "scopes", "token", "userId"]);
    expect((await t.call("GET", "/api/auth/me", { bearer: res.body.token })).body.user.id).toBe(555);
    expect((await t.call("DELETE", `/admin/api/pats/${res.body.id}`, { cookie })).body).toEqual({ success: true });
    expect((await t.call("DELETE", `/admin/api/pats/${res.body.id}`, { cookie })).status).toBe(404);
    expect((await t.call("DELETE", `/admin/api/pats/x`, { cookie })).status).toBe(400);
  });

  test("validation of PAT creation", async () => {
    const cookie = await adminLogin(t);
    for (const json of [{ name: "x" }, { name: "x", userId: 0 }, { name: "", userId: 1 }, { name: "x", userId: 1, scopes: ["admin"] }, { name: "x", userId: "1" }]) {
      expect((await t.call("POST", "/admin/api/pats", { cookie, json })).status).toBe(400);
    }
  });
});

describe("login page with a session", () => {
  test("an admin who is already logged in is sent on instead of seeing the form again", async () => {
    const t2 = createTestApp();
    const cookie = await adminLogin(t2);
    let res = await t2.call("GET", "/admin/login", { cookie });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/admin/settings");
    await setUp(t2);
    res = await t2.call("GET", "/admin/login", { cookie });
    expect(res.headers.get("location")).toBe("/admin");
    expect((await t2.call("GET", "/admin/login", { cookie: "admin_auth=forged.x" })).status).toBe(200);
    t2.cleanup();
  });
});
