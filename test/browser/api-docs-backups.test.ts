// In Chromium against a real server on 127.0.0.1: the API reference at /api/docs renders its
// operations with every request to another host refused, and the hub's backups section lists,
// makes and downloads backups. Skipped (with a message) only when /usr/bin/chromium is absent.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { ADMIN_KEY, createTestApp, setUp, type TestApp } from "../support/app";

const CHROMIUM = "/usr/bin/chromium";
const haveChromium = existsSync(CHROMIUM);
if (!haveChromium) console.warn(`[browser tests] SKIPPED: ${CHROMIUM} not found (apt-get install -y chromium)`);

describe.skipIf(!haveChromium)("API docs and backups in Chromium", () => {
  let t: TestApp;
  let base: string;
  let profile: string;
  let browser: BrowserContext;
  let page: Page;
  const pageErrors: string[] = [];
  const foreign: string[] = [];
  const cspViolations: string[] = [];

  beforeAll(async () => {
    t = createTestApp({ fileDb: true });
    await setUp(t);
    t.app.listen({ port: 0, hostname: "127.0.0.1" });
    base = `http://127.0.0.1:${t.app.server!.port}`;
    const { chromium } = await import("playwright-core");
    profile = mkdtempSync(join(tmpdir(), "botloom-chromium-"));
    browser = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      acceptDownloads: true,
      args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    });
    browser.setDefaultTimeout(15_000);
    // The network beyond this server does not exist for the page: every such request is refused and noted.
    await browser.route("**/*", (route) => {
      const url = new URL(route.request().url());
      if (url.protocol === "data:" || (url.hostname === "127.0.0.1" && url.port === String(t.app.server!.port))) return route.continue();
      foreign.push(route.request().url());
      return route.abort("blockedbyclient");
    });
    page = browser.pages()[0] ?? (await browser.newPage());
    page.on("pageerror", (e) => pageErrors.push(e.message));
    page.on("console", (m) => {
      if (/Content.Security.Policy/i.test(m.text())) cspViolations.push(m.text());
    });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await t?.app.server?.stop(true);
    t?.cleanup();
    if (profile) rmSync(profile, { recursive: true, force: true });
  });

  test("/api/docs renders the operations from files of this server alone, under a CSP without inline scripts", async () => {
    await page.setViewportSize({ width: 1280, height: 800 });
    const res = await page.goto(`${base}/api/docs`);
    expect(res!.status()).toBe(200);
    expect(res!.headers()["content-security-policy"]).toContain("script-src 'self';");
    // The page opens on the modules' groups, closed: no flat list of every operation.
    const groups = page.locator(".opblock-tag");
    await groups.first().waitFor();
    expect(await groups.allTextContents()).toEqual(expect.arrayContaining([expect.stringContaining("Projects"), expect.stringContaining("Dialogs"), expect.stringContaining("Admin")]));
    expect(await page.locator(".opblock").count()).toBe(0);
    // Opening a group shows its operations, with their paths, and only its own.
    const open = async (tag: string, path: string) => {
      const header = page.locator(`.opblock-tag[data-tag="${tag}"]`);
      await header.click();
      await page.locator(".opblock-tag-section", { has: header }).locator(".opblock-summary-path", { hasText: path }).first().waitFor();
    };
    await open("Projects", "/api/projects/{id}");
    await open("Bots", "/api/bot/tokens/{tokenId}/start");
    await open("Admin", "/admin/api/backups");
    expect(await page.locator(".opblock-tag-section.is-open").count()).toBe(3);
    expect(await page.locator(".opblock-summary-path", { hasText: "/api/bot/tokens/{tokenId}/chats" }).count()).toBe(0);
    // Opening one shows its details (the viewer's scripts work, not just its first paint).
    await page.locator(`.opblock-tag[data-tag="Health"]`).click();
    await page.locator(".opblock-summary", { hasText: "/api/health" }).first().click();
    await page.locator(".opblock-body").first().waitFor();
    expect(await page.locator("script:not([src])").count()).toBe(0);
    expect(foreign).toEqual([]);
    expect(cspViolations).toEqual([]);
    expect(pageErrors).toEqual([]);
  }, 60_000);

  test("/api/openapi.json downloads; /api/docs/json, its older address, redirects there", async () => {
    const doc = await fetch(`${base}/api/openapi.json`);
    expect(doc.status).toBe(200);
    expect((await doc.json()).info.title).toBe("Botloom API");
    const old = await fetch(`${base}/api/docs/json`, { redirect: "manual" });
    expect(old.status).toBe(301);
    expect(old.headers.get("location")).toBe("/api/openapi.json");
    for (const [path, type] of [["/api/docs/swagger-ui-bundle.js", "text/javascript"], ["/api/docs/swagger-ui.css", "text/css"], ["/api/docs/init.js", "text/javascript"]]) {
      const r = await fetch(base + path);
      expect([path, r.status, r.headers.get("content-type")?.split(";")[0]]).toEqual([path, 200, type]);
      expect((await r.text()).length).toBeGreaterThan(100);
    }
  });

  test("the hub lists backups, makes one now and downloads it", async () => {
    await page.goto(`${base}/admin/login`);
    await page.getByLabel("Admin key").fill(ADMIN_KEY);
    await page.getByRole("button", { name: "Log in" }).click();
    await page.waitForURL(`${base}/admin`);
    const section = page.locator("#backups");
    await section.getByText("No backups yet.").waitFor();
    await section.getByText(/Scheduled \(0 3 \* \* \*, server time\); next: .+\. The newest 7 are kept\./).waitFor();
    await section.getByRole("button", { name: "Back up now" }).click();
    await section.getByText(/Backup botloom-\d{8}-\d{6}\.tar\.gz made \(.+, 0 project database\(s\)\)\./).waitFor();
    const rows = section.locator("tbody tr");
    expect(await rows.count()).toBe(1);
    const name = t.ctx.backups.list()[0].name;
    await rows.first().getByText(name).waitFor();
    const [download] = await Promise.all([page.waitForEvent("download"), rows.first().getByRole("link", { name: "Download" }).click()]);
    expect(download.suggestedFilename()).toBe(name);
    const saved = join(profile, "downloaded.tar.gz");
    await download.saveAs(saved);
    const files = await new Bun.Archive(new Uint8Array(await Bun.file(saved).arrayBuffer())).files();
    expect([...files.keys()].sort()).toEqual(["botloom.db", "manifest.json"]);
    expect(pageErrors).toEqual([]);
    expect(foreign).toEqual([]);
  }, 60_000);
});
