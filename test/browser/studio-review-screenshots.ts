// One realistic bot seen through every audience tab — Dialogs, Users, Campaigns, Analytics, Tables —
// at 1280 and 390 px, light and dark, English and Russian, for review by eye:
// `bun test/browser/studio-review-screenshots.ts [outDir]` (default /tmp/studio-review-shots).
// Not part of the suite. Thirty users with Latin and Cyrillic names come from deep-link sources and
// press buttons, send media and edit a message; one has blocked the bot; an operator replies with
// buttons; a campaign has finished; /order fills a scenario table, so the tabs' figures can be
// compared with each other (the script prints them).
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { FakeUser } from "../support/fake-messenger";
import { node, pizzaWelcome, scenarioOf, shoot, startAudience } from "./audience-support";

const out = process.argv[2] ?? "/tmp/studio-review-shots";
mkdirSync(out, { recursive: true });
const scenario = scenarioOf(
  ...pizzaWelcome,
  node("cmd-order", "command_trigger", { command: "/order", autoTransitionTo: "ins" }, 600),
  node("ins", "bot_table", { tableName: "orders", operation: "insert", row: { customer: "{first_name}", pizza: "Margherita", qty: "1", status: "new" }, autoTransitionTo: "ok" }, 750),
  node("ok", "message", { messageText: "Order taken!" }, 900),
);
const env = await startAudience({ project: "Pizza orders", bot: "pizza_place_bot", scenario });
const { fake, t, cookie, base, botToken } = env;
const api = `/api/bot/tokens/${env.tokenId}`;

const first = ["Maria", "Мария", "John", "Иван", "Aleksandr Konstantinovich", "Ольга", "Li", "Пётр", "Ana", "Наталья", "Pierre", "Дмитрий", "Sofia", "Екатерина", "Ahmed", "Сергей", "Yuki", "Анна", "Carlos", "Владимир", "Emma", "Алексей", "Lucas", "Татьяна", "Noah", "Константин Константинович", "Mia", "Юлия", "Omar", "Елена"];
const people = first.map((name, i) => ({ id: 730001 + i, first_name: name, ...(i % 3 === 0 ? { username: `user_${i}` } : {}), ...(i % 4 === 1 ? { last_name: i % 2 ? "Иванова-Петрова" : "Smith" } : {}), language_code: /[а-я]/i.test(name) ? "ru" : "en" }) as FakeUser);
const sources = ["/start ref_42", "/start instagram", "/start", "/start vk_ads", "/start instagram"];
for (const [i, u] of people.entries()) {
  fake.sendText(botToken, u, sources[i % sources.length]!);
  await fake.waitForSent(botToken, u.id, 1, 20_000);
}
// half of them press Menu, a few order
for (const u of people.filter((_, i) => i % 2 === 0)) {
  const hello = fake.sent(botToken, u.id)[0]!;
  const kb = (hello.params.reply_markup as { inline_keyboard: { callback_data: string }[][] }).inline_keyboard;
  fake.pressButton(botToken, u, kb[0]![0]!.callback_data, hello.messageId);
  await fake.waitForSent(botToken, u.id, 1, 20_000);
}
for (const u of people.slice(0, 6)) {
  fake.sendText(botToken, u, "/order");
  await fake.waitForSent(botToken, u.id, 1, 20_000);
}
const [maria, mariaRu, john, ivan] = people as [FakeUser, FakeUser, FakeUser, FakeUser];
fake.sendText(botToken, maria, "Can I get a Margherita without basil? And is delivery to Tverskaya 12 free?");
fake.sendPhoto(botToken, maria, { caption: "This one please" });
fake.sendText(botToken, mariaRu, "Здравствуйте! Можно заказать две пиццы на завтра к 19:00?");
fake.sendDocument(botToken, john, { fileName: "order-list.pdf", mimeType: "application/pdf" });
const typo = fake.sendText(botToken, ivan, "Хочу пеперони");
fake.pushUpdate(botToken, { edited_message: { message_id: (typo as { message_id?: number })?.message_id ?? 1, date: Math.floor(Date.now() / 1000), edit_date: Math.floor(Date.now() / 1000), chat: { id: ivan.id, type: "private", first_name: ivan.first_name }, from: { id: ivan.id, is_bot: false, first_name: ivan.first_name }, text: "Хочу пепперони, большую" } });
for (let i = 0; i < 100; i++) {
  const list = (await t.call("GET", `${api}/chats`, { cookie })).body;
  if ((list.items ?? []).length >= people.length) break;
  await Bun.sleep(100);
}
const chat = (id: number) => `${api}/chats/${id}`;
await t.call("PUT", `${chat(maria.id)}/takeover`, { cookie, json: { on: true } });
await t.call("POST", `${chat(maria.id)}/messages`, { cookie, json: { text: "Of course! Delivery is <b>free</b> from 20 €. Anything else?", format: "html", buttons: [[{ text: "Track order", url: "https://pizza.example/track" }], [{ text: "Back to menu", goto: "menu" }]] } });
const tags: [number, string[]][] = [[0, ["vip", "delivery"]], [1, ["vip"]], [2, ["delivery"]], [3, ["vip", "постоянный клиент"]], [5, ["vip"]], [8, ["wholesale"]]];
for (const [i, list] of tags) await t.call("PUT", `${api}/users/${people[i]!.id}/tags`, { cookie, json: { tags: list } });
fake.setBlocked(people[6]!.id, true);
await t.call("POST", `${chat(people[6]!.id)}/messages`, { cookie, json: { text: "Are you still there?" } });
const campaign = (await t.call("POST", `${api}/campaigns`, { cookie, json: { name: "Weekend 2-for-1", message: { text: "Hi <b>{first_name}</b>! 🍕 Two pizzas for the price of one this weekend.", format: "html", buttons: [[{ text: "Order now", url: "https://pizza.example/order" }]] }, audience: { tags: ["vip"] } } })).body;
await t.call("POST", `${api}/campaigns/${campaign.id}/start`, { cookie });
for (let i = 0; i < 100; i++) {
  if ((await t.call("GET", `${api}/campaigns/${campaign.id}`, { cookie })).body.status === "done") break;
  await Bun.sleep(100);
}
await t.call("POST", `${api}/campaigns`, { cookie, json: { name: "New menu announcement", message: { text: "Our new menu is here, {first_name}!", format: "html" }, audience: { filter: "active", activeWithinDays: 7, languages: ["ru"] } } });
await Bun.sleep(500);

