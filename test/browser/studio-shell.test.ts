// The Studio shell in Chromium: dev login, the projects page, creating a project, its page; after a
// login `?next=` leads only to a path of this site (docs/security.md#login), table-driven with the
// addresses that left the site before (issue 29 item 10).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createTestApp, setUp, type TestApp } from "../support/app";
import { haveChromium, launchBrowser, warnIfNoChromium, type Browser } from "../support/browser";

warnIfNoChromium("studio shell");

describe.skipIf(!haveChromium)("studio shell in Chromium", () => {
  let t: TestApp;
  let base: string;
  let b: Browser;

  beforeAll(async () => {
    t = createTestApp();
    await setUp(t);
    t.app.listen({ port: 0, hostname: "127.0.0.1" });
    base = `http://127.0.0.1:${t.app.server!.port}`;
    b = await launchBrowser();
  }, 60_000);

  afterAll(async () => {
    await b?.close();
    await t?.app.server?.stop(true);
    t?.cleanup();
  });

  test("a guest is sent to the login page, logs in with dev login and lands on the projects", async () => {
    const { page } = b;
    await page.goto(`${base}/projects`);
    await page.waitForURL(/\/login\?next=/);
    await page.getByLabel("User id").fill("4242");
    await page.getByLabel("First name").fill("Ada");
    await page.getByRole("button", { name: "Log in" }).click();
    await page.waitForURL(`${base}/projects`);
    await expect(page.getByTestId("user-name").textContent()).resolves.toBe("Ada");
  }, 30_000);

  test("create a project and open its page", async () => {
    const { page } = b;
    // a project needs a name: without one the button says so instead of doing nothing
    const create = page.getByRole("button", { name: "New project" });
    expect(await create.isDisabled()).toBe(true);
    expect(await create.getAttribute("title")).toBe("Type a name for the project first");
    await page.getByPlaceholder("Project name").fill("   ");
    expect(await create.isDisabled()).toBe(true);
    await page.getByPlaceholder("Project name").fill("Pizza bot");
    await page.getByRole("button", { name: "New project" }).click();
    await page.waitForURL(/\/projects\/\d+$/);
    await page.getByRole("heading", { name: "Pizza bot" }).waitFor();
    expect(b.errors).toEqual([]);
    expect(b.requests.filter((u) => u.startsWith(`${base}/api/`)).length).toBeGreaterThan(2);
    expect(b.requests.filter((u) => !u.startsWith(base) && !u.startsWith("data:"))).toEqual([]);
  }, 30_000);

  const nextCases: [string, string, string][] = [
    ["backslash", "/%5Cevil.example", "/projects"],
    ["tab", "/%09/evil.example", "/projects"],
    ["protocol-relative", "//evil.example", "/projects"],
    ["absolute URL", "https%3A%2F%2Fevil.example%2F", "/projects"],
    ["a page of the app", "%2Faccount", "/account"],
  ];
  for (const [name, next, lands] of nextCases) {
    test(`next after dev login, ${name}: lands on ${lands}`, async () => {
      const { page } = b;
      await b.context.clearCookies();
      await page.goto(`${base}/login?next=${next}`);
      await page.getByLabel("User id").fill("4242");
      await page.getByRole("button", { name: "Log in" }).click();
      await page.waitForURL((u) => u.pathname === lands || u.origin !== base);
      expect(new URL(page.url()).origin).toBe(base);
      expect(new URL(page.url()).pathname).toBe(lands);
    }, 30_000);
  }
});
