// Screenshots of the Campaigns tab at 1280 and 390 px, light (English) and dark (Russian), for
// review by eye: `bun test/browser/campaigns-screenshots.ts [outDir]` (default
// /tmp/campaigns-shots). Not part of the suite. A real bot on the fake messenger has a few tagged
// users and campaigns (one done with a blocked recipient and one the messenger refused, a draft, a
// scheduled album), so the screens show the list, the wizard's audience, message and test steps,
// and a report as an owner sees them.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { FakeUser } from "../support/fake-messenger";
import { node, scenarioOf, startAudience } from "./audience-support";

const out = process.argv[2] ?? "/tmp/campaigns-shots";
mkdirSync(out, { recursive: true });
const env = await startAudience({
  project: "Pizza orders",
  bot: "pizza_place_bot",
  scenario: scenarioOf(
    node("cmd-start", "command_trigger", { command: "/start", autoTransitionTo: "welcome" }),
    node("welcome", "message", { messageText: "Welcome to the pizza place!" }, 150),
    node("menu", "message", { messageText: "Margherita — 9 €" }, 300),
  ),
});
const { fake, t, cookie, base, botToken } = env;
const api = `/api/bot/tokens/${env.tokenId}`;
const people = [
  { id: 720001, first_name: "Maria", username: "maria_i", language_code: "ru" },
  { id: 720002, first_name: "John", username: "johnny", language_code: "en" },
  { id: 720003, first_name: "Aleksandr Konstantinovich", language_code: "ru" },
  { id: 720004, first_name: "Li", language_code: "zh" },
  { id: 720005, first_name: "Ana", language_code: "es" },
] as FakeUser[];
const starts = ["/start ref_42", "/start instagram", "/start", "/start instagram", "/start"];
for (const [i, u] of people.entries()) {
  fake.sendText(botToken, u, starts[i]!);
  await fake.waitForSent(botToken, u.id, 1, 20_000);
}
for (const u of people.slice(0, 4)) await t.call("PUT", `${api}/users/${u.id}/tags`, { cookie, json: { tags: u.id % 2 ? ["vip", "delivery"] : ["vip"] } });
fake.setBlocked(people[3]!.id, true);
const message = { text: "Hi <b>{first_name}</b>! 🍕 Two pizzas for the price of one this weekend.", format: "html", buttons: [[{ text: "Order now", url: "https://pizza.example/order" }], [{ text: "Menu", goto: "menu" }]] };
const done = (await t.call("POST", `${api}/campaigns`, { cookie, json: { name: "Weekend 2-for-1", message, audience: { tags: ["vip"] } } })).body;
// the first send fails in the messenger's own words: the report's longest error, beside the blocked one
fake.failNext(botToken, "sendMessage", { error_code: 403, description: "Forbidden: bot can't initiate conversation with a user" });
await t.call("POST", `${api}/campaigns/${done.id}/start`, { cookie });
for (let i = 0; i < 100; i++) {
  if ((await t.call("GET", `${api}/campaigns/${done.id}`, { cookie })).body.status === "done") break;
  await Bun.sleep(100);
}
const draft = (await t.call("POST", `${api}/campaigns`, { cookie, json: { name: "New menu announcement", message: { text: "Our <b>new menu</b> is here, {first_name}! 🍕 Four new pizzas and a vegan one.", format: "html", buttons: [[{ text: "See the menu", goto: "menu" }], [{ text: "Order", url: "https://pizza.example/order" }]] }, audience: { filter: "active", activeWithinDays: 7, languages: ["ru"] } } })).body;
// an album (two photos, the caption on the first) scheduled on Moscow's clock
const photo = async (file: string) => (await t.ctx.media.upload(env.projectId, new File([await Bun.file(join(import.meta.dir, "../../docs/images", file)).arrayBuffer()], file, { type: "image/png" }))).id;
const albumIds = [await photo("campaigns-report-1280-light.png"), await photo("campaigns-wizard-message-390-dark.png")];
const year = new Date().getUTCFullYear() + 1;
const album = (await t.call("POST", `${api}/campaigns`, { cookie, json: { name: "Photo album", message: { text: "This week's pizzas, {first_name} 🍕", mediaIds: albumIds }, audience: { tags: ["vip"] }, scheduledAt: `${year}-06-01T10:00`, timeZone: "Europe/Moscow" } })).body;

const shots: string[] = [];
const url = (q: string) => `/projects/${env.projectId}/campaigns?token=${env.tokenId}${q}`;
for (const width of [1280, 390]) {
  for (const scheme of ["light", "dark"] as const) {
    const b = await env.browser({ viewport: { width, height: width > 500 ? 900 : 844 }, colorScheme: scheme, locale: scheme === "dark" ? "ru-RU" : "en-US" });
    const pages: [string, string][] = [
      ["list", url("")],
      ["wizard-audience", url(`&campaign=${draft.id}&edit=1`)],
      ["wizard-message", url(`&campaign=${draft.id}&edit=1`)],
      ["wizard-test", url(`&campaign=${draft.id}&edit=1`)],
      ["wizard-album", url(`&campaign=${album.id}&edit=1`)],
      ["wizard-when", url(`&campaign=${album.id}&edit=1`)],
      ["report", url(`&campaign=${done.id}`)],
      ["confirm-start", url(`&campaign=${draft.id}`)],
    ];
    for (const [label, to] of pages) {
      await b.page.goto(base + to);
      await b.page.waitForLoadState("networkidle").catch(() => undefined);
      if (label === "list") await b.page.getByTestId("campaign-list").locator("li").first().waitFor();
      if (label.startsWith("wizard")) await b.page.getByTestId("audience-size").locator("strong").waitFor();
      const next = () => b.page.getByTestId("campaign-wizard").locator(".cmp-nav .btn.primary").click();
      if (label === "wizard-test") {
        await next();
        await b.page.getByTestId("campaign-preview").waitFor();
        await next();
        await b.page.getByTestId("campaign-wizard").getByRole("checkbox").first().waitFor();
      }
      if (label === "wizard-album") {
        await next();
        await b.page.getByTestId("preview-album").locator("img").nth(1).waitFor();
        await b.page.getByTestId("campaign-wizard").locator("select").last().selectOption(String(people[0]!.id));
      }
      if (label === "wizard-when") {
        for (let i = 0; i < 3; i++) await next();
        await b.page.getByTestId("schedule-utc").waitFor();
      }
      if (label === "wizard-message") {
        await next();
        await b.page.getByTestId("campaign-preview").waitFor();
        await b.page.getByTestId("campaign-wizard").getByRole("combobox").last().selectOption(String(people[0]!.id));
      }
      if (label === "report") await b.page.getByTestId("recipients").waitFor();
      if (label === "confirm-start") {
        await b.page.getByTestId("campaign-view").getByTestId("audience-size").locator("text=/\\d/").waitFor();
        await b.page.getByTestId("campaign-view").locator('[role=group] .btn.primary').click();
        await b.page.getByRole("dialog").waitFor();
      }
      await b.page.waitForTimeout(300);
      const overflow = await b.page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      const file = join(out, `campaigns-${label}-${width}-${scheme}.png`);
      await b.page.screenshot({ path: file, fullPage: true });
      shots.push(`${file}${overflow > 0 ? `  HORIZONTAL OVERFLOW ${overflow}px` : ""}`);
    }
    if (b.errors.length) console.log("errors:", b.errors);
    await b.close();
  }
}
console.log(shots.join("\n"));
await env.stop();