const users = (await t.call("GET", `${api}/users?limit=100`, { cookie })).body;
const analytics = (await t.call("GET", `${api}/analytics`, { cookie })).body;
const report = (await t.call("GET", `${api}/campaigns/${campaign.id}`, { cookie })).body;
console.log("figures:", JSON.stringify({ users: users.total ?? users.items?.length, analytics: analytics.totals ?? analytics, campaign: report.counts ?? report }).slice(0, 2000));

const shots: string[] = [];
const tabs: [string, string, (p: import("playwright-core").Page) => Promise<unknown>][] = [
  ["dialogs", `/projects/${env.projectId}/dialogs?token=${env.tokenId}&chat=${maria.id}`, (p) => p.getByTestId("dlg-messages").locator("li").first().waitFor()],
  ["dialogs-list", `/projects/${env.projectId}/dialogs?token=${env.tokenId}`, (p) => p.locator("body").waitFor()],
  ["users", `/projects/${env.projectId}/users?token=${env.tokenId}`, (p) => p.getByTestId("user-list").locator("li").first().waitFor()],
  ["users-card", `/projects/${env.projectId}/users?token=${env.tokenId}&user=${maria.id}`, (p) => p.getByTestId("user-card").getByRole("heading").first().waitFor()],
  ["campaigns", `/projects/${env.projectId}/campaigns?token=${env.tokenId}`, (p) => p.locator("body").waitFor()],
  ["campaign-report", `/projects/${env.projectId}/campaigns?token=${env.tokenId}&campaign=${campaign.id}`, (p) => p.locator("body").waitFor()],
  ["analytics", `/projects/${env.projectId}/analytics`, (p) => p.getByTestId("chart-users").locator("canvas").waitFor()],
  ["tables", `/projects/${env.projectId}/tables?table=orders`, (p) => p.getByTestId("table-grid").waitFor()],
];
const only = process.argv[3]?.split(",");
for (const width of [1280, 390]) {
  for (const [scheme, locale] of [["light", "en-US"], ["dark", "ru-RU"], ["light", "ru-RU"], ["dark", "en-US"]] as const) {
    const b = await env.browser({ viewport: { width, height: width > 500 ? 900 : 844 }, colorScheme: scheme, locale });
    for (const [label, url, ready] of tabs) {
      if (only && !only.includes(label)) continue;
      await b.page.goto(base + url);
      await ready(b.page);
      await b.page.waitForLoadState("networkidle").catch(() => undefined);
      await b.page.waitForTimeout(300);
      shots.push(await shoot(b.page, join(out, `${label}-${width}-${scheme}-${locale.slice(0, 2)}.png`)));
    }
    if (b.errors.length) console.log("errors:", b.errors);
    await b.close();
  }
}
console.log(shots.join("\n"));
await env.stop();
