// Pay in the preview chat in Chromium, against a bot whose checkout waits on a held loopback service
// until the test lets it (docs/nodes/payments.md "In the preview"): from the press until the bot
// answers, Pay is disabled and says it is paying; a refusal makes it active again under the bot's
// reason; a confirmation shows the invoice paid, and the payment as the chat's service line.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createTestApp, loginAs, setUp, type TestApp } from "../support/app";
import { haveChromium, signedInBrowser, warnIfNoChromium, type Browser } from "../support/browser";
import { until } from "../support/process";
import { doc } from "../scenario/harness";
import { heldService } from "../scenario/held-service";
import { kotikChat } from "./kotik-chat";

warnIfNoChromium("preview Pay");

describe.skipIf(!haveChromium)("Pay in the preview chat", () => {
  const shop = heldService();
  let t: TestApp;
  let base: string;
  let b: Browser;
  let projectId: number;

  beforeAll(async () => {
    t = createTestApp({ env: { EGRESS_ALLOW: "127.0.0.1" } });
    await setUp(t);
    const cookie = await loginAs(t, 6262, { firstName: "Pia" });
    projectId = (await t.call("POST", "/api/projects", { cookie, json: { name: "Shop", data: doc(...shop.heldCheckout()) } })).body.id;
    t.app.listen({ port: 0, hostname: "127.0.0.1" });
    base = `http://127.0.0.1:${t.app.server!.port}`;
    b = await signedInBrowser(base, cookie);
  }, 60_000);

  afterAll(async () => {
    shop.releaseAll();
    await b?.close();
    await t?.ctx.preview.stopAll();
    await t?.app.server?.stop(true);
    t?.cleanup();
    shop.stop();
  });

  test("Pay waits for the bot disabled; refused, it is active again under the reason; confirmed, the invoice is paid and the payment a service line", async () => {
    const { page } = b;
    await page.goto(`${base}/projects/${projectId}/preview`);
    const chat = page.getByTestId("preview-chat");
    await chat.getByTestId("pv-status").getByText("running").waitFor({ timeout: 20_000 });
    const { say, botSaid } = kotikChat(chat);
    await say("/buy");
    await botSaid("Premium — 5 ⭐");
    const bill = chat.locator('[data-from="bot"]').filter({ hasText: "Premium — 5 ⭐" }).first();
    const pay = bill.getByRole("button", { name: "Pay 5 ⭐" });
    const paying = bill.getByRole("button", { name: "Paying…" });

    // under the pointer Pay keeps its colour (a light grey under white text it was)
    await pay.hover();
    expect(await pay.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe("rgb(47, 125, 225)");
    await pay.click();
    // the bot's checkout is asking the stock service, held: the payment waits, and Pay with it
    await until(() => shop.held.length === 1, "the checkout's stock request");
    await paying.waitFor();
    expect(await paying.isDisabled()).toBe(true);
    shop.held.shift()!({ left: 0 });
    await bill.getByTestId("pv-refusal").getByText("Sold out, sorry").waitFor();
    expect(await pay.isEnabled()).toBe(true);

    await pay.click();
    await until(() => shop.held.length === 1, "the second checkout's stock request");
    await paying.waitFor();
    expect(await paying.isDisabled()).toBe(true);
    // waiting again: the earlier refusal no longer shows
    expect(await bill.getByTestId("pv-refusal").count()).toBe(0);
    shop.held.shift()!({ left: 3 });
    await bill.getByText("✓ Paid 5 ⭐").waitFor();
    await botSaid("paid 5");
    expect(await bill.getByRole("button").filter({ hasText: /Pay/ }).count()).toBe(0);
    // the payment shows as Telegram shows it: a service line of the chat, not a bubble of either side
    const line = chat.getByTestId("pv-service");
    await line.waitFor();
    expect(await line.textContent()).toBe("You successfully transferred ⭐️5 to Shop");
    expect(await chat.locator("[data-from]").filter({ hasText: "transferred" }).count()).toBe(0);
    expect(b.errors).toEqual([]);
  }, 90_000);

  test("in the group the payer reads 'You successfully transferred', another member the payer's name", async () => {
    const { page } = b;
    await page.goto(`${base}/projects/${projectId}/preview`);
    const chat = page.getByTestId("preview-chat");
    await chat.getByTestId("pv-status").getByText("running").waitFor({ timeout: 20_000 });
    await chat.getByRole("combobox", { name: "Chat" }).selectOption("group");
    const { say, botSaid } = kotikChat(chat);
    await say("/buy");
    await botSaid("Premium — 5 ⭐");
    const bill = chat.locator('[data-from="bot"]').filter({ hasText: "Premium — 5 ⭐" }).first();
    await bill.getByRole("button", { name: "Pay 5 ⭐" }).click();
    await until(() => shop.held.length === 1, "the checkout's stock request");
    shop.held.shift()!({ left: 3 });
    await botSaid("paid 5");
    const line = chat.getByTestId("pv-service");
    await line.getByText("You successfully transferred ⭐️5 to Shop").waitFor();
    // the same line seen by the second user of the group: Telegram names the payer (first and last
    // name, so the preview's "Preview User" and "Preview Admin" are told apart)
    await chat.getByRole("combobox", { name: "Preview user" }).selectOption("second");
    await line.getByText("Preview User successfully transferred ⭐️5 to Shop").waitFor();
    await page.screenshot({ path: "/tmp/preview-shots/group-payment-second.png", fullPage: true });
    expect(await chat.getByTestId("pv-service").count()).toBe(1);
    expect(b.errors).toEqual([]);
  }, 90_000);
});
