// docs/security.md "Login": a widget payload logs in once, a browser's widget login needs the state
// cookie its own login page asked for, and no page of another site logs a browser in.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { createHash, createHmac } from "node:crypto";
import { cookieFrom, createTestApp, setUp, type TestApp } from "../support/app";

const BOT_TOKEN = "123456:ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghi";
// Signed as Telegram documents it, independently of the service code.
function signed(fields: Record<string, string | number>) {
  const check = Object.keys(fields).sort().map((k) => `${k}=${fields[k]}`).join("\n");
  const secret = createHash("sha256").update(BOT_TOKEN).digest();
  return { ...fields, hash: createHmac("sha256", secret).update(check).digest("hex") };
}
const now = () => Math.floor(Date.now() / 1000);
const SAME_ORIGIN = { origin: "http://localhost", "sec-fetch-site": "same-origin" };

let t: TestApp;
beforeEach(async () => {
  t = createTestApp();
  await setUp(t);
  t.ctx.db.$client.exec(`update app_settings set value = '{"loginMode":"messenger_widget"}' where key = 'auth'`);
  t.ctx.db.$client.exec(`insert into app_settings (key, value) values ('messenger', '${JSON.stringify({ clientId: "123456", botToken: BOT_TOKEN, botUsername: "loginbot", clientSecret: "" })}')`);
  t.ctx.settings.reload();
});
afterEach(() => t.cleanup());

async function loginState(headers: Record<string, string> = SAME_ORIGIN) {
  const res = await t.call("POST", "/api/auth/login-state", { headers });
  expect(res.status).toBe(200);
  return cookieFrom(res.headers, "login_state");
}

describe("one-time widget payloads", () => {
  test("the same payload a second time is 401, also from another client", async () => {
    const payload = signed({ id: 777, first_name: "Ivan", auth_date: now() });
    expect((await t.call("POST", "/api/auth/messenger-login", { json: payload })).status).toBe(200);
    const again = await t.call("POST", "/api/auth/messenger-login", { json: payload });
    expect(again.status).toBe(401);
    expect(again.body.message).toContain("already used");
    expect(again.headers.getSetCookie().some((c) => c.startsWith("connect.sid="))).toBe(false);
    // The hash's case does not make it a new payload.
    expect((await t.call("POST", "/api/auth/messenger-login", { json: { ...payload, hash: payload.hash.toUpperCase() } })).status).toBe(401);
  });

  test("a refused (tampered) payload is not recorded: the genuine one still logs in once", async () => {
    const payload = signed({ id: 778, first_name: "Ivan", auth_date: now() });
    expect((await t.call("POST", "/api/auth/messenger-login", { json: { ...payload, first_name: "Eve" } })).status).toBe(401);
    expect((await t.call("POST", "/api/auth/messenger-login", { json: payload })).status).toBe(200);
  });

  test("used hashes are kept only until the payload would be too old anyway", async () => {
    const old = signed({ id: 779, first_name: "Old", auth_date: now() - 23 * 3600 });
    expect((await t.call("POST", "/api/auth/messenger-login", { json: old })).status).toBe(200);
    t.ctx.db.$client.exec(`update used_login_payloads set expires_at = '2000-01-01T00:00:00.000Z'`);
    expect((await t.call("POST", "/api/auth/messenger-login", { json: signed({ id: 780, first_name: "New", auth_date: now() }) })).status).toBe(200);
    const rows = t.ctx.db.$client.query("select count(*) as n from used_login_payloads").get() as { n: number };
    expect(rows.n).toBe(1);
  });
});

