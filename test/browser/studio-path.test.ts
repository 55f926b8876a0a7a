// The whole path a user takes in the Studio, in Chromium against a real server, real bot processes
// and the fake messenger: dev login, a project from a template, a token, start, a user writes
// /start (the bot's steps appear in Logs, the user in Users), stop; import a compat file; archive,
// reorder, delete. Every request stays on the server's origin and no console error appears.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { createApp } from "../../src/app";
import { createTestApp, setUp, type TestApp } from "../support/app";
import { haveChromium, launchBrowser, warnIfNoChromium, type Browser } from "../support/browser";
import { startFakeMessenger, type FakeMessenger, type FakeUser } from "../support/fake-messenger";
import { freePort } from "../support/process";

warnIfNoChromium("studio path");
const COMPAT = join(import.meta.dir, "../../../shared/compat/current");
const compatFile = existsSync(COMPAT) ? readdirSync(COMPAT).filter((f) => f.endsWith(".json")).sort()[0] : undefined;
if (!compatFile) console.warn(`[studio path] compat import SKIPPED: no ${COMPAT}/*.json`);

describe.skipIf(!haveChromium)("the Studio path in Chromium", () => {
  let fake: FakeMessenger;
  let t: TestApp;
  let base: string;
  let b: Browser;
  let stopServer: () => unknown;
  let projectId: number;
  const visitor: FakeUser = { id: 777001, first_name: "Bob", username: "bob_visitor" };
  let botToken: string;

  beforeAll(async () => {
    fake = await startFakeMessenger();
    t = createTestApp({ fileDb: true, env: { MESSENGER_API_ROOT: fake.url } });
    await setUp(t);
    const port = await freePort();
    const app = createApp(t.ctx).listen({ port, hostname: "127.0.0.1" });
    stopServer = () => app.server?.stop(true);
    base = `http://127.0.0.1:${port}`;
    t.ctx.state.localUrl = base;
    b = await launchBrowser();
  }, 60_000);

  afterAll(async () => {
    await b?.close();
    await t?.ctx.bots.shutdown();
    stopServer?.();
    await fake?.stop();
    t?.cleanup();
  });

  const tab = async (name: string) => {
    await b.page.getByRole("navigation", { name: "Project sections" }).getByRole("link", { name, exact: true }).click();
    await b.page.waitForURL(new RegExp(`/projects/${projectId}/${name.toLowerCase()}$`));
  };

  test("dev login", async () => {
    const { page } = b;
    await page.goto(`${base}/`);
    await page.waitForURL(/\/login\?next=/);
    await page.getByLabel("Language").selectOption("ru");
    await page.getByRole("heading", { name: "Вход в Botloom" }).waitFor();
    await page.getByLabel("Язык").selectOption("en");
    await page.getByLabel("User id").fill("4242");
    await page.getByLabel("First name").fill("Ada");
    await page.getByRole("button", { name: "Log in" }).click();
    await page.getByTestId("user-name").waitFor();
    expect(await page.getByTestId("user-name").textContent()).toBe("Ada");
  }, 30_000);

  test("a project from a template: the preview tells what the bot does, use makes the project", async () => {
    const { page } = b;
    await page.getByRole("link", { name: "Start from a template" }).click();
    await page.waitForURL(`${base}/templates`);
    await page.getByPlaceholder("Search templates").fill("FAQ bot");
    await page.getByRole("link", { name: "FAQ bot", exact: true }).click();
    const preview = page.getByTestId("template-preview");
    await preview.waitFor();
    expect(Number(await preview.getByTestId("tpl-nodes").textContent())).toBeGreaterThan(1);
    await preview.getByRole("button", { name: "Rate 5 of 5" }).click();
    await preview.getByText("Thanks for your vote").waitFor();
    await preview.getByLabel("Name of the new project").fill("Help desk");
    await preview.getByRole("button", { name: "Use this template" }).click();
    await page.waitForURL(/\/projects\/\d+$/);
    projectId = Number(new URL(page.url()).pathname.split("/")[2]);
    await page.getByRole("heading", { name: "Help desk" }).waitFor();
  }, 30_000);

  test("add a token: the bot's identity from getMe is shown; start it", async () => {
    const { page } = b;
    const bot = fake.addBot({ username: "helpdesk_test_bot", firstName: "Help Desk" });
    botToken = bot.token;
    await tab("Bots"); // the project opens on its Scenario tab (the editor)
    await page.getByLabel("Bot token").fill("not-a-token");
    await page.getByRole("button", { name: "Add bot" }).click();
    await page.getByRole("alert").first().waitFor();
    expect(await page.getByRole("alert").first().textContent()).not.toContain("{");
    await page.getByLabel("Bot token").fill(bot.token);
    await page.getByRole("button", { name: "Add bot" }).click();
    await page.getByTestId("getme-result").waitFor();
    expect(await page.getByTestId("getme-result").textContent()).toContain("@helpdesk_test_bot");
    await page.getByRole("button", { name: "Start", exact: true }).click();
    await page.getByTestId("bot-status").filter({ hasText: "Running" }).waitFor({ timeout: 20_000 });
  }, 40_000);

  test("a user writes /start: the bot answers, its steps appear in Logs, the user in Users", async () => {
    const { page } = b;
    fake.sendText(botToken, visitor, "/start");
    const [reply] = await fake.waitForSent(botToken, visitor.id, 1, 20_000);
    expect(String(reply.params.text ?? reply.params.caption).length).toBeGreaterThan(0);
    await tab("Logs");
    await page.getByTestId("log-lines").getByText(`[chat ${visitor.id}]`).first().waitFor({ timeout: 15_000 });
    // The reply itself, as the bot logged it when sending (messages are cut to 150 characters).
    const firstLine = String(reply.params.text).split("\n")[0]!.slice(0, 40);
    await page.getByTestId("log-lines").getByText(firstLine).first().waitFor({ timeout: 15_000 });
    await page.getByLabel("Search").fill("bot started");
    await page.getByTestId("log-lines").getByText("bot started @helpdesk_test_bot").waitFor();
    expect(await page.getByTestId("log-lines").getByText(`[chat ${visitor.id}]`).count()).toBe(0);
    await page.getByLabel("Search").fill("");
    await page.getByLabel("Level").selectOption("stderr");
    expect(await page.getByTestId("log-lines").getByText("bot started").count()).toBe(0);
    await page.getByLabel("Level").selectOption("");
    await page.getByRole("button", { name: "Pause" }).click();
    await page.getByText("Paused", { exact: false }).first().waitFor();
    const [file] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Download .json" }).click()]);
    const lines = JSON.parse(await Bun.file((await file.path())!).text()) as { level: string; message: string }[];
    expect(lines.some((l) => l.message.startsWith("bot started @helpdesk_test_bot"))).toBe(true);
    await page.getByRole("button", { name: "Resume" }).click();
    await tab("Users");
    await page.getByTestId("user-list").getByText("Bob", { exact: true }).waitFor({ timeout: 15_000 });
    expect(await page.getByTestId("user-list").locator("li").count()).toBe(1);
    await tab("Analytics");
    await page.getByTestId("total-users").getByText("1", { exact: true }).waitFor({ timeout: 15_000 });
    await tab("Users");
    await page.getByPlaceholder("First, last or full name, @username or id").fill("nobody-like-this");
    await page.getByText("Nobody matches.").waitFor();
    await page.getByPlaceholder("First, last or full name, @username or id").fill("@bob_vis");
    await page.getByTestId("user-list").getByText("Bob", { exact: true }).waitFor();
    await page.getByTestId("user-list").getByRole("button").first().click();
    await page.getByTestId("user-card").getByText("@bob_visitor").waitFor();
  }, 60_000);

  test("stop the bot; the launch history shows the run", async () => {
    const { page } = b;
    await tab("Bots");
    await page.getByRole("button", { name: "Stop", exact: true }).click();
    await page.getByTestId("bot-status").filter({ hasText: "Stopped" }).waitFor({ timeout: 15_000 });
    await page.getByRole("region", { name: "Launch history" }).getByText("Stopped").first().waitFor({ timeout: 15_000 });
  }, 30_000);

  test.skipIf(!compatFile)("import a project.json of the older platform", async () => {
    const { page } = b;
    await page.getByRole("link", { name: "Projects", exact: true }).first().click();
    await page.waitForURL(`${base}/projects`);
    await page.locator('input[type="file"]').setInputFiles({ name: "broken.json", mimeType: "application/json", buffer: Buffer.from("{ not json") });
    await page.getByText("“broken.json” is not a JSON file.").waitFor();
    await page.locator('input[type="file"]').setInputFiles(join(COMPAT, compatFile!));
    await page.waitForURL(/\/projects\/\d+$/, { timeout: 20_000 });
    const expected = JSON.parse(await Bun.file(join(COMPAT, compatFile!)).text()).name as string;
    await page.getByRole("heading", { name: expected }).waitFor();
  }, 40_000);

  test("archive, unarchive, reorder (buttons and drag), delete with a confirmation that names the bots", async () => {
    const { page } = b;
    for (const name of ["Alpha", "Beta"]) {
      await page.goto(`${base}/projects`);
      await page.getByPlaceholder("Project name").fill(name);
      await page.getByRole("button", { name: "New project" }).click();
      await page.waitForURL(/\/projects\/\d+$/);
    }
    await page.getByRole("link", { name: "← Projects" }).click();
    const list = page.getByTestId("project-list");
    const names = async () => (await list.locator(".card-title").allTextContents());
    await list.getByText("Beta").waitFor();
    // archive
    const alpha = list.locator("li", { hasText: "Alpha" });
    await alpha.getByRole("button", { name: "Archive" }).click();
    await list.getByText("Alpha").waitFor({ state: "detached" });
    await page.getByRole("tab", { name: "Archived" }).click();
    await list.getByText("Alpha").waitFor();
    await list.locator("li", { hasText: "Alpha" }).getByRole("button", { name: "Unarchive" }).click();
    await list.getByText("Alpha").waitFor({ state: "detached" });
    await page.getByRole("tab", { name: "Active" }).click();
    await list.getByText("Alpha").waitFor();
    // reorder with the keyboard-reachable buttons, then by dragging; the server keeps the order
    const before = await names();
    const last = before.at(-1)!;
    await page.getByRole("button", { name: `Move ${last} up` }).focus();
    await page.keyboard.press("Enter");
    const server = async () => (await t.call("GET", "/api/projects/list", { cookie: await sessionCookie() })).body.map((p: any) => p.name);
    await waitUntil(async () => (await server()).indexOf(last) === before.length - 2);
    // The page follows the server (its refetch after the answer may still be on the way).
    await waitUntil(async () => (await names()).indexOf(last) === before.length - 2).catch(() => {});
    expect((await names()).indexOf(last)).toBe(before.length - 2);
    const first = (await names())[0]!;
    await list.locator("li", { hasText: first }).first().dragTo(list.locator("li").last());
    await waitUntil(async () => (await server()).at(-1) === first);
    await waitUntil(async () => (await names()).at(-1) === first).catch(() => {});
    expect((await names()).at(-1)).toBe(first);
    // delete: the dialog names what goes
    await page.goto(`${base}/projects`);
    await list.locator("li", { hasText: "Help desk" }).getByRole("button", { name: "Delete" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByTestId("delete-summary").getByText("@helpdesk_test_bot").waitFor();
    expect(await dialog.getByTestId("delete-summary").textContent()).toContain("Media files: 0");
    await dialog.getByRole("button", { name: "Move to trash" }).click();
    await list.getByRole("link", { name: "Help desk", exact: true }).waitFor({ state: "detached" });
    expect((await server()).includes("Help desk")).toBe(false);
  }, 60_000);

  test("live: a project created or deleted elsewhere appears and goes without a reload", async () => {
    const { page } = b;
    await page.goto(`${base}/projects`);
    const list = page.getByTestId("project-list");
    await list.locator("li").first().waitFor();
    const cookie = await sessionCookie();
    const made = await t.call("POST", "/api/projects", { cookie, json: { name: "Made by an agent" } });
    await list.getByText("Made by an agent").waitFor({ timeout: 10_000 });
    await t.call("PUT", `/api/projects/${made.body.id}`, { cookie, json: { name: "Renamed by an agent" } });
    await list.getByText("Renamed by an agent").waitFor({ timeout: 10_000 });
    await t.call("DELETE", `/api/projects/${made.body.id}`, { cookie });
    await list.getByText("Renamed by an agent").waitFor({ state: "detached", timeout: 10_000 });
  }, 40_000);

  test("no console errors; every request went to the server's origin", () => {
    // The one failed request the test provoked on purpose: the bad token, answered 400 in words.
    const provoked = (e: string) => e.includes("status of 400") && e.includes(`/api/bot/projects/${projectId}/tokens`);
    expect(b.errors.filter((e) => !provoked(e))).toEqual([]);
    expect(b.requests.filter((u) => !u.startsWith(base) && !u.startsWith(base.replace("http", "ws")) && !u.startsWith("data:") && !u.startsWith("blob:"))).toEqual([]);
  });

  async function sessionCookie(): Promise<string> {
    const c = (await b.context.cookies(base)).find((x) => x.name === "connect.sid")!;
    return `connect.sid=${c.value}`;
  }
});

async function waitUntil(fn: () => Promise<boolean>, ms = 10_000) {
  const end = Date.now() + ms;
  while (!(await fn())) {
    if (Date.now() > end) throw new Error("condition not met in time");
    await Bun.sleep(100);
  }
}
