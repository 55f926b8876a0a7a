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
      expect(widget.text).toContain("clientId and botToken required");
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