describe("the widget login is bound to the browser that began it", () => {
  test("a browser's request without the state cookie is 403 and logs nobody in", async () => {
    const res = await t.call("POST", "/api/auth/messenger-login", { json: signed({ id: 31337, first_name: "Mallory", auth_date: now() }), headers: SAME_ORIGIN });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe("FORBIDDEN");
    expect(res.headers.getSetCookie().some((c) => c.startsWith("connect.sid="))).toBe(false);
  });

  test("with the state cookie from login-state the browser logs in, and the state is cleared", async () => {
    const state = await loginState();
    const res = await t.call("POST", "/api/auth/messenger-login", { json: signed({ id: 9001, first_name: "Ivan", auth_date: now() }), headers: SAME_ORIGIN, cookie: state });
    expect(res.status).toBe(200);
    const cleared = res.headers.getSetCookie().find((c) => c.startsWith("login_state="))!;
    expect(cleared).toContain("Max-Age=0");
  });

  test("the state cookie is httpOnly, SameSite=Strict, scoped to /api/auth and short-lived", async () => {
    const res = await t.call("POST", "/api/auth/login-state", { headers: SAME_ORIGIN });
    const c = res.headers.getSetCookie().find((x) => x.startsWith("login_state="))!;
    expect(c).toContain("HttpOnly");
    expect(c).toContain("SameSite=Strict");
    expect(c).toContain("Path=/api/auth");
    expect(c).toContain("Max-Age=1800");
  });

  test("a forged, altered or expired state is refused", async () => {
    const payload = () => signed({ id: 31337, first_name: "Mallory", auth_date: now() });
    const state = (await loginState()).split("=")[1];
    const [issued, rand, mac] = decodeURIComponent(state).split(".");
    const variants = [
      "login_state=1.2.3",
      `login_state=${issued}.${rand}.${"0".repeat(64)}`,
      `login_state=${Number(issued) - 3600}.${rand}.${mac}`,
      `login_state=${encodeURIComponent(`${issued}.${rand}x.${mac}`)}`,
      `login_state=${"a".repeat(300)}`,
    ];
    for (const cookie of variants) {
      const res = await t.call("POST", "/api/auth/messenger-login", { json: payload(), headers: SAME_ORIGIN, cookie });
      expect(res.status, cookie).toBe(403);
    }
    // A state this server signed over an hour ago (the HMAC is right, the time is not).
    const { LoginState } = await import("../../src/modules/auth/login-state");
    const stale = new LoginState(t.ctx.config.sessionSecret).issue(now() - 3600);
    expect((await t.call("POST", "/api/auth/messenger-login", { json: payload(), headers: SAME_ORIGIN, cookie: `login_state=${encodeURIComponent(stale)}` })).status).toBe(403);
  });

  test("API clients (no Origin, no Sec-Fetch-Site) need no state cookie (docs/api.md)", async () => {
    expect((await t.call("POST", "/api/auth/messenger-login", { json: signed({ id: 4242, first_name: "Bot", auth_date: now() }) })).status).toBe(200);
  });
});

describe("no login from a page of another site", () => {
  const foreign: Record<string, string>[] = [
    { origin: "https://evil.example" },
    { origin: "null" },
    { origin: "https://evil.example", "sec-fetch-site": "cross-site" },
    { "sec-fetch-site": "cross-site" },
    { "sec-fetch-site": "same-site", origin: "http://sub.localhost" },
  ];
  for (const headers of foreign) {
    test(`login-state, dev-login and messenger-login refuse ${JSON.stringify(headers)}`, async () => {
      expect((await t.call("POST", "/api/auth/login-state", { headers })).status).toBe(403);
      const state = await loginState();
      const widget = await t.call("POST", "/api/auth/messenger-login", { json: signed({ id: 31337, first_name: "Mallory", auth_date: now() }), headers, cookie: state });
      expect(widget.status).toBe(403);
      await t.ctx.settings.update({ auth: { loginMode: "dev_login" } });
      const dev = await t.call("POST", "/api/auth/dev-login", { json: { userId: 31337 }, headers });
      expect(dev.status).toBe(403);
      expect(dev.headers.getSetCookie().some((c) => c.startsWith("connect.sid="))).toBe(false);
    });
  }

  test("our own origin (Host header) is accepted without Sec-Fetch-Site", async () => {
    await t.ctx.settings.update({ auth: { loginMode: "dev_login" } });
    expect((await t.call("POST", "/api/auth/dev-login", { json: { userId: 5 }, headers: { origin: "http://localhost" } })).status).toBe(200);
  });
});
