// A wrong address opened in Chromium (docs/studio.md#addresses-the-app-does-not-have): the server
// answers the app's page with status 404 where it answered its JSON 404 body, and the app shows its
// own "Page not found" in the person's language; an app path naming no project (/projects/x/…),
// which loaded forever, is not found too, and so is a project's tab it does not have (it opened the
// first tab).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createTestApp, loginAs, setUp, type TestApp } from "../support/app";
import { haveChromium, signedInBrowser, warnIfNoChromium, type Browser } from "../support/browser";

warnIfNoChromium("not-found page");

describe.skipIf(!haveChromium)("a wrong address in the browser", () => {
  let t: TestApp;
  let base: string;
  let b: Browser;
  let cookie: string;

  beforeAll(async () => {
    t = createTestApp();
    await setUp(t);
    cookie = await loginAs(t, 5151, { firstName: "Nia" });
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

  // a project's address with a tab it does not have opened its first tab as if the address were right
  const looks = [
    [{ width: 390, height: 844 }, "light"],
    [{ width: 390, height: 844 }, "dark"],
    [{ width: 1280, height: 800 }, "light"],
    [{ width: 1280, height: 800 }, "dark"],
  ] as const;
  for (const [viewport, scheme] of looks) {
    test(`${scheme}, ${viewport.width} px: a project's unknown tab, or a path under a tab, is not found; its tabs open`, async () => {
      const { page } = b;
      await page.setViewportSize(viewport);
      await page.emulateMedia({ colorScheme: scheme });
      await page.goto(`${base}/`);
      await page.evaluate(() => localStorage.setItem("botloom.lang", "en"));
      const { id } = (await t.call("POST", "/api/projects", { cookie, json: { name: "Known" } })).body;
      for (const path of [`/projects/${id}/nope`, `/projects/${id}/logs/x`]) {
        await page.goto(`${base}${path}`);
        await page.getByRole("heading", { name: "Page not found" }).waitFor();
        expect(await page.getByRole("navigation", { name: "Project sections" }).count()).toBe(0);
        if (path.endsWith("nope")) await page.screenshot({ path: `/tmp/preview-shots/unknown-tab-${viewport.width}-${scheme}.png` });
      }
      await page.goto(`${base}/projects/${id}/logs`);
      await page.getByRole("heading", { name: "Known" }).waitFor();
      const sections = page.getByRole("navigation", { name: "Project sections" });
      expect(await sections.getByRole("link", { name: "Logs", exact: true }).getAttribute("aria-current")).toBe("page");
      expect(await page.getByRole("heading", { name: "Page not found" }).count()).toBe(0);
      expect(b.errors).toEqual([]);
    }, 45_000);
  }
});
