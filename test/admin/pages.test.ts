import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import hubScript from "../../assets/admin/hub.js" with { type: "text" };
import { adminLogin, createTestApp, loginAs, setUp, type TestApp } from "../support/app";

let t: TestApp;
let admin: string;
beforeAll(async () => {
  t = createTestApp();
  await setUp(t);
  admin = await adminLogin(t);
});
afterAll(() => t.cleanup());

describe("admin pages", () => {
  test("without an admin session, hub and settings redirect to the login page (a user session does not count)", async () => {
    const user = await loginAs(t, 9);
    for (const path of ["/admin", "/admin/", "/admin/settings"]) {
      for (const cookie of [undefined, user, "admin_auth=1.abc"]) {
        const r = await t.call("GET", path, { cookie });
        expect([path, r.status, r.headers.get("location")]).toEqual([path, 302, "/admin/login"]);
      }
    }
    expect((await t.call("GET", "/admin/login")).status).toBe(200);
  });

  test("the hub: every section, the script inline, no external resources, strict headers", async () => {
    const r = await t.call("GET", "/admin", { cookie: admin });
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toContain("text/html");
    expect(r.headers.get("cache-control")).toBe("no-store");
    expect(r.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    for (const id of ["version", "users", "templates", "bot-folders", "pats", "storage"]) expect(r.text).toContain(`<section id="${id}"`);
    expect(r.text).toContain(hubScript.trim().slice(0, 80));
    expect(r.text).not.toMatch(/<script[^>]+src=/);
    expect(r.text).not.toMatch(/https?:\/\/(?!example)/);
    // results are announced to screen readers
    expect(r.text.match(/aria-live="polite"/g)!.length).toBeGreaterThanOrEqual(6);
  });

  test("the embedded script cannot end its own <script> element early", () => {
    expect(/<\/script/i.test(hubScript)).toBe(false);
    // API data goes in with textContent only
    expect(/\.(innerHTML|outerHTML)\b|insertAdjacentHTML|document\.write/.test(hubScript)).toBe(false);
  });

  test("every input of the hub has a label", async () => {
    const html = (await t.call("GET", "/admin", { cookie: admin })).text;
    const inputs = html.match(/<(input|select)\b[^>]*>/g)!;
    for (const tag of inputs) {
      const before = html.slice(0, html.indexOf(tag));
      // the control sits inside a <label> that is still open where it appears
      expect([tag, before.lastIndexOf("<label") > before.lastIndexOf("</label>")]).toEqual([tag, true]);
    }
  });
});

describe("settings page (first run)", () => {
  test("dev login completes the setup and goes to the hub; an incomplete widget setup is refused with a clear message", async () => {
    const n = createTestApp();
    try {
      const cookie = await adminLogin(n);
      const first = await n.call("GET", "/admin/settings", { cookie });
      expect(first.text).toContain("Welcome!");
      const widget = await n.call("POST", "/admin/settings", { cookie, body: new URLSearchParams({ loginMode: "messenger_widget", clientId: "", botToken: "" }) });
      expect(widget.status).toBe(400);
      expect(widget.text).toContain('role="alert"');
      expect(widget.text).toContain("Client id and Bot token required when Login mode is Messenger Login Widget");
      expect(n.ctx.settings.isSetUp()).toBe(false);
      const dev = await n.call("POST", "/admin/settings", { cookie, body: new URLSearchParams({ loginMode: "dev_login" }) });
      expect([dev.status, dev.headers.get("location")]).toEqual([302, "/admin"]);
      expect(n.ctx.settings.isSetUp()).toBe(true);
      const bad = await n.call("POST", "/admin/settings", { cookie, body: new URLSearchParams({ loginMode: "nonsense" }) });
      expect(bad.status).toBe(400);
      expect(bad.text).toContain('role="alert"');
    } finally {
      n.cleanup();
    }
  });
});

describe("settings page: what the admin sees after a refused or accepted save", () => {
  test("a refused save keeps the typed values (never secrets), names fields by their labels and marks the faulty ones", async () => {
    const n = createTestApp();
    try {
      const cookie = await adminLogin(n);
      const form = { loginMode: "messenger_widget", clientId: "4242", botToken: "", clientSecret: "typed-secret-value", botUsername: "my_login_bot" };
      const r = await n.call("POST", "/admin/settings", { cookie, body: new URLSearchParams(form) });
      expect(r.status).toBe(400);
      expect(r.text).toContain("Not saved: Bot token required when Login mode is Messenger Login Widget");
      expect(r.text).toMatch(/<option value="messenger_widget" selected>/);
      expect(r.text).toContain('value="4242"');
      expect(r.text).toContain('value="my_login_bot"');
      expect(r.text).not.toContain("typed-secret-value");
      // the missing field is marked and points at the message; the condition (login mode) is not
      const tag = (name: string) => r.text.match(new RegExp(`<(?:input|select) name="${name}"[^>]*>`))![0];
      expect(tag("botToken")).toContain('aria-invalid="true" aria-describedby="settings-error"');
      expect(tag("clientId")).not.toContain("aria-invalid");
      expect(tag("loginMode")).not.toContain("aria-invalid");
      expect(r.text).toContain('id="settings-error" role="alert"');
      // the typed secret must be entered again, and the page says so next to that field only
      const hints = [...r.text.matchAll(/<label>(Bot token|Client secret) <span class="hint">([^<]*)</g)].map((m) => [m[1], m[2]]);
      expect(hints).toEqual([
        ["Bot token", "not set"],
        ["Client secret", "optional (what you typed was not saved: enter it again)"],
      ]);
      expect(n.ctx.settings.isSetUp()).toBe(false);
    } finally {
      n.cleanup();
    }
  });

  test("first run ends on the hub; a later save stays on the settings page and says Saved.", async () => {
    const n = createTestApp();
    try {
      const cookie = await adminLogin(n);
      const before = await n.call("GET", "/admin/settings", { cookie });
      expect(before.text).not.toContain("Saved.");
      expect(before.text).toContain('<a href="/admin/settings" aria-current="page">Settings</a>');
      const first = await n.call("POST", "/admin/settings", { cookie, body: new URLSearchParams({ loginMode: "dev_login" }) });
      expect([first.status, first.headers.get("location")]).toEqual([302, "/admin"]);
      const later = await n.call("POST", "/admin/settings", { cookie, body: new URLSearchParams({ loginMode: "dev_login", clientId: "77" }) });
      expect([later.status, later.headers.get("location")]).toEqual([302, "/admin/settings?saved=1"]);
      const shown = await n.call("GET", "/admin/settings?saved=1", { cookie });
      expect(shown.text).toContain('<p class="ok" role="status">Saved.</p>');
      expect(shown.text).toContain('value="77"');
      expect(shown.text).not.toContain("Welcome!");
    } finally {
      n.cleanup();
    }
  });

  test("login page: a wrong key marks the field; no favicon request; pages name the current page in the nav", async () => {
    const wrong = await t.call("GET", "/admin/login?error=1");
    expect(wrong.text).toMatch(/<input name="key"[^>]*aria-invalid="true" aria-describedby="login-error"/);
    expect((await t.call("GET", "/admin/login")).text).toMatch(/<input name="key" type="password" autocomplete="current-password" required autofocus>/);
    expect(wrong.text).toContain('<link rel="icon" href="data:,">');
    const hub = await t.call("GET", "/admin", { cookie: admin });
    expect(hub.text).toContain('<a href="/admin" aria-current="page">Hub</a>');
    expect(hub.text).not.toContain('href="/admin/settings" aria-current');
    // after setup the way on leads to the Studio
    expect(hub.text).toContain('<a href="/">Open the Studio</a>');
  });
});
