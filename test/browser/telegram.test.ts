// Issue 30 in Chromium, one Studio for both. The preview chat shows today's buttons: a Mini App's
// panel opens its https page in a new tab (noopener; never framed, the Studio's CSP allows no
// frames); a copy button copies its text; colours show; a reply keyboard's poll request and Mini
// App answer the bot, which follows their targets; a 👍 on a bot message and a join request run
// their triggers; an invoice is paid with the preview's Pay button, once: then it shows as paid.
// The Bots tab's "Profile in Telegram" sets the bot's name and the scenario's menu commands on the
// (fake) messenger.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createTestApp, loginAs, setUp, type TestApp } from "../support/app";
import { haveChromium, signedInBrowser, warnIfNoChromium, type Browser } from "../support/browser";
import { startFakeMessenger, type FakeBot, type FakeMessenger } from "../support/fake-messenger";
import { kotikChat } from "./kotik-chat";

warnIfNoChromium("today's Telegram");
const node = (id: string, type: string, data: Record<string, unknown>) => ({ id, type, position: { x: 0, y: 0 }, data });
const APP = "https://shop.example/app";
const doc = {
  version: 2,
  sheets: [{
    id: "s", name: "S", edges: [], nodes: [
      node("start", "start", {
        command: "/start", messageText: "Shop", keyboardType: "inline", buttons: [
          { id: "app", text: "Open shop", action: "web_app", webAppUrl: APP, style: "primary" },
          { id: "copy", text: "Copy code", action: "copy_text", copyText: "PROMO-7", style: "success" },
        ],
      }),
      node("menu", "command", {
        command: "/menu", messageText: "Menu", keyboardType: "reply", buttons: [
          { id: "poll", text: "Make a quiz", action: "poll", target: "gotPoll", style: "danger" },
          { id: "form", text: "Form", action: "web_app", webAppUrl: APP, target: "gotApp" },
        ],
      }),
      node("a", "command_trigger", { command: "/begin", description: "Begin", showInMenu: true, autoTransitionTo: "gotPoll" }),
      node("liked", "reaction_trigger", { emoji: ["👍"], autoTransitionTo: "thanks" }),
      node("thanks", "message", { messageText: "liked {reaction_emoji}" }),
      node("asks", "join_request_trigger", { autoTransitionTo: "letIn" }),
      node("letIn", "approve_join_request", { autoTransitionTo: "letInSaid" }),
      node("letInSaid", "message", { messageText: "approved for {join_chat_id}" }),
      node("buy", "command_trigger", { command: "/buy", autoTransitionTo: "bill" }),
      node("bill", "invoice", { title: "Premium", description: "A month of premium", amount: 5, payload: "premium" }),
      node("paid", "payment_trigger", { autoTransitionTo: "paidSaid" }),
      node("paidSaid", "message", { messageText: "paid {payment_amount} for {payment_payload}" }),
      node("gotPoll", "message", { messageText: "poll: {button_text}" }),
      node("gotApp", "message", { messageText: "app sent {message_text}" }),
    ],
  }],
};

