// The Studio's Trash view and leaving a project (docs/api.md "Trash", "Leaving a project"): the
// owner deletes, finds the project in the Trash with its purge date and restores it; a
// collaborator sees Leave instead of Delete and leaves. Screenshots of the Trash view (1280 and
// 390 px, light and dark) go to $SHOTS_DIR when it is set, for review by eye.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { createTestApp, loginAs, setUp, type TestApp } from "../support/app";
import { haveChromium, launchBrowser, warnIfNoChromium, type Browser } from "../support/browser";

warnIfNoChromium("studio trash");
const OWNER = 5101;
const COLLAB = 5102;

describe.skipIf(!haveChromium)("trash and leave in Chromium", () => {
  let t: TestApp;
  let base: string;
  let ownerCookie: string;
  let collabCookie: string;
  let shared: number;
  let solo: number;
  const open: Browser[] = [];

  async function browserAs(cookie: string, opts: Parameters<typeof launchBrowser>[0] = {}) {
    const b = await launchBrowser(opts);
    open.push(b);
    const [name, value] = cookie.split("=");
    await b.context.addCookies([{ name, value, url: base }]);
    return b;
  }

  beforeAll(async () => {
    t = createTestApp({ env: { PROJECT_TRASH_DAYS: "14" } });
    await setUp(t);
    t.app.listen({ port: 0, hostname: "127.0.0.1" });
    base = `http://127.0.0.1:${t.app.server!.port}`;
    ownerCookie = await loginAs(t, OWNER, { firstName: "Olga", lastName: "Owner" });
    collabCookie = await loginAs(t, COLLAB, { firstName: "Carl", lastName: "Collaborator" });
    shared = (await t.call("POST", "/api/projects", { cookie: ownerCookie, json: { name: "Shared shop", description: "Orders and a kitchen chat." } })).body.id;
    solo = (await t.call("POST", "/api/projects", { cookie: ownerCookie, json: { name: "Pizza orders with a rather long name that wraps on a phone" } })).body.id;
    expect((await t.call("POST", `/api/bot/projects/${shared}/collaborators`, { cookie: ownerCookie, json: { user_id: COLLAB } })).status).toBe(200);
  }, 60_000);

  afterAll(async () => {
    for (const b of open) await b.close();
    await t?.app.server?.stop(true);
    t?.cleanup();
  }, 30_000);

  test("the owner deletes, finds it in the Trash with its dates, and restores it", async () => {
    const b = await browserAs(ownerCookie);
    const { page } = b;
    await page.goto(`${base}/projects`);
    const list = page.getByTestId("project-list");
    await list.locator("li", { hasText: "Pizza orders" }).getByRole("button", { name: "Delete" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByText("restore it there for 14 days").waitFor();
    await dialog.getByRole("button", { name: "Move to trash" }).click();
    await list.getByRole("link", { name: /Pizza orders/ }).waitFor({ state: "detached" });

    await page.getByRole("tab", { name: "Trash" }).click();
    const card = page.getByTestId(`trashed-${solo}`);
    await card.waitFor();
    expect(await card.textContent()).toContain("by Olga Owner");
    expect(await page.getByTestId("trash").textContent()).toContain("14 days");
    await card.getByRole("button", { name: "Restore" }).click();
    await card.waitFor({ state: "detached" });
    await page.getByTestId("trash").getByText("The trash is empty.").waitFor();
    await page.getByRole("tab", { name: "Active" }).click();
    await list.getByRole("link", { name: /Pizza orders/ }).waitFor();
    expect(b.errors).toEqual([]);
  }, 60_000);

  test("a collaborator sees Leave (not Delete) and leaves", async () => {
    const b = await browserAs(collabCookie);
    const { page } = b;
    await page.goto(`${base}/projects`);
    const card = page.getByTestId(`project-${shared}`);
    await card.waitFor();
    expect(await card.getByRole("button", { name: "Delete" }).count()).toBe(0);
    await card.getByRole("button", { name: "Leave" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Leave project" }).click();
    await card.waitFor({ state: "detached" });
    expect((await t.call("GET", `/api/projects/${shared}`, { cookie: collabCookie })).status).toBe(404);
    const members = (await t.call("GET", `/api/projects/${shared}/collaborators`, { cookie: ownerCookie })).body;
    expect(members.map((m: { userId: number }) => m.userId)).toEqual([OWNER]);
    expect(b.errors).toEqual([]);
  }, 60_000);

  test("the Trash view at 1280 and 390 px, light and dark, in English and Russian", async () => {
    expect((await t.call("DELETE", `/api/projects/${solo}`, { cookie: ownerCookie })).status).toBe(200);
    expect((await t.call("DELETE", `/api/projects/${shared}`, { cookie: ownerCookie })).status).toBe(200);
    const dir = process.env.SHOTS_DIR;
    if (dir) mkdirSync(dir, { recursive: true });
    for (const [width, height] of [[1280, 800], [390, 844]]) {
      for (const colorScheme of ["light", "dark"] as const) {
        const locale = colorScheme === "dark" ? "ru-RU" : "en-US";
        const b = await browserAs(ownerCookie, { viewport: { width, height }, colorScheme, locale });
        await b.page.goto(`${base}/projects`);
        await b.page.getByRole("tab", { name: locale === "ru-RU" ? "Корзина" : "Trash" }).click();
        await b.page.getByTestId(`trashed-${solo}`).waitFor();
        // Nothing spills sideways on a phone.
        const overflow = await b.page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        expect(overflow).toBeLessThanOrEqual(0);
        if (dir) await b.page.screenshot({ path: join(dir, `trash-${width}-${colorScheme}.png`), fullPage: true });
        expect(b.errors).toEqual([]);
        open.splice(open.indexOf(b), 1);
        await b.close();
      }
    }
  }, 120_000);

  test("Delete forever asks first, then the project is gone for good", async () => {
    const b = await browserAs(ownerCookie);
    const { page } = b;
    await page.goto(`${base}/projects`);
    await page.getByRole("tab", { name: "Trash" }).click();
    const card = page.getByTestId(`trashed-${shared}`);
    await card.getByRole("button", { name: "Delete forever" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByText("This cannot be undone").waitFor();
    await dialog.getByRole("button", { name: "Cancel" }).click();
    expect(await card.count()).toBe(1);
    await card.getByRole("button", { name: "Delete forever" }).click();
    await dialog.getByRole("button", { name: "Delete forever" }).click();
    await card.waitFor({ state: "detached" });
    expect(t.ctx.db.$client.query("select id from projects where id = ?").get(shared)).toBeNull();
    await page.getByTestId(`trashed-${solo}`).waitFor();
    expect(b.errors).toEqual([]);
  }, 60_000);
});
