// A wrong address opened in Chromium (docs/studio.md#addresses-the-app-does-not-have): the server
// answers the app's page with status 404 where it answered its JSON 404 body, and the app shows its
// own "Page not found" in the person's language; an app path naming no project (/projects/x/…),
// which loaded forever, is not found too.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createTestApp, loginAs, setUp, type TestApp } from "../support/app";
import { haveChromium, signedInBrowser, warnIfNoChromium, type Browser } from "../support/browser";

warnIfNoChromium("not-found page");

describe.skipIf(!haveChromium)("a wrong address in the browser", () => {
  let t: TestApp;
  let base: string;
  let b: Browser;

  beforeAll(async () => {
    t = createTestApp();
    await setUp(t);
    const cookie = await loginAs(t, 5151, { firstName: "Nia" });
    t.app.listen({ port: 0, hostname: "127.0.0.1" });
    base = `http://127.0.0.1:${t.app.server!.port}`;
    b = await signedInBrowser(base, cookie);
  }, 60_000);

  afterAll(async () => {
    await b?.close();
    await t?.app.server?.stop(true);
    t?.cleanup();
  });

  const cases = [
    ["en", "light", { width: 1280, height: 800 }, "Page not found", "Projects"],
    ["ru", "dark", { width: 390, height: 844 }, "Страница не найдена", "Проекты"],
  ] as const;
  for (const [lang, scheme, viewport, heading, link] of cases) {
    test(`${lang}, ${scheme}, ${viewport.width} px: /nope is a 404 that shows the app's not-found page, and so is /projects/x/y/z/w`, async () => {
      const { page } = b;
      await page.setViewportSize(viewport);
      await page.emulateMedia({ colorScheme: scheme });
      await page.goto(`${base}/`);
      await page.evaluate((l) => localStorage.setItem("botloom.lang", l), lang);
      const res = await page.goto(`${base}/nope`);
      expect(res!.status()).toBe(404);
      expect(res!.headers()["content-type"]).toStartWith("text/html");
      await page.getByRole("heading", { name: heading }).waitFor();
      expect(await page.getByRole("link", { name: link, exact: true }).count()).toBeGreaterThan(0);
      await page.screenshot({ path: `/tmp/preview-shots/not-found-${viewport.width}-${scheme}-${lang}.png` });

      await page.goto(`${base}/projects/x/y/z/w`);
      await page.getByRole("heading", { name: heading }).waitFor();
      // back to the projects from there
      await page.locator("main, body").getByRole("link", { name: link, exact: true }).last().click();
      await page.waitForURL(`${base}/projects`);
      // the browser's own report of the page's 404 is the only console error
      expect(b.errors.filter((e) => !(e.includes("status of 404") && e.includes("/nope")))).toEqual([]);
      b.errors.length = 0;
    }, 45_000);
  }
});
