// The template gallery as a newcomer meets it (issue 27 item 10): the language filter starts at
// the interface's language, descriptions are plain words in that language, cards show no empty
// ratings; a template's page draws its graph and lets you try it in a preview chat, the walked
// nodes lighting up on the picture, without making a project.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { builtInTemplateFiles } from "../../assets/templates";
import { haveChromium, warnIfNoChromium } from "../support/browser";
import { editorEnv, type EditorEnv } from "./editor-support";

warnIfNoChromium("templates page");

const files = builtInTemplateFiles.map((f) => JSON.parse(f.text));
const ofLanguage = (lang: string) => files.filter((f) => f.language === lang);

describe.skipIf(!haveChromium)("templates page", () => {
  let env: EditorEnv;
  beforeAll(async () => {
    env = await editorEnv({ viewport: { width: 1440, height: 1000 } });
  }, 60_000);
  afterAll(async () => env?.close(), 30_000);

  const cards = () => env.b.page.getByTestId("template-list").locator(".template-card");

  test("English interface: the filter is EN, every card English in plain words, no empty stars", async () => {
    const { page } = env.b;
    await page.evaluate(() => localStorage.setItem("botloom.lang", "en"));
    await page.goto(`${env.base}/templates`);
    await expect(page.locator("#main").getByLabel("Language", { exact: true }).inputValue()).resolves.toBe("en");
    await page.waitForFunction((n) => document.querySelectorAll("[data-testid=template-list] .template-card").length === n, ofLanguage("en").length);
    const texts = await cards().locator("p.clamp").allTextContents();
    expect(texts.sort()).toEqual(ofLanguage("en").map((f) => f.descriptions.en).sort());
    expect(await cards().locator(".stars").count()).toBe(0);
    // every language is still one choice away
    await page.locator("#main").getByLabel("Language", { exact: true }).selectOption("");
    await page.waitForFunction((n) => document.querySelectorAll("[data-testid=template-list] .template-card").length === n, files.length);
    const all = await cards().locator("p.clamp").allTextContents();
    expect(all.sort()).toEqual(files.map((f) => f.descriptions.en).sort());
    expect(env.b.errors).toEqual([]);
  }, 30_000);

  test("Russian interface: the filter is RU and the descriptions are Russian", async () => {
    const { page } = env.b;
    await page.evaluate(() => localStorage.setItem("botloom.lang", "ru"));
    await page.goto(`${env.base}/templates`);
    await expect(page.locator("#main").getByLabel("Язык", { exact: true }).inputValue()).resolves.toBe("ru");
    await page.waitForFunction((n) => document.querySelectorAll("[data-testid=template-list] .template-card").length === n, ofLanguage("ru").length);
    const texts = await cards().locator("p.clamp").allTextContents();
    expect(texts.sort()).toEqual(ofLanguage("ru").map((f) => f.descriptions.ru).sort());
    // switching the interface language on the page switches the filter with it
    await page.getByRole("banner").getByLabel("Язык").selectOption("en");
    await page.waitForFunction((n) => document.querySelectorAll("[data-testid=template-list] .template-card").length === n, ofLanguage("en").length);
    await expect(page.locator("#main").getByLabel("Language", { exact: true }).inputValue()).resolves.toBe("en");
  }, 30_000);

  test("a template's page: a picture of every node, a try-it chat that answers /start and lights the walked nodes; no project made", async () => {
    const { page } = env.b;
    const faq = files.find((f) => f.name === "FAQ bot")!;
    const id = (await env.t.call("GET", "/api/templates?search=FAQ%20bot", { cookie: env.cookie })).body.items[0].id;
    const projectsBefore = (await env.t.call("GET", "/api/projects", { cookie: env.cookie })).body.length;
    await page.goto(`${env.base}/templates/${id}`);
    const detail = page.getByTestId("template-preview");
    await expect(detail.getByTestId("tpl-description").textContent()).resolves.toBe(faq.descriptions.en);
    const picture = detail.getByTestId("graph-picture");
    await picture.locator(".gp-node").first().waitFor();
    expect(await picture.locator(".gp-node").count()).toBe(faq.data.sheets[0].nodes.length);
    expect(await picture.locator(".gp-edge").count()).toBeGreaterThan(5);
    expect(await picture.locator(".gp-lit").count()).toBe(0);
    // no raw node kinds listed any more
    expect(await detail.textContent()).not.toContain("command_trigger");

    await detail.getByRole("button", { name: "Try it" }).click();
    const chat = detail.getByTestId("preview-chat");
    await chat.and(page.locator("[data-status=running]")).waitFor({ timeout: 30_000 });
    await chat.getByLabel("Message", { exact: true }).fill("/start");
    await chat.getByRole("button", { name: "Send" }).click();
    const first = chat.locator("[data-testid=pv-message][data-from=bot]").first();
    await first.waitFor({ timeout: 20_000 });
    expect(await first.getByTestId("pv-text").textContent()).toStartWith("Hi, ");
    // the bubble's text has its variables filled in, so the node's own words show under it, not its id
    await expect(first.getByTestId("pv-node").textContent()).resolves.toStartWith("↳ Hi, {first_name}!");
    const node = await first.getAttribute("data-node");
    await picture.locator(`.gp-node.gp-lit[data-node-id="${node}"]`).waitFor();
    await chat.getByRole("button", { name: /Shipping/ }).click();
    await chat.locator("[data-testid=pv-message][data-from=bot]").nth(1).waitFor({ timeout: 20_000 });
    const second = await chat.locator("[data-testid=pv-message][data-from=bot]").nth(1).getAttribute("data-node");
    await picture.locator(`.gp-node.gp-lit[data-node-id="${second}"]`).waitFor();
    expect(await picture.locator(".gp-node.gp-lit").count()).toBe(2);
    await page.screenshot({ path: "/tmp/editor-c-template-detail.png" });
    expect((await env.t.call("GET", "/api/projects", { cookie: env.cookie })).body.length).toBe(projectsBefore);
    expect(env.b.errors).toEqual([]);
  }, 90_000);

  test("on a phone the picture keeps its size and scrolls sideways to its last node", async () => {
    const { page } = env.b;
    const id = (await env.t.call("GET", "/api/templates?search=FAQ%20bot", { cookie: env.cookie })).body.items[0].id;
    await page.setViewportSize({ width: 390, height: 844 });
    try {
      await page.goto(`${env.base}/templates/${id}`);
      const picture = page.getByTestId("template-preview").getByTestId("graph-picture");
      await picture.locator(".gp-node").first().waitFor();
      const box = await picture.evaluate((el) => ({ overflowX: getComputedStyle(el).overflowX, scrollWidth: el.scrollWidth, clientWidth: el.clientWidth }));
      expect(box.overflowX).toBe("auto");
      expect(box.scrollWidth).toBeGreaterThan(box.clientWidth);
      // scrolled to its end, the rightmost node is in sight
      await picture.evaluate((el) => (el.scrollLeft = el.scrollWidth));
      const view = (await picture.boundingBox())!;
      const rightmost = await picture.locator(".gp-node rect").evaluateAll((rects) => Math.max(...rects.map((r) => r.getBoundingClientRect().right)));
      expect(rightmost).toBeLessThanOrEqual(view.x + view.width + 1);
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    } finally {
      await page.setViewportSize({ width: 1440, height: 1000 });
    }
  }, 30_000);

  test("ratings show once there is a vote", async () => {
    const { page } = env.b;
    const id = (await env.t.call("GET", "/api/templates?search=FAQ%20bot", { cookie: env.cookie })).body.items[0].id;
    await page.goto(`${env.base}/templates/${id}`);
    const detail = page.getByTestId("template-preview");
    expect(await detail.locator(".stars .muted.small").filter({ hasText: "(" }).count()).toBe(0);
    await detail.getByRole("button", { name: /4/ }).click();
    await detail.getByRole("status").waitFor();
    await page.getByTestId("template-list").locator(".template-card", { hasText: "FAQ bot" }).locator(".stars").waitFor();
  }, 30_000);
});
