// A Russian-speaking owner's Studio in Chromium: the words that used to stay English in the Russian
// interface — the generic node form's field labels, React Flow's screen-reader labels (the canvas
// controls, every link), the "+" that adds the next step, the main navigation — and a file's size
// on the Media tab (КБ with a decimal comma, not "1.5 KB"), the first version's name on the
// Versions tab; and the preview chat, like Telegram,
// puts the time on every bubble.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { haveChromium, warnIfNoChromium, type Browser } from "../support/browser";
import { node, pizzaWelcome, scenarioOf, startAudience, type AudienceEnv } from "./audience-support";

warnIfNoChromium("russian everywhere");

describe.skipIf(!haveChromium)("the Studio in Russian", () => {
  let env: AudienceEnv;
  let b: Browser;

  beforeAll(async () => {
    const invoice = node("inv", "invoice", { title: "Подписка", description: "Месяц", amount: 50, payload: "p", photoUrl: "" }, 600);
    env = await startAudience({ project: "Пиццерия", bot: "pizza_place_bot", scenario: scenarioOf(...pizzaWelcome, invoice) });
    await env.t.ctx.media.upload(env.projectId, new File(["a".repeat(1536)], "menu.txt", { type: "text/plain" }));
    b = await env.browser({ locale: "ru-RU" });
    await b.page.goto(`${env.base}/login`);
    await b.page.evaluate(() => localStorage.setItem("botloom.lang", "ru"));
  }, 60_000);

  afterAll(async () => {
    await env?.stop();
  });

  test("the scenario editor: canvas labels, the quick add and the generic form read Russian", async () => {
    const { page } = b;
    await page.goto(`${env.base}/projects/${env.projectId}/scenario`);
    await page.locator('.react-flow__node[data-id="inv"]').waitFor();
    await expect(page.getByRole("navigation", { name: "Главное меню" }).count()).resolves.toBe(1);
    await expect(page.locator(".react-flow__controls").getAttribute("aria-label")).resolves.toBe("Управление холстом");
    await expect(page.locator('.react-flow__edge[data-id]').first().getAttribute("aria-label")).resolves.toMatch(/^Связь от \S+ к \S+$/);
    await expect(page.locator('.react-flow__node[data-id="menu"]').getByRole("button", { name: "Добавить шаг после «далее»" }).count()).resolves.toBe(1);
    await page.locator('.react-flow__node[data-id="inv"]').click();
    for (const label of ["Название", "Описание", "Сумма в звёздах", "Ссылка на фото"]) await page.getByLabel(label, { exact: true }).waitFor();
    const english = await page.evaluate(() => [...document.querySelectorAll("body *")].flatMap((el) => ["aria-label", "title"].map((a) => el.getAttribute(a) ?? "")).filter((v) => /^(Control Panel|Edge from|add next from|main$)/.test(v)));
    expect(english).toEqual([]);
    expect(b.errors).toEqual([]);
  }, 60_000);

  test("the Media tab gives a file's size in Russian units", async () => {
    const { page } = b;
    await page.goto(`${env.base}/projects/${env.projectId}/media`);
    await page.getByText("1,5 КБ", { exact: false }).waitFor();
    await expect(page.getByText(/\d KB\b/).count()).resolves.toBe(0);
  }, 60_000);

  test("the Versions tab names the project's first version in Russian", async () => {
    const { page } = b;
    await page.goto(`${env.base}/projects/${env.projectId}/versions`);
    await page.getByText("Проект создан", { exact: true }).waitFor();
    await expect(page.getByText("Project created").count()).resolves.toBe(0);
  }, 60_000);

  test("the preview chat shows each message's time, as Telegram does", async () => {
    const { page } = b;
    await page.goto(`${env.base}/projects/${env.projectId}/preview`);
    const chat = page.locator('[data-testid="preview-chat"][data-status="running"]');
    await chat.getByLabel("Сообщение", { exact: true }).fill("/start");
    await chat.getByRole("button", { name: "Отправить" }).click();
    const hello = chat.locator('[data-from="bot"]', { hasText: "Welcome to the pizza place" });
    await hello.waitFor({ timeout: 20_000 });
    for (const m of [chat.locator('[data-from="user"]').first(), hello]) await expect(m.getByTestId("pv-time").textContent()).resolves.toMatch(/^\d\d:\d\d$/);
    expect(b.errors).toEqual([]);
  }, 60_000);
});
