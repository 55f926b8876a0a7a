// The admin pages in a real browser: Debian's Chromium driven by playwright-core against a real
// server on 127.0.0.1. Skipped (with a message) only when /usr/bin/chromium is absent.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import type { BrowserContext, Page } from "playwright-core";
import { projects, templates } from "../../src/db/schema";
import { VERSION } from "../../src/version";
import { ADMIN_KEY, createTestApp, type TestApp } from "../support/app";

const CHROMIUM = "/usr/bin/chromium";
const haveChromium = existsSync(CHROMIUM);
if (!haveChromium) console.warn(`[browser tests] SKIPPED: ${CHROMIUM} not found (apt-get install -y chromium)`);

describe.skipIf(!haveChromium)("admin pages in Chromium", () => {
  let t: TestApp;
  let base: string;
  let profile: string;
  let browser: BrowserContext;
  let page: Page;
  let versionServer: ReturnType<typeof Bun.serve>;
  const pageErrors: string[] = [];
  const newer = VERSION.version.replace(/\d+$/, (d) => String(Number(d) + 1));

  beforeAll(async () => {
    versionServer = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      fetch: () => Response.json({ version: newer, releasedAt: "2031-02-03", notesUrl: "https://example.org/notes" }),
    });
    t = createTestApp({ env: { UPDATE_CHECK_URL: `http://127.0.0.1:${versionServer.port}/version.json` } });
    t.app.listen({ port: 0, hostname: "127.0.0.1" });
    base = `http://127.0.0.1:${t.app.server!.port}`;
    t.ctx.auth.upsertUser({ id: 5001, firstName: "Zelda", lastName: "Hyrule", username: "zelda_h" });
    t.ctx.auth.upsertUser({ id: 5002, firstName: "Link", username: "link" });
    t.ctx.auth.upsertUser({ id: 987654321012, firstName: "Александра-Кристина", lastName: "Константинопольская", username: "a_very_long_username_for_layouts" });
    t.ctx.db.insert(projects).values({ ownerId: 5001, name: "Zelda's shop bot", data: JSON.stringify({ sheets: [] }) }).run();
    const { chromium } = await import("playwright-core");
    profile = mkdtempSync(join(tmpdir(), "botloom-chromium-"));
    browser = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    });
    browser.setDefaultTimeout(10_000);
    page = browser.pages()[0] ?? (await browser.newPage());
    page.on("pageerror", (e) => pageErrors.push(e.message));
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await t?.app.server?.stop(true);
    versionServer?.stop(true);
    t?.cleanup();
    if (profile) rmSync(profile, { recursive: true, force: true });
  });

  test("without a session every page but the login page redirects to it", async () => {
    for (const path of ["/admin", "/admin/settings"]) {
      await page.goto(base + path);
      expect(new URL(page.url()).pathname).toBe("/admin/login");
    }
    await page.getByLabel("Admin key").fill("wrong-key");
    await page.getByRole("button", { name: "Log in" }).click();
    await page.getByText("Wrong admin key").waitFor();
  }, 30_000);

  test("log in with the key, first-run settings with dev login, land on the hub", async () => {
    await page.goto(`${base}/admin/login`);
    await page.getByLabel("Admin key").fill(ADMIN_KEY);
    await page.getByRole("button", { name: "Log in" }).click();
    await page.waitForURL(`${base}/admin/settings`);
    await page.getByText("Welcome!").waitFor();
    // a refused save keeps what was typed and marks the missing field next to the message
    await page.getByLabel("Login mode").selectOption("messenger_widget");
    await page.getByLabel(/^Client id/).fill("4242");
    await page.getByRole("button", { name: "Save settings" }).click();
    await page.getByRole("alert").getByText("Not saved: Bot token required when Login mode is Messenger Login Widget").waitFor();
    expect(await page.getByLabel("Login mode").inputValue()).toBe("messenger_widget");
    expect(await page.getByLabel(/^Client id/).inputValue()).toBe("4242");
    expect(await page.getByLabel(/^Bot token/).getAttribute("aria-invalid")).toBe("true");
    expect(await page.getByLabel(/^Client id/).getAttribute("aria-invalid")).toBeNull();
    await page.getByLabel("Login mode").selectOption("dev_login");
    await page.getByRole("button", { name: "Save settings" }).click();
    await page.waitForURL(`${base}/admin`);
    expect(t.ctx.settings.isSetUp()).toBe(true);
    // people read "0.1.0", not the API's "0.1.0.0"
    await page.getByText(`Installed: Botloom ${VERSION.version.replace(/\.0$/, "")},`).waitFor();
    await page.getByText(`Update available: ${newer}`).waitFor();
    expect(await page.getByRole("link", { name: "How to upgrade" }).getAttribute("href")).toMatch(/^https:/);
  }, 30_000);

  test("search a user and open the user's card", async () => {
    await page.getByLabel("Search").fill("@zelda");
    await page.getByRole("button", { name: "Search", exact: true }).click();
    await page.getByText("1 user matching “@zelda”.").waitFor();
    const rows = page.locator("#users-table tbody tr");
    expect(await rows.count()).toBe(1);
    expect(await rows.first().textContent()).toContain("Zelda Hyrule");
    await page.getByRole("button", { name: "Open user 5001" }).click();
    await page.locator("#user-card").getByText("Zelda's shop bot").waitFor();
    expect(await page.locator("#user-card h3").textContent()).toBe("Zelda Hyrule (5001)");
    // closing the card gives focus back to the button that opened it
    await page.locator("#user-card").getByRole("button", { name: "Close" }).click();
    expect(await page.locator("#user-card").isHidden()).toBe(true);
    expect(await page.evaluate(() => document.activeElement?.getAttribute("aria-label"))).toBe("Open user 5001");
    await page.getByLabel("Search").fill("no-such-person");
    await page.getByRole("button", { name: "Search", exact: true }).click();
    await page.getByText("No users match “no-such-person”.").waitFor();
  }, 30_000);

  test("create a bot_manager PAT (shown once), then revoke it", async () => {
    const pats = page.locator("#pats");
    await pats.getByLabel("Name").fill("manager bot");
    await pats.getByLabel("User id").fill("5002");
    await page.getByRole("button", { name: "Create token" }).click();
    await page.getByText("Copy this token now").waitFor();
    const token = (await page.locator("#pat-token").textContent())!;
    expect(token).toMatch(/^mcp_[A-Za-z0-9]+$/);
    expect(t.ctx.auth.resolvePat(token)).toMatchObject({ userId: 5002, scopes: ["bot_manager"] });
    const row = page.locator("#pats-table tbody tr", { hasText: "manager bot" });
    await row.waitFor();
    expect(await row.textContent()).toContain("bot_manager");
    page.once("dialog", (d) => void d.accept());
    await page.getByRole("button", { name: /^Revoke token manager bot/ }).click();
    await page.getByText(/Token “manager bot” \(#\d+\) revoked\./).waitFor();
    // The message comes before the table's reload: wait for the row to go rather than count at once.
    await page.locator("#pats-table tbody tr", { hasText: "manager bot" }).waitFor({ state: "detached" });
    expect(t.ctx.auth.resolvePat(token)).toBeNull();
  }, 30_000);

  test("bad input shows the API's message", async () => {
    const pats = page.locator("#pats");
    await pats.getByLabel("Name").fill("x");
    await pats.getByLabel("User id").fill("0");
    await page.getByRole("button", { name: "Create token" }).click();
    await page.locator("#pats-status.error").getByText("User id must be a positive number").waitFor();
    // passes the browser's `required`, refused by the API: its message is shown
    await pats.getByLabel("Name").fill("   ");
    await pats.getByLabel("User id").fill("5002");
    await page.getByRole("button", { name: "Create token" }).click();
    await page.locator("#pats-status.error").getByText("name is required").waitFor();
  }, 30_000);

  test("toggle a template's featured flag", async () => {
    const id = t.ctx.db.insert(templates).values({ name: "Shop starter", data: JSON.stringify({ sheets: [] }), isPublic: 1 }).returning({ id: templates.id }).get().id;
    await page.getByLabel("Template id").fill(String(id));
    await page.locator("#featured-form").getByLabel("Featured").selectOption("1");
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await page.getByText(`Template “Shop starter” (#${id}) is now featured.`).waitFor();
    const featured = () => t.ctx.db.select({ f: templates.featured }).from(templates).where(eq(templates.id, id)).get()!.f;
    expect(featured()).toBe(1);
    // the catalog list toggles too
    const row = page.locator("#templates-list tr", { hasText: "Shop starter" });
    await row.getByRole("button", { name: "Unfeature" }).click();
    await page.getByText(`Template “Shop starter” (#${id}) is no longer featured.`).waitFor();
    expect(featured()).toBe(0);
    await page.getByRole("button", { name: "Refresh built-in templates" }).click();
    await page.locator("#templates-status.ok").waitFor();
  }, 30_000);

  test("bot folder cleanup shows what was deleted and skipped", async () => {
    mkdirSync(join(t.ctx.config.botsDir, "gone_999999_1"), { recursive: true });
    mkdirSync(join(t.ctx.config.botsDir, "not-a-bot-folder"), { recursive: true });
    await page.getByRole("button", { name: "Clean up bot folders" }).click();
    const status = page.locator("#folders-status.ok");
    await status.getByText("Deleted (1):").waitFor();
    await status.getByText("gone_999999_1").waitFor();
    await status.getByText("not-a-bot-folder").waitFor();
    expect(existsSync(join(t.ctx.config.botsDir, "gone_999999_1"))).toBe(false);
    expect(existsSync(join(t.ctx.config.botsDir, "not-a-bot-folder"))).toBe(true);
  }, 30_000);

  test("storage: create a local config, test it, activate it", async () => {
    const folder = join(t.dir, "media-store");
    mkdirSync(folder, { recursive: true });
    await page.getByText("Add a storage configuration").click();
    const form = page.locator("#storage-form");
    await form.getByLabel("Name").fill("Disk two");
    await form.getByRole("textbox", { name: /^Folder/ }).fill(folder);
    await form.getByRole("button", { name: "Create" }).click();
    await page.getByText(/Created “Disk two”/).waitFor();
    await page.getByRole("button", { name: "Test Disk two" }).click();
    await page.locator("#storage-status.ok").waitFor();
    await page.getByRole("button", { name: "Activate Disk two" }).click();
    await page.getByText("“Disk two” is now the active storage").waitFor();
    await page.getByRole("button", { name: "Deactivate Disk two" }).click();
    await page.getByText("“Disk two” is no longer active").waitFor();
    await page.getByRole("button", { name: "Activate Disk two" }).click();
    await page.getByText("“Disk two” is now the active storage").waitFor();
    // a second config, created and deleted again
    await form.getByLabel("Name").fill("Scratch");
    await form.getByRole("textbox", { name: /^Folder/ }).fill(join(t.dir, "scratch"));
    await form.getByRole("button", { name: "Create" }).click();
    await page.getByText(/Created “Scratch”/).waitFor();
    page.once("dialog", (d) => void d.accept());
    await page.getByRole("button", { name: "Delete Scratch" }).click();
    await page.getByText("“Scratch” deleted.").waitFor();
    expect(await page.getByRole("button", { name: "Delete Scratch" }).count()).toBe(0);
  }, 30_000);

  test("a phone-sized screen in dark mode: nothing wider than the screen, rows as labelled cards, readable messages", async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.emulateMedia({ colorScheme: "dark" });
    try {
      const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      await page.goto(`${base}/admin/settings`);
      expect(await overflow()).toBe(0);
      await page.goto(`${base}/admin`);
      await page.locator("#users-table tbody tr").first().waitFor();
      await page.locator("#storage-table tbody tr").first().waitFor();
      await page.locator("#templates-list tbody tr").first().waitFor();
      expect(await overflow()).toBe(0);
      // a long unbreakable @username wraps inside its cell and inside the user's card
      await page.getByLabel("Search").fill("@a_very");
      await page.getByRole("button", { name: "Search", exact: true }).click();
      await page.getByRole("button", { name: "Open user 987654321012" }).click();
      await page.locator("#user-card h3").waitFor();
      expect(await overflow()).toBe(0);
      // each cell shows its column name; the action cell shows only its buttons
      const firstRow = page.locator("#users-table tbody tr").first();
      const label = (sel: string) => firstRow.locator(sel).evaluate((td) => getComputedStyle(td, "::before").content);
      expect(await label("td:first-child")).toBe('"Id"');
      expect(await label("td.actions")).toBe("none");
      // an error message keeps at least 4.5:1 against the dark page
      await page.locator("#pats").getByLabel("Name").fill("x");
      await page.locator("#pats").getByLabel("User id").fill("0");
      await page.getByRole("button", { name: "Create token" }).click();
      const ratio = await page.locator("#pats-status.error").evaluate((el) => {
        const probe = document.body.appendChild(document.createElement("div"));
        probe.style.backgroundColor = "Canvas";
        const rgb = (c: string) => c.match(/\d+/g)!.slice(0, 3).map(Number);
        const lum = (c: string) => {
          const [r, g, b] = rgb(c).map((v) => (v / 255 <= 0.03928 ? v / 255 / 12.92 : ((v / 255 + 0.055) / 1.055) ** 2.4));
          return 0.2126 * r + 0.7152 * g + 0.0722 * b;
        };
        const [a, b] = [lum(getComputedStyle(el).color), lum(getComputedStyle(probe).backgroundColor)];
        probe.remove();
        return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
      });
      expect(ratio).toBeGreaterThanOrEqual(4.5);
    } finally {
      await page.setViewportSize({ width: 1280, height: 720 });
      await page.emulateMedia({ colorScheme: "light" });
    }
  }, 30_000);

  test("log out; no script errors on the way", async () => {
    await page.getByRole("button", { name: "Log out" }).click();
    await page.waitForURL(`${base}/admin/login`);
    await page.goto(`${base}/admin`);
    expect(new URL(page.url()).pathname).toBe("/admin/login");
    expect(pageErrors).toEqual([]);
  }, 30_000);
});
