// The Users tab's audience features in Chromium with a real bot on the fake messenger
// (docs/dialogs.md "People of a bot"): a ref_42 deep link shows as source and referrer; a user who
// blocked the bot is marked when an operator's send fails and found by the "Blocked" filter; tags
// are edited and filter the list; filters by source and language; sorting; CSV export with the
// list's filters; "open dialog"; deleting a user after a confirmation that names what goes; the
// list marks blocked users and shows tags; the card lists the user's Stars payments; a project
// without a user database says so and turns it on.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { expectOneBom } from "../support/bom";
import { haveChromium, warnIfNoChromium, type Browser } from "../support/browser";
import type { FakeUser } from "../support/fake-messenger";
import { until } from "../support/process";
import { node, scenarioOf, startAudience, type AudienceEnv } from "./audience-support";

warnIfNoChromium("users tab");

const scenario = scenarioOf(
  node("cmd-start", "command_trigger", { command: "/start", autoTransitionTo: "hello" }),
  node("hello", "message", { messageText: "Hello!" }, 150),
);

describe.skipIf(!haveChromium)("Users tab in Chromium", () => {
  let env: AudienceEnv;
  let b: Browser;
  const eve: FakeUser = { id: 990001, first_name: "Eve", username: "eve_u", language_code: "ru", is_premium: true };
  const bob: FakeUser = { id: 990002, first_name: "Bob", language_code: "en" };
  const zed: FakeUser = { id: 990003, first_name: "Zed", language_code: "en" };
  const list = () => b.page.getByTestId("user-list");
  const card = () => b.page.getByTestId("user-card");
  const names = async () => (await list().locator("li strong").allTextContents()).map((s) => s.trim());

  beforeAll(async () => {
    env = await startAudience({ project: "People", bot: "people_bot", scenario });
    for (const [u, text] of [[eve, "/start ref_42"], [bob, "/start instagram"], [zed, "/start"]] as const) {
      env.fake.sendText(env.botToken, u, text);
      await env.fake.waitForSent(env.botToken, u.id, 1, 20_000);
    }
    env.fake.sendUserMessage(env.botToken, eve, { successful_payment: { currency: "XTR", total_amount: 25, invoice_payload: "gold_pack", telegram_payment_charge_id: "stxEveCharge", provider_payment_charge_id: "" } });
    const paid = async () => (await env.t.call("GET", `/api/bot/tokens/${env.tokenId}/users/${eve.id}/payments`, { cookie: env.cookie })).body?.total === 1;
    await until(paid, "Eve's payment recorded", 10_000);
    b = await env.browser({ viewport: { width: 1280, height: 1000 } });
  }, 60_000);

  afterAll(async () => {
    await env?.stop();
  });

  test("a user who blocked the bot: the operator's send fails in words and the chat and user are marked", async () => {
    const { page } = b;
    env.fake.setBlocked(zed.id, true);
    await page.goto(`${env.base}/projects/${env.projectId}/dialogs?token=${env.tokenId}&chat=${zed.id}`);
    const box = page.getByTestId("conversation");
    await box.getByText("Hello!").waitFor({ timeout: 10_000 });
    await box.getByLabel("Message", { exact: true }).fill("Are you there?");
    await box.getByRole("button", { name: "Send", exact: true }).click();
    const alert = box.getByRole("alert");
    await alert.waitFor();
    expect(await alert.textContent()).not.toMatch(/^\s*\{/);
    await page.getByTestId("chat-list").locator(`[data-chat="${zed.id}"]`).getByText("blocked", { exact: true }).waitFor();
    await box.getByText("This user blocked the bot", { exact: false }).waitFor();
    // the list's "Blocked" filter keeps that chat only; "Unread" drops the chats opened here
    const chats = page.getByTestId("chat-list");
    await page.getByRole("button", { name: "Blocked", exact: true }).click();
    await chats.locator(`[data-chat="${eve.id}"]`).waitFor({ state: "detached" });
    expect(await chats.locator("[data-chat]").evaluateAll((els) => els.map((e) => e.getAttribute("data-chat")))).toEqual([String(zed.id)]);
    await page.getByRole("button", { name: "Unread", exact: true }).click();
    await chats.locator(`[data-chat="${eve.id}"]`).waitFor();
    expect(await chats.locator(`[data-chat="${zed.id}"]`).count()).toBe(0);
  }, 30_000);

  test("filters: blocked, source, language; a ref_42 deep link shows as source and referrer", async () => {
    const { page } = b;
    await page.goto(`${env.base}/projects/${env.projectId}/users`);
    await list().getByText("Zed", { exact: true }).waitFor({ timeout: 10_000 });
    expect((await names()).sort()).toEqual(["Bob", "Eve", "Zed"]);
    expect(await list().locator("li", { hasText: "Zed" }).getByText("blocked", { exact: true }).count()).toBe(1);
    expect(await list().locator("li", { hasText: "Bob" }).getByText("blocked", { exact: true }).count()).toBe(0);
    await page.getByRole("button", { name: "Blocked", exact: true }).click();
    await list().getByText("Bob", { exact: true }).waitFor({ state: "detached" });
    expect(await names()).toEqual(["Zed"]);
    await page.getByRole("button", { name: "Everyone", exact: true }).click();
    await page.getByLabel("Source").fill("ref_42");
    await list().getByText("Zed", { exact: true }).waitFor({ state: "detached" });
    expect(await names()).toEqual(["Eve"]);
    await page.getByLabel("Source").fill("");
    await page.getByLabel("User language").fill("en");
    await list().getByText("Eve", { exact: true }).waitFor({ state: "detached" });
    expect((await names()).sort()).toEqual(["Bob", "Zed"]);
    await page.getByLabel("User language").fill("");
    await list().getByText("Eve", { exact: true }).waitFor();
    await page.getByLabel("Sort by").selectOption("name");
    await page.waitForFunction(() => [...document.querySelectorAll("[data-testid=user-list] li strong")].map((x) => x.textContent).join(",") === "Bob,Eve,Zed");
    await list().getByText("Eve", { exact: true }).click();
    await card().getByTestId("user-source").getByText("ref_42").waitFor();
    expect(await card().getByTestId("user-referrer").textContent()).toBe("42");
    const facts = await card().locator("dl.facts").first().textContent();
    expect(facts).toContain("ru");
    expect(facts).toContain("Premium");
    const payments = card().getByTestId("user-payments");
    await payments.getByText("25 XTR").waitFor();
    expect(await payments.textContent()).toContain("gold_pack");
    expect(await payments.textContent()).toContain("paid");
  }, 30_000);

  test("tags: add, filter by tag, remove; CSV export follows the filters", async () => {
    const { page } = b;
    await card().getByLabel("Add a tag").fill("vip");
    await card().getByRole("button", { name: "Add a tag" }).click();
    await card().getByTestId("user-tags").getByText("vip").waitFor();
    await list().locator("li", { hasText: "Eve" }).getByText("#vip").waitFor();
    await card().getByLabel("Add a tag").fill("x".repeat(32));
    await card().getByRole("button", { name: "Add a tag" }).click();
    await card().getByRole("button", { name: `Remove tag ${"x".repeat(32)}` }).waitFor();
    await page.getByLabel("Tag", { exact: true }).fill("vip");
    await list().getByText("Bob", { exact: true }).waitFor({ state: "detached" });
    expect(await names()).toEqual(["Eve"]);
    const [file] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Export CSV" }).click()]);
    const saved = readFileSync((await file.path())!);
    // the file as saved keeps the server's BOM (the tab fetches the CSV, and fetch's text() drops it)
    expectOneBom(saved, "the Users tab's Export CSV");
    const csv = saved.toString("utf8");
    expect(csv).toContain(String(eve.id));
    expect(csv).toContain("vip");
    expect(csv).toContain("ref_42");
    expect(csv).not.toContain(String(bob.id));
    await page.getByLabel("Tag", { exact: true }).fill("");
    await card().getByRole("button", { name: `Remove tag ${"x".repeat(32)}` }).click();
    await card().getByRole("button", { name: `Remove tag ${"x".repeat(32)}` }).waitFor({ state: "detached" });
    const detail = await env.t.call("GET", `/api/bot/tokens/${env.tokenId}/users/${eve.id}`, { cookie: env.cookie });
    expect(detail.body.tags).toEqual(["vip"]);
  }, 30_000);

  test("open dialog goes to the user's chat; delete asks first, naming what goes, then the user is gone", async () => {
    const { page } = b;
    await card().getByRole("link", { name: "Open dialog" }).click();
    await page.waitForURL(new RegExp(`/projects/${env.projectId}/dialogs\\?token=${env.tokenId}&chat=${eve.id}$`));
    await page.getByTestId("conversation").getByText("/start ref_42").waitFor();
    await page.goto(`${env.base}/projects/${env.projectId}/users?token=${env.tokenId}&user=${bob.id}`);
    await card().getByRole("heading", { name: "Bob" }).waitFor();
    await card().getByRole("button", { name: "Delete user" }).click();
    const dialog = page.getByRole("dialog", { name: "Delete Bob?" });
    expect(await dialog.textContent()).toContain("stored message");
    await dialog.getByRole("button", { name: "Cancel" }).click();
    expect((await env.t.call("GET", `/api/bot/tokens/${env.tokenId}/users/${bob.id}`, { cookie: env.cookie })).status).toBe(200);
    await card().getByRole("button", { name: "Delete user" }).click();
    await dialog.getByRole("button", { name: "Delete user" }).click();
    await card().waitFor({ state: "detached" });
    await list().getByText("Bob", { exact: true }).waitFor({ state: "detached" });
    expect((await env.t.call("GET", `/api/bot/tokens/${env.tokenId}/users/${bob.id}`, { cookie: env.cookie })).status).toBe(404);
    expect(b.errors.filter((e) => !/status of (404|409)/.test(e))).toEqual([]);
  }, 30_000);
  test("two users of one first name are told apart by their last names; the open card is in the address", async () => {
    const { page } = b;
    const eve2: FakeUser = { id: 990004, first_name: "Eve", last_name: "Adams", language_code: "en" } as FakeUser;
    env.fake.sendText(env.botToken, eve2, "/start");
    await env.fake.waitForSent(env.botToken, eve2.id, 1, 20_000);
    await page.goto(`${env.base}/projects/${env.projectId}/users?token=${env.tokenId}`);
    await list().getByText("Eve Adams", { exact: true }).waitFor({ timeout: 10_000 });
    expect((await names()).filter((n) => n.startsWith("Eve")).sort()).toEqual(["Eve", "Eve Adams"]);
    await list().getByText("Eve Adams", { exact: true }).click();
    await page.waitForURL(new RegExp(`[?&]user=${eve2.id}(&|$)`));
    await card().getByRole("heading", { name: "Eve Adams" }).waitFor();
    await page.reload();
    await card().getByRole("heading", { name: "Eve Adams" }).waitFor();
    await page.goBack();
    await card().waitFor({ state: "detached" });
    await card().page().waitForURL((url) => !url.searchParams.has("user"));
    // the Dialogs tab names the chat the same way, in the list and over the conversation
    await page.goto(`${env.base}/projects/${env.projectId}/dialogs?token=${env.tokenId}&chat=${eve2.id}`);
    await page.getByTestId("chat-list").locator(`[data-chat="${eve2.id}"]`).getByText("Eve Adams", { exact: true }).waitFor({ timeout: 10_000 });
    await page.getByTestId("conversation").getByRole("heading", { name: "Eve Adams" }).waitFor();
    expect(await page.getByTestId("chat-list").locator(`[data-chat="${eve.id}"]`).locator("strong").textContent()).toBe("Eve");
  }, 30_000);

  test("a project that keeps no user database says so over the list, and one click turns it on", async () => {
    const { page } = b;
    const project = () => env.t.call("GET", `/api/projects/${env.projectId}`, { cookie: env.cookie });
    expect((await env.t.call("PUT", `/api/projects/${env.projectId}`, { cookie: env.cookie, json: { userDatabaseEnabled: 0 } })).status).toBe(200);
    try {
      await page.goto(`${env.base}/projects/${env.projectId}/users?token=${env.tokenId}`);
      const notice = page.getByRole("status").filter({ hasText: "keep no user database" });
      await notice.waitFor({ timeout: 10_000 });
      await notice.getByRole("button", { name: "Keep a user database" }).click();
      await page.getByRole("status").filter({ hasText: "from its next start" }).waitFor();
      expect((await project()).body.userDatabaseEnabled).toBe(1);
      // with the database on, no notice at all
      await page.reload();
      await list().getByText("Eve Adams", { exact: true }).waitFor({ timeout: 10_000 });
      expect(await page.getByText("keep no user database", { exact: false }).count()).toBe(0);
    } finally {
      await env.t.call("PUT", `/api/projects/${env.projectId}`, { cookie: env.cookie, json: { userDatabaseEnabled: 1 } });
    }
  }, 30_000);
});
