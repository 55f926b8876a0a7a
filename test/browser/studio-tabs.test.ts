// The project tabs and pages beyond the main path, in Chromium: env variables with a secret
// revealed on request, media upload with progress, versions view and restore, the team, export
// (download and highlighted code), the account's PATs (shown once, revoked), Russian and dark mode,
// and a phone-width check that no page scrolls sideways.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { createTestApp, loginAs, setUp, type TestApp } from "../support/app";
import { haveChromium, launchBrowser, warnIfNoChromium, type Browser } from "../support/browser";
import { startFakeMessenger, type FakeMessenger } from "../support/fake-messenger";

warnIfNoChromium("studio tabs");
const PNG = Uint8Array.from(atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII="), (c) => c.charCodeAt(0));

describe.skipIf(!haveChromium)("Studio tabs in Chromium", () => {
  let fake: FakeMessenger;
  let t: TestApp;
  let base: string;
  let b: Browser;
  let cookie: string;
  let projectId: number;
  let tokenId: number;

  beforeAll(async () => {
    fake = await startFakeMessenger();
    t = createTestApp({ env: { MESSENGER_API_ROOT: fake.url } });
    await setUp(t);
    t.app.listen({ port: 0, hostname: "127.0.0.1" });
    base = `http://127.0.0.1:${t.app.server!.port}`;
    cookie = await loginAs(t, 4242, { firstName: "Ada" });
    const data = { sheets: [{ id: "s1", name: "Main", nodes: [{ id: "start", type: "start", position: { x: 0, y: 0 }, data: { command: "/start", messageText: "Hi" } }], edges: [] }] };
    projectId = (await t.call("POST", "/api/projects", { cookie, json: { name: "Tabs" } })).body.id;
    await t.call("PUT", `/api/projects/${projectId}`, { cookie, json: { data, commitMessage: "First node" } });
    const changed = { sheets: [{ ...data.sheets[0]!, nodes: [...data.sheets[0]!.nodes, { id: "m2", type: "message", position: { x: 0, y: 100 }, data: { messageText: "Two" } }] }] };
    await t.call("PUT", `/api/projects/${projectId}`, { cookie, json: { data: changed, commitMessage: "Second node" } });
    tokenId = (await t.call("POST", `/api/bot/projects/${projectId}/tokens`, { cookie, json: { token: fake.addBot({ username: "tabs_bot" }).token } })).body.id;
    b = await launchBrowser();
    const [name, value] = cookie.split("=");
    await b.context.addCookies([{ name: name!, value: value!, url: base }]);
  }, 60_000);

  afterAll(async () => {
    await b?.close();
    await t?.ctx.bots.shutdown();
    await t?.app.server?.stop(true);
    await fake?.stop();
    t?.cleanup();
  });

  test("env variables: add a secret (masked), reveal it, edit, delete; a bad key is refused in words", async () => {
    const { page } = b;
    await page.goto(`${base}/projects/${projectId}/bots`);
    await page.locator("summary", { hasText: "Env variables" }).click();
    await page.getByLabel("Key").fill("API_KEY");
    await page.getByLabel("Value", { exact: true }).fill("hunter2");
    await page.getByLabel("Secret").check();
    await page.getByRole("button", { name: "Add variable" }).click();
    const row = page.locator(".env-row", { hasText: "API_KEY" });
    await row.getByText("••••••••").waitFor();
    expect(await page.content()).not.toContain("hunter2");
    await row.getByRole("button", { name: "Reveal" }).click();
    await row.getByText("hunter2").waitFor();
    await row.getByRole("button", { name: "Edit" }).click();
    await row.getByLabel("Value").fill("hunter3");
    await row.getByRole("button", { name: "Save" }).click();
    await row.getByText("••••••••").waitFor();
    expect((await t.call("GET", `/api/bot/tokens/${tokenId}/env`, { cookie })).body.items[0].key).toBe("API_KEY");
    await row.getByRole("button", { name: "Delete API_KEY" }).click();
    await row.waitFor({ state: "detached" });
    // Duplicate keys come back from the server as a 409 in words.
    // The second try starts once the first row is there: the form clears itself after a success.
    await page.getByLabel("Key").fill("TWICE");
    await page.getByRole("button", { name: "Add variable" }).click();
    await page.locator(".env-row", { hasText: "TWICE" }).waitFor();
    await page.getByLabel("Key").fill("TWICE");
    await page.getByRole("button", { name: "Add variable" }).click();
    const alert = page.locator(".env [role=alert]");
    await alert.waitFor();
    expect(await alert.textContent()).not.toMatch(/^\s*\{/);
  }, 30_000);

  test("bot settings: mode and flags are saved", async () => {
    const { page } = b;
    await page.getByText("Settings", { exact: true }).click();
    await page.getByLabel("Protect content").check();
    await page.getByRole("button", { name: "Save", exact: true }).first().click();
    await page.getByText("Saved", { exact: true }).waitFor();
    const item = (await t.call("GET", `/api/bot/projects/${projectId}/tokens`, { cookie })).body.items[0];
    expect(item.protectContent).toBe(1);
    expect(item.catchAllHandlers).toBe(0);
  }, 30_000);

  test("media: upload shows progress, the list offers the URL, delete removes it", async () => {
    const { page } = b;
    await page.goto(`${base}/projects/${projectId}/media`);
    // Loopback is too fast to see a bar: hold the first upload back until the bar has been seen.
    let held = false;
    const barSeen = Promise.withResolvers<void>();
    await page.route(`**/api/projects/${projectId}/media`, async (r) => {
      if (r.request().method() === "POST" && !held) {
        held = true;
        await barSeen.promise;
      }
      await r.continue();
    });
    await page.locator('input[type="file"]').setInputFiles({ name: "pixel.png", mimeType: "image/png", buffer: Buffer.from(PNG) });
    try {
      await page.getByRole("progressbar", { name: "Upload progress" }).waitFor();
      await page.getByText("Uploading pixel.png…").waitFor();
    } finally {
      barSeen.resolve();
    }
    const list = page.getByTestId("media-list");
    await list.getByText("pixel.png").waitFor();
    expect(await list.locator("img").getAttribute("src")).toMatch(/^\/uploads\//);
    await page.locator('input[type="file"]').setInputFiles({ name: "run.sh", mimeType: "application/x-sh", buffer: Buffer.from("#!/bin/sh\necho hi\n") });
    await page.getByText(/“run\.sh” was not uploaded: /).waitFor();
    await list.getByRole("button", { name: "Delete pixel.png" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Delete" }).click();
    await list.getByText("pixel.png").waitFor({ state: "detached" });
    expect((await t.call("GET", `/api/projects/${projectId}/media`, { cookie })).body).toEqual([]);
  }, 30_000);

  test("versions: the list names the change, a version opens, restore brings it back", async () => {
    const { page } = b;
    await page.goto(`${base}/projects/${projectId}/versions`);
    const list = page.getByTestId("version-list");
    await list.getByText("Second node").waitFor();
    const oldest = list.locator("li", { hasText: "First node" });
    await oldest.getByRole("button", { name: "View" }).click();
    // the version drawn on its read-only canvas (editor-versions.test.ts checks the marks)
    await oldest.getByTestId("version-diff").waitFor();
    await oldest.getByRole("button", { name: "Restore", exact: true }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Restore" }).click();
    await page.getByRole("dialog").waitFor({ state: "hidden" });
    const p = (await t.call("GET", `/api/projects/${projectId}`, { cookie })).body;
    expect(p.data.sheets[0].nodes.length).toBe(1);
  }, 30_000);

  test("team: add a collaborator by id and remove them; admin ids", async () => {
    const { page } = b;
    await page.goto(`${base}/projects/${projectId}/team`);
    await page.getByLabel("Messenger user id").fill("5151");
    await page.getByRole("button", { name: "Add collaborator" }).click();
    const team = page.getByTestId("team-list");
    await team.getByText("5151").first().waitFor();
    // someone who never logged in is named by the id once, and said to be so
    const newcomer = team.locator("li", { hasText: "5151" });
    expect((await newcomer.textContent())!.match(/5151/g)).toHaveLength(1);
    await newcomer.getByText("has not logged in yet").waitFor();
    await team.getByRole("button", { name: /^Remove / }).click();
    await team.getByText("5151").first().waitFor({ state: "detached" });
    await page.getByLabel("Admin id", { exact: true }).fill("777");
    await page.getByRole("button", { name: "Add admin id" }).click();
    await page.getByTestId("admin-list").getByText("777").waitFor();
    expect((await t.call("GET", `/api/projects/${projectId}/admin-ids`, { cookie })).body.adminIds).toBe("777");
  }, 30_000);

  test("export: project.json downloads, the code is shown highlighted", async () => {
    const { page } = b;
    await page.goto(`${base}/projects/${projectId}/export`);
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Download project.json" }).click()]);
    const doc = JSON.parse(readFileSync((await download.path())!, "utf8"));
    expect(doc.sheets ?? doc.data?.sheets).toBeDefined();
    await page.getByRole("button", { name: "Generate code" }).click();
    const code = page.getByTestId("code-view");
    await code.waitFor();
    expect(await code.locator(".tok-keyword").count()).toBeGreaterThan(10);
    expect(await code.textContent()).toContain('from "grammy"');
  }, 30_000);

  test("account: a PAT is shown once, listed without its secret, and revoked", async () => {
    const { page } = b;
    await page.goto(`${base}/account`);
    await page.getByLabel("Token name").fill("ci");
    await page.getByRole("button", { name: "Create token" }).click();
    const shown = (await page.getByTestId("new-pat").locator("code").textContent())!;
    expect(shown).toMatch(/^mcp_/);
    const works = await fetch(`${base}/api/auth/me`, { headers: { authorization: `Bearer ${shown}` } });
    expect(works.status).toBe(200);
    await page.reload();
    await page.getByTestId("pat-list").getByText("ci").waitFor();
    expect(await page.content()).not.toContain(shown);
    await page.getByTestId("pat-list").getByRole("button", { name: "Revoke" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Revoke" }).click();
    await page.getByTestId("pat-list").waitFor({ state: "detached" });
    expect((await fetch(`${base}/api/auth/me`, { headers: { authorization: `Bearer ${shown}` } })).status).toBe(401);
  }, 30_000);

  test("rename and duplicate a project; save it as a template", async () => {
    const { page } = b;
    await page.goto(`${base}/projects`);
    const card = page.getByTestId(`project-${projectId}`);
    await card.getByRole("button", { name: "Rename" }).click();
    await card.getByLabel("Project name").fill("Tabs renamed");
    await card.getByRole("button", { name: "Save" }).click();
    await card.getByRole("link", { name: "Tabs renamed" }).waitFor();
    await card.getByRole("button", { name: "Duplicate" }).click();
    await page.getByTestId("project-list").getByText("Tabs renamed (копия)").waitFor();
    await card.getByRole("link", { name: "Tabs renamed" }).click();
    await page.getByRole("button", { name: "Save as template" }).click();
    await page.getByLabel("Template name").fill("My tabs template");
    await page.getByLabel("What the bot does").fill("Greets and says two things.");
    await page.getByRole("button", { name: "Save template" }).click();
    await page.getByRole("link", { name: "Open it" }).click();
    await page.getByTestId("template-preview").getByRole("heading", { name: "My tabs template" }).waitFor();
    expect(await page.getByTestId("tpl-nodes").textContent()).toBe("1");
  }, 30_000);

  test("Russian and dark: the switch is remembered across a reload", async () => {
    const { page } = b;
    await page.goto(`${base}/projects`);
    await page.getByLabel("Language").selectOption("ru");
    await page.getByRole("heading", { name: "Проекты" }).waitFor();
    await page.getByLabel("Тема").selectOption("dark");
    await page.reload();
    await page.getByRole("heading", { name: "Проекты" }).waitFor();
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe("dark");
    expect(await page.evaluate(() => document.documentElement.lang)).toBe("ru");
    await page.getByLabel("Язык").selectOption("en");
    await page.getByLabel("Theme").selectOption("system");
  }, 30_000);

  test("keyboard: Tab reaches the tabs and the focused element is visibly outlined", async () => {
    const { page } = b;
    await page.goto(`${base}/projects/${projectId}/bots`);
    await page.getByRole("link", { name: "Logs", exact: true }).focus();
    await page.keyboard.press("Tab");
    const outline = await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle);
    expect(outline).toBe("solid");
    await page.keyboard.press("Shift+Tab");
    await page.keyboard.press("Enter");
    await page.waitForURL(/\/logs$/);
  }, 30_000);

  test("at 390 px no page scrolls sideways", async () => {
    const { page } = b;
    await page.setViewportSize({ width: 390, height: 844 });
    for (const path of ["/projects", ...["bots", "logs", "users", "tables", "media", "versions", "team", "export"].map((x) => `/projects/${projectId}/${x}`), "/templates", "/account"]) {
      await page.goto(base + path);
      await page.waitForLoadState("networkidle");
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect({ path, overflow }).toEqual({ path, overflow: 0 });
    }
    await page.setViewportSize({ width: 1280, height: 800 });
  }, 60_000);

  test("no console errors beyond the refusals the tests provoked; same origin only", () => {
    const provoked = (e: string) => /status of (409|415)/.test(e);
    expect(b.errors.filter((e) => !provoked(e))).toEqual([]);
    expect(b.requests.filter((u) => !u.startsWith(base) && !u.startsWith(base.replace("http", "ws")) && !u.startsWith("data:") && !u.startsWith("blob:"))).toEqual([]);
  });
});
