// The Studio's preview chat in Chromium: a project made from the kotik questionnaire, its Preview
// tab, the questionnaire walked by typing answers and clicking the bot's reply buttons, each answer
// substituted in the final card; the preview ends when the page leaves.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createTestApp, loginAs, setUp, type TestApp } from "../support/app";
import { haveChromium, launchBrowser, warnIfNoChromium, type Browser } from "../support/browser";
import { kotikDocument } from "../preview/support";
import { kotikChat } from "./kotik-chat";

warnIfNoChromium("preview chat");
const doc = kotikDocument();

describe.skipIf(!haveChromium || doc === null)("preview chat in Chromium", () => {
  let t: TestApp;
  let base: string;
  let b: Browser;
  let projectId: number;

  beforeAll(async () => {
    t = createTestApp();
    await setUp(t);
    const cookie = await loginAs(t, 6060, { firstName: "Kira" });
    projectId = (await t.call("POST", "/api/projects", { cookie, json: { name: "Kotik", data: doc } })).body.id;
    t.app.listen({ port: 0, hostname: "127.0.0.1" });
    base = `http://127.0.0.1:${t.app.server!.port}`;
    b = await launchBrowser();
    const [name, value] = cookie.split("=");
    await b.context.addCookies([{ name: name!, value: value!, url: base }]);
  }, 60_000);

  afterAll(async () => {
    await b?.close();
    await t?.ctx.preview.stopAll();
    await t?.app.server?.stop(true);
    t?.cleanup();
  });

  test("walks the questionnaire by typing and clicking reply buttons; every answer is substituted", async () => {
    const { page } = b;
    await page.goto(`${base}/projects/${projectId}/preview`);
    const chat = page.getByTestId("preview-chat");
    await chat.getByTestId("pv-status").getByText("running").waitFor({ timeout: 20_000 });
    await chat.getByText("HTTP request nodes really call their URLs").waitFor();

    const { say, botSaid, toCity } = kotikChat(chat);

    // the /commands menu offers /start
    await chat.getByRole("button", { name: "Commands" }).click();
    await chat.getByRole("menuitem", { name: /\/start/ }).click();
    await toCity();
    await say("Казань");
    await botSaid("Как мне тебя называть?");
    await say("Мурка");
    await botSaid("Расскажи о себе");
    await say("Ловлю мышей");
    await botSaid("Теперь пришли фото");
    await chat.locator('input[type="file"][accept="image/*"]').setInputFiles({ name: "cat.png", mimeType: "image/png", buffer: Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==", "base64") });
    await botSaid("Мурка, 31, Казань - Ловлю мышей");
    await botSaid("Все верно?");

    // bot messages name their node; the variables panel shows the answers
    const nodes = await chat.locator('[data-from="bot"]').evaluateAll((els) => els.map((e) => e.getAttribute("data-node")));
    expect(nodes.filter(Boolean).length).toBeGreaterThanOrEqual(8);
    await chat.getByTestId("pv-variables").getByText("Казань").waitFor();
    await chat.locator("img.pv-photo").first().waitFor();

    expect(b.errors).toEqual([]);
    expect(b.requests.filter((u) => !u.startsWith(base) && !u.startsWith("data:"))).toEqual([]);

    // leaving the tab stops the preview, and so does leaving the page
    expect(t.ctx.preview.count).toBe(1);
    await page.getByRole("link", { name: "Bots" }).click();
    for (let i = 0; i < 50 && t.ctx.preview.count > 0; i++) await Bun.sleep(100);
    expect(t.ctx.preview.count).toBe(0);
    await page.getByRole("link", { name: "Preview" }).click();
    await chat.getByTestId("pv-status").getByText("running").waitFor({ timeout: 20_000 });
    expect(t.ctx.preview.count).toBe(1);
    await page.goto(`${base}/projects`);
    for (let i = 0; i < 50 && t.ctx.preview.count > 0; i++) await Bun.sleep(100);
    expect(t.ctx.preview.count).toBe(0);
  }, 90_000);
});
