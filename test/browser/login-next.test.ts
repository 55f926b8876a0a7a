// docs/security.md "Login": after a dev login, `?next=` leads only to a path of this site. Table of
// the addresses that left the site before (issue 29 item 10), as a person would open them.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createTestApp, setUp, type TestApp } from "../support/app";
import { haveChromium, launchBrowser, warnIfNoChromium, type Browser } from "../support/browser";

warnIfNoChromium("login next");

const cases: [string, string, string][] = [
  ["backslash", "/%5Cevil.example", "/projects"],
  ["tab", "/%09/evil.example", "/projects"],
  ["protocol-relative", "//evil.example", "/projects"],
  ["absolute URL", "https%3A%2F%2Fevil.example%2F", "/projects"],
  ["a page of the app", "%2Faccount", "/account"],
];

describe.skipIf(!haveChromium)("next after dev login in Chromium", () => {
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

  for (const [name, next, lands] of cases) {
    test(`${name}: lands on ${lands}`, async () => {
      await b.context.clearCookies();
      await b.page.goto(`${base}/login?next=${next}`);
      await b.page.getByLabel("User id").fill("4242");
      await b.page.getByRole("button", { name: "Log in" }).click();
      await b.page.waitForURL((u) => u.pathname === lands || u.origin !== base);
      expect(new URL(b.page.url()).origin).toBe(base);
      expect(new URL(b.page.url()).pathname).toBe(lands);
    }, 30_000);
  }
});