describe.skipIf(!haveChromium)("today's Telegram in Chromium", () => {
  let fake: FakeMessenger;
  let t: TestApp;
  let base: string;
  let b: Browser;
  let projectId: number;
  let bot: FakeBot;

  beforeAll(async () => {
    fake = await startFakeMessenger();
    t = createTestApp({ env: { MESSENGER_API_ROOT: fake.url } });
    await setUp(t);
    const cookie = await loginAs(t, 6161, { firstName: "Mia" });
    projectId = (await t.call("POST", "/api/projects", { cookie, json: { name: "Shop", data: doc } })).body.id;
    bot = fake.addBot({ username: "profile_ui_bot" });
    expect((await t.call("POST", `/api/bot/projects/${projectId}/tokens`, { cookie, json: { token: bot.token } })).status).toBe(200);
    t.app.listen({ port: 0, hostname: "127.0.0.1" });
    base = `http://127.0.0.1:${t.app.server!.port}`;
    b = await signedInBrowser(base, cookie);
  }, 60_000);

  afterAll(async () => {
    await Promise.all([b?.close(), t?.ctx.preview.stopAll(), t?.ctx.bots.shutdown()]);
    await t?.app.server?.stop(true);
    await fake?.stop();
    t?.cleanup();
  });

  test("Mini App, copy, colours, and the reply keyboard's poll and Mini App", async () => {
    const { page } = b;
    await page.goto(`${base}/projects/${projectId}/preview`);
    const chat = page.getByTestId("preview-chat");
    await chat.getByTestId("pv-status").getByText("running").waitFor({ timeout: 20_000 });
    const { say, botSaid } = kotikChat(chat);
    await page.evaluate(() => {
      (window as any).copied = [];
      navigator.clipboard.writeText = async (text: string) => void (window as any).copied.push(text);
    });

    await say("/start");
    await botSaid("Shop");
    const open = chat.getByRole("button", { name: /Open shop/ });
    expect(await open.getAttribute("class")).toContain("pv-key-primary");
    await open.click();
    const panel = chat.getByTestId("pv-miniapp");
    await panel.getByText(APP).waitFor();
    const link = panel.getByRole("link", { name: /New tab/ });
    expect(await link.getAttribute("href")).toBe(APP);
    expect(await link.getAttribute("target")).toBe("_blank");
    expect(await link.getAttribute("rel")).toContain("noopener");
    expect(await panel.locator("iframe").count()).toBe(0);
    await panel.getByRole("button", { name: "Close" }).click();

    const copy = chat.getByRole("button", { name: /Copy code/ });
    expect(await copy.getAttribute("class")).toContain("pv-key-success");
    await copy.click();
    expect(await page.evaluate(() => (window as any).copied)).toEqual(["PROMO-7"]);

    await say("/menu");
    await botSaid("Menu");
    const pollKey = chat.getByRole("button", { name: "Make a quiz" });
    expect(await pollKey.getAttribute("class")).toContain("pv-key-danger");
    await pollKey.click();
    await botSaid("poll: Make a quiz");
    await chat.getByRole("button", { name: "Form" }).click();
    await panel.getByLabel("Data the Mini App sends back").fill("size=42");
    await panel.getByRole("button", { name: "Send data" }).click();
    await botSaid("app sent");

    // A 👍 on the bot's first message runs the reaction trigger; a join request is approved.
    await chat.locator('[data-from="bot"]').first().getByRole("button", { name: "React with 👍" }).click();
    await botSaid("liked 👍");
    // other emoji wait behind "More reactions"
    const first = chat.locator('[data-from="bot"]').first();
    await first.getByRole("button", { name: "More reactions" }).click();
    await first.getByRole("button", { name: "React with 🔥" }).waitFor();
    await first.getByRole("button", { name: "More reactions" }).click();
    await first.getByRole("button", { name: "React with 🔥" }).waitFor({ state: "detached" });
    await chat.getByRole("button", { name: "Leave the group" }).waitFor();
    await chat.getByRole("button", { name: "Become a group admin" }).waitFor();
    await chat.getByRole("button", { name: "Ask to join the group" }).click();
    await botSaid("approved for -");

    // An invoice in Stars shows with a Pay button; paying runs payment_trigger.
    await say("/buy");
    await botSaid("Premium — 5 ⭐");
    const bill = chat.locator('[data-from="bot"]').filter({ hasText: "Premium — 5 ⭐" }).first();
    await bill.getByRole("button", { name: "Pay 5 ⭐" }).click();
    await botSaid("paid 5 for premium");
    // a paid invoice shows as paid, with nothing left to press (the emulator would refuse a second Pay)
    await bill.getByText("✓ Paid 5 ⭐").waitFor();
    expect(await bill.getByRole("button", { name: /Pay/ }).count()).toBe(0);
    // a new invoice is payable again
    await say("/buy");
    await chat.locator('[data-from="bot"]').filter({ hasText: "Premium — 5 ⭐" }).nth(1).getByRole("button", { name: "Pay 5 ⭐" }).waitFor();
    expect(await bill.getByRole("button", { name: /Pay/ }).count()).toBe(0);
    expect(b.errors).toEqual([]);
  }, 90_000);

  test("name and menu commands from the Bots tab", async () => {
    const { page } = b;
    await page.goto(`${base}/projects/${projectId}/bots`);
    await page.getByText("Profile in Telegram").click();
    const form = page.getByRole("form", { name: "Profile in Telegram" });
    await form.getByLabel("Name", { exact: true }).fill("Cat shop");
    await form.getByRole("button", { name: "Apply" }).click();
    await form.getByRole("status").getByText("Set on Telegram: name, menu commands.").waitFor();
    const calls = fake.calls(bot.token).filter((c) => c.method.startsWith("setMy"));
    expect(calls.map((c) => [c.method, c.params])).toEqual([
      ["setMyName", { name: "Cat shop" }],
      ["setMyCommands", { commands: [{ command: "begin", description: "Begin" }] }],
    ]);
    expect(b.errors).toEqual([]);
  }, 60_000);
});
