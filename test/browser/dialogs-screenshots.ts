// Screenshots of the Dialogs and Users tabs at 1280 and 390 px, light and dark, for review by eye:
// `bun test/browser/dialogs-screenshots.ts [outDir]` (default /tmp/dialogs-shots). Not part of the
// suite. A real bot on the fake messenger talks to a few users first (a deep link, a button press,
// a photo, an operator reply with buttons, a takeover, a blocked user, tags, payments), so the screens show
// what an owner sees. docs/images/ holds the ones docs/dialogs.md uses (copied by hand).
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { FakeUser } from "../support/fake-messenger";
import { pizzaWelcome, scenarioOf, startAudience } from "./audience-support";

const out = process.argv[2] ?? "/tmp/dialogs-shots";
mkdirSync(out, { recursive: true });
const data = scenarioOf(...pizzaWelcome);
const env = await startAudience({ project: "Pizza orders", bot: "pizza_place_bot", scenario: data });
const { fake, t, cookie, base } = env;
const bot = { token: env.botToken };
const p = { id: env.projectId };
const tk = { id: env.tokenId };

const people: FakeUser[] = [
  { id: 710001, first_name: "Maria", last_name: "Ivanova", username: "maria_i", language_code: "ru", is_premium: true },
  { id: 710002, first_name: "John", username: "johnny", language_code: "en" },
  { id: 710003, first_name: "Aleksandr Konstantinovich", last_name: "Vasilevsky-Rimsky", language_code: "ru" },
  { id: 710004, first_name: "Li", language_code: "zh" },
] as FakeUser[];
const starts = ["/start ref_42", "/start instagram", "/start", "/start ref_42"];
for (const [i, u] of people.entries()) {
  fake.sendText(bot.token, u, starts[i]!);
  await fake.waitForSent(bot.token, u.id, 1, 20_000);
}
const [maria, john, alex] = people as [FakeUser, FakeUser, FakeUser];
const hello = fake.sent(bot.token, maria.id)[0]!;
const kb = (hello.params.reply_markup as { inline_keyboard: { callback_data: string }[][] }).inline_keyboard;
fake.pressButton(bot.token, maria, kb[0]![0]!.callback_data, hello.messageId);
await fake.waitForSent(bot.token, maria.id, 1, 20_000);
fake.sendText(bot.token, maria, "Can I get a Margherita without basil? And is delivery to Tverskaya 12 free?");
fake.sendPhoto(bot.token, maria, { caption: "This one please" });
fake.sendText(bot.token, john, "hi, where is my order??");
fake.sendUserMessage(bot.token, alex, { location: { latitude: 55.7558, longitude: 37.6173 } });
const path = (chat: number) => `/api/bot/tokens/${tk.id}/chats/${chat}`;
// the bot records in 50 ms batches: wait until the chats are there
for (let i = 0; i < 100; i++) {
  const list = (await t.call("GET", `/api/bot/tokens/${tk.id}/chats`, { cookie })).body;
  if ((list.items ?? []).length >= 4) break;
  await Bun.sleep(100);
}
await t.call("PUT", `${path(maria.id)}/takeover`, { cookie, json: { on: true } });
const sent = await t.call("POST", `${path(maria.id)}/messages`, { cookie, json: { text: "Of course! Delivery is <b>free</b> from 20 €. Anything else?", format: "html", buttons: [[{ text: "Track order", url: "https://pizza.example/track" }], [{ text: "Back to menu", goto: "menu" }]] } });
if (sent.status !== 201) console.log("operator send:", sent.status, sent.body);
// a picture from the project's media, shown in place in the conversation
const picture = new FormData();
picture.append("file", new File([await Bun.file(join(import.meta.dir, "../../docs/images/preview.png")).arrayBuffer()], "menu.png", { type: "image/png" }));
const media = await t.call("POST", `/api/projects/${p.id}/media`, { cookie, body: picture });
await t.call("POST", `${path(maria.id)}/messages`, { cookie, json: { text: "Today's menu", mediaId: media.body.id } });
await t.call("PUT", `/api/bot/tokens/${tk.id}/users/${maria.id}/tags`, { cookie, json: { tags: ["vip", "delivery"] } });
// two Stars payments of Maria for the card's payments list (the bot records them)
for (const [charge, amount, payload] of [["stxMariaA", 150, "pizza_club_month"], ["stxMariaB", 40, "tip"]] as const) {
  fake.sendUserMessage(bot.token, maria, { successful_payment: { currency: "XTR", total_amount: amount, invoice_payload: payload, telegram_payment_charge_id: charge, provider_payment_charge_id: "" } });
}
fake.setBlocked(people[3]!.id, true);
await t.call("POST", `${path(people[3]!.id)}/messages`, { cookie, json: { text: "Are you still there?" } });
await Bun.sleep(300);

const shots: string[] = [];
const dialogsUrl = (chat?: number) => `/projects/${p.id}/dialogs?token=${tk.id}${chat ? `&chat=${chat}` : ""}`;
for (const width of [1280, 390]) {
  for (const scheme of ["light", "dark"] as const) {
    const b = await env.browser({ viewport: { width, height: width > 500 ? 900 : 844 }, colorScheme: scheme, locale: scheme === "dark" ? "ru-RU" : "en-US" });
    const pages: [string, string][] = [
      ["dialogs-chat", dialogsUrl(maria.id)],
      ...(width < 500 ? [["dialogs-list", dialogsUrl()] as [string, string]] : []),
      ["users-card", `/projects/${p.id}/users?token=${tk.id}&user=${maria.id}`],
    ];
    for (const [label, url] of pages) {
      await b.page.goto(base + url);
      await b.page.waitForLoadState("networkidle").catch(() => undefined);
      if (label === "dialogs-chat") await b.page.getByTestId("dlg-messages").locator("li").first().waitFor();
      if (label === "users-card") await b.page.getByTestId("user-card").getByRole("heading").first().waitFor();
      await b.page.waitForTimeout(300);
      const overflow = await b.page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      const file = join(out, `${label}-${width}-${scheme}.png`);
      await b.page.screenshot({ path: file, fullPage: label.startsWith("users") });
      shots.push(`${file}${overflow > 0 ? `  HORIZONTAL OVERFLOW ${overflow}px` : ""}`);
    }
    if (b.errors.length) console.log("errors:", b.errors);
    await b.close();
  }
}
console.log(shots.join("\n"));
await env.stop();
