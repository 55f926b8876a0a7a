// The Bots tab in Chromium with a real bot on the fake messenger, as an owner uses it on a phone in
// Russian: the uptime is worded in Russian (not the server's "25s"), every checkbox of a bot's
// settings and profile keeps its size and sits beside its words, and the profile's Apply says in
// words what it set on Telegram (not the messenger's method names), or that there is nothing to set
// (not the server's English refusal); the settings' "Saved" goes at the next edit.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { haveChromium, warnIfNoChromium, type Browser } from "../support/browser";
import type { Locator } from "playwright-core";
import { pizzaWelcome, scenarioOf, startAudience, type AudienceEnv } from "./audience-support";

warnIfNoChromium("bots tab");

describe.skipIf(!haveChromium)("Bots tab in Chromium", () => {
  let env: AudienceEnv;
  let b: Browser;
  const panel = () => b.page.getByTestId(`bot-${env.tokenId}`);

  beforeAll(async () => {
    env = await startAudience({ project: "Pizza", bot: "pizza_place_bot", scenario: scenarioOf(...pizzaWelcome) });
    b = await env.browser({ viewport: { width: 390, height: 844 }, colorScheme: "dark", locale: "ru-RU" });
    await b.page.goto(`${env.base}/projects/${env.projectId}/bots`);
    await panel().getByTestId("bot-status").getByText("Работает").waitFor({ timeout: 20_000 });
  }, 60_000);
  afterAll(async () => {
    await env?.stop();
  });

  /** A checkbox's box and the first line of the words of its label. */
  const boxAndWords = (box: Locator) => box.evaluate((el: HTMLInputElement) => {
    const words = el.closest("label")!.querySelector("span")!;
    const range = document.createRange();
    range.selectNodeContents(words);
    const line = range.getClientRects()[0]!;
    const r = el.getBoundingClientRect();
    return { width: r.width, height: r.height, left: r.left, right: r.right, top: r.top, bottom: r.bottom, wordsLeft: line.left, wordsTop: line.top, wordsBottom: line.bottom };
  });

  test("the running bot's uptime reads in the app's language", async () => {
    // the server's English "работает 25s" stood here
    const up = panel().getByTestId("bot-uptime");
    await up.waitFor();
    expect(await up.textContent()).toMatch(/^работает (\d+ с|\d+ мин \d+ с)$/);
    await b.page.getByLabel("Язык").first().selectOption("en");
    await panel().getByTestId("bot-uptime").getByText(/^up (\d+s|\d+m \d+s)$/).waitFor();
    await b.page.getByLabel("Language").first().selectOption("ru");
    await panel().getByText("Настройки", { exact: true }).waitFor();
  }, 30_000);

  test("on a phone every checkbox of the settings and the profile keeps its size, on the line of its words", async () => {
    await panel().getByText("Настройки", { exact: true }).click();
    await panel().getByText("Профиль в Telegram", { exact: true }).click();
    await panel().getByText("Переменные окружения", { exact: true }).click();
    const boxes = panel().locator("form input[type=checkbox]");
    await panel().getByLabel("Команды меню из сценария").waitFor();
    expect(await boxes.count()).toBe(5);
    for (const box of await boxes.all()) {
      const g = await boxAndWords(box);
      const name = await box.evaluate((el) => el.closest("label")!.textContent);
      // squeezed by its wrapping words, a box shrank to a 7 px dot on a phone
      expect({ name, width: Math.round(g.width) >= 12 }).toEqual({ name, width: true });
      // left of its words and on their first line (the menu commands' box stood alone at the right, its words a line below)
      expect({ name, left: g.right <= g.wordsLeft, sameLine: g.top < g.wordsBottom && g.bottom > g.wordsTop }).toEqual({ name, left: true, sameLine: true });
    }
    expect(await b.page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);
  }, 30_000);

  test("Apply says in words what it set on Telegram, or that there is nothing to set", async () => {
    const profile = panel().getByRole("form", { name: "Профиль в Telegram" });
    await profile.getByLabel("Имя", { exact: true }).fill("Пиццерия");
    await profile.getByRole("button", { name: "Применить" }).click();
    const said = profile.getByTestId("profile-applied");
    await said.waitFor();
    expect(await said.textContent()).toBe("Задано в Telegram: имя, команды меню.");
    expect(env.fake.calls(env.botToken, "setMyName").map((c) => c.params.name)).toEqual(["Пиццерия"]);
    // nothing typed and the menu commands off: it says so in the owner's language, asks nothing
    await profile.getByLabel("Имя", { exact: true }).fill("");
    await profile.getByLabel("Команды меню из сценария").uncheck();
    await profile.getByRole("button", { name: "Применить" }).click();
    // the server's English "body is invalid: root: nothing to set…" stood here
    await profile.getByTestId("profile-nothing").getByText("Нечего задавать: заполните поле или отметьте команды меню.").waitFor();
    expect(await profile.textContent()).not.toContain("body is invalid");
    expect(env.fake.calls(env.botToken, "setMyName")).toHaveLength(1);
    expect(b.errors).toEqual([]);
  }, 30_000);

  test("the settings' Saved shows after a save and goes at the next edit", async () => {
    const settings = panel().locator("form.settings");
    await settings.getByRole("button", { name: "Сохранить", exact: true }).click();
    await settings.getByRole("status").getByText("Сохранено").waitFor();
    // an edit after it: the form is no longer what is stored
    await settings.locator("input[name=name]").fill("Пиццерия на углу");
    await settings.getByRole("status").waitFor({ state: "detached" });
    await settings.getByRole("button", { name: "Сохранить", exact: true }).click();
    await settings.getByRole("status").getByText("Сохранено").waitFor();
    expect((await env.t.call("GET", `/api/bot/projects/${env.projectId}/tokens`, { cookie: env.cookie })).body.items[0].name).toBe("Пиццерия на углу");
  }, 30_000);
});
