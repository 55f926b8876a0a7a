// The Telegram Login Widget in redirect mode: the widget sends the browser back to /login with the
// signed fields in the query string; the page posts them to /api/auth/messenger-login once the
// person confirms. The widget script cannot load offline, so the test drives that redirect URL
// with a payload signed as docs/api.md#authentication says (secret = SHA-256(bot token),
// HMAC-SHA-256 of the sorted data-check-string). docs/security.md#login: a link opened in a
// browser that did not begin the login (the victim of a login CSRF) never logs that browser in.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createHash, createHmac } from "node:crypto";
import { createTestApp, type TestApp } from "../support/app";
import { haveChromium, launchBrowser, warnIfNoChromium, type Browser } from "../support/browser";

warnIfNoChromium("studio widget login");
const BOT_TOKEN = "123456:ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghi";

function signedQuery(fields: Record<string, string | number>): string {
  const check = Object.keys(fields).sort().map((k) => `${k}=${fields[k]}`).join("\n");
  const hash = createHmac("sha256", createHash("sha256").update(BOT_TOKEN).digest()).update(check).digest("hex");
  return new URLSearchParams({ ...Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, String(v)])), hash }).toString();
}

describe.skipIf(!haveChromium)("widget login in Chromium", () => {
  let t: TestApp;
  let base: string;
  let b: Browser;

  beforeAll(async () => {
    t = createTestApp();
    t.ctx.db.$client.exec(`insert or replace into app_settings (key, value) values ('auth', '{"loginMode":"messenger_widget"}')`);
    t.ctx.db.$client.exec(`insert or replace into app_settings (key, value) values ('messenger', '${JSON.stringify({ clientId: "123456", botToken: BOT_TOKEN, botUsername: "loginbot", clientSecret: "" })}')`);
    t.ctx.settings.reload();
    t.app.listen({ port: 0, hostname: "127.0.0.1" });
    base = `http://127.0.0.1:${t.app.server!.port}`;
    b = await launchBrowser();
  }, 60_000);

  afterAll(async () => {
    await b?.close();
    await t?.app.server?.stop(true);
    t?.cleanup();
  });

  test("a tampered payload is refused in words and the user stays logged out", async () => {
    const now = Math.floor(Date.now() / 1000);
    const q = signedQuery({ id: 31337, first_name: "Mallory", auth_date: now }).replace("Mallory", "Eve");
    // This browser begins the login (so the refusal is the signature's, not the missing state's).
    await b.context.route(/telegram\.org/, (r) => r.abort());
    const started = b.page.waitForResponse((r) => r.url().endsWith("/api/auth/login-state"));
    await b.page.goto(`${base}/login`);
    expect((await started).status()).toBe(200);
    await b.page.goto(`${base}/login?${q}`);
    await b.page.getByTestId("widget-confirm").getByRole("button", { name: "Log in" }).click();
    const alert = b.page.getByRole("alert");
    await alert.waitFor();
    expect(await alert.textContent()).toContain("could not be verified");
    expect(await alert.textContent()).not.toContain("{");
    expect((await b.context.cookies(base)).some((c) => c.name === "connect.sid")).toBe(false);
  }, 30_000);

  test("a victim opening an attacker's signed link is not logged in as the attacker", async () => {
    const victim = await launchBrowser();
    try {
      await victim.context.route(/telegram\.org/, (r) => r.abort());
      const now = Math.floor(Date.now() / 1000);
      // The attacker signed this with their own account and sends the link to the victim.
      const link = `${base}/login?${signedQuery({ id: 31337, first_name: "Mallory", auth_date: now })}`;
      await victim.page.goto(link);
      const confirm = victim.page.getByTestId("widget-confirm");
      await confirm.waitFor();
      // Nothing happened by itself: the page names the account and waits for the person.
      expect(await confirm.textContent()).toContain("Mallory");
      expect(victim.page.url()).toBe(`${base}/login`);
      const cookies = async () => (await victim.context.cookies(base)).map((c) => c.name);
      expect(await cookies()).not.toContain("connect.sid");
      expect((await victim.page.request.get(`${base}/api/auth/me`)).status()).toBe(401);
      // Even a click does not help: this browser never began a login.
      await confirm.getByRole("button", { name: "Log in" }).click();
      await victim.page.getByRole("alert").waitFor();
      expect(await cookies()).not.toContain("connect.sid");
      expect((await victim.page.request.get(`${base}/api/auth/me`)).status()).toBe(401);
    } finally {
      await victim.close();
    }
  }, 30_000);

  test("a correctly signed redirect logs the user in after confirming and lands on the projects", async () => {
    // The widget's script (telegram.org) is the one foreign request the page may make; offline it fails.
    await b.context.route(/telegram\.org/, (r) => r.abort());
    // The login page begins the flow (the state cookie), then the widget sends the browser back.
    const started = b.page.waitForResponse((r) => r.url().endsWith("/api/auth/login-state"));
    await b.page.goto(`${base}/login?next=${encodeURIComponent("/projects")}`);
    expect((await started).status()).toBe(200);
    const now = Math.floor(Date.now() / 1000);
    await b.page.goto(`${base}/login?next=${encodeURIComponent("/projects")}&${signedQuery({ id: 9001, first_name: "Ivan", last_name: "Petrov", username: "ivanp", auth_date: now })}`);
    await b.page.getByTestId("widget-confirm").getByRole("button", { name: "Log in" }).click();
    await b.page.waitForURL(`${base}/projects`);
    await b.page.getByTestId("user-name").waitFor();
    expect(await b.page.getByTestId("user-name").textContent()).toBe("Ivan Petrov");
    const me = await (await b.page.request.get(`${base}/api/auth/me`)).json();
    expect(me.user).toMatchObject({ id: 9001, username: "ivanp" });
  }, 30_000);
});
