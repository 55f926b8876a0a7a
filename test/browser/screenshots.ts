// Screenshots of every Studio page at 1280 and 390 px, light and dark, for review by eye:
// `bun test/browser/screenshots.ts [outDir]` (default /tmp/studio-shots). Not part of the suite.
// Seeds one project from a template with a bot, a bot user, media, versions and a PAT first.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { createApp } from "../../src/app";
import { botLogs } from "../../src/db/schema";
import { projectBotUsers as botUsers } from "../../src/db/project-schema";
import { createTestApp, loginAs, setUp } from "../support/app";
import { launchBrowser } from "../support/browser";
import { startFakeMessenger } from "../support/fake-messenger";
import { freePort } from "../support/process";

const out = process.argv[2] ?? "/tmp/studio-shots";
mkdirSync(out, { recursive: true });
const fake = await startFakeMessenger();
const t = createTestApp({ fileDb: true, env: { MESSENGER_API_ROOT: fake.url } });
await setUp(t);
const port = await freePort();
const app = createApp(t.ctx).listen({ port, hostname: "127.0.0.1" });
const base = `http://127.0.0.1:${port}`;
t.ctx.state.localUrl = base;
const cookie = await loginAs(t, 4242, { firstName: "Ada", lastName: "Lovelace", username: "ada" });
const tpl = (await t.call("GET", "/api/templates?search=FAQ%20bot", { cookie })).body.items[0];
const p = (await t.call("POST", `/api/templates/${tpl.id}/use`, { cookie, json: { name: "Help desk" } })).body;
await t.call("POST", "/api/projects", { cookie, json: { name: "Pizza orders with a rather long name that wraps on a phone", description: "Takes orders for pizza and sends them to the kitchen chat." } });
const bot = fake.addBot({ username: "helpdesk_bot", firstName: "Help Desk" });
const tk = (await t.call("POST", `/api/bot/projects/${p.id}/tokens`, { cookie, json: { token: bot.token } })).body;
await t.call("POST", `/api/bot/tokens/${tk.id}/env`, { cookie, json: { key: "API_KEY", value: "s3cret-value", isSecret: 1 } });
await t.call("POST", `/api/bot/tokens/${tk.id}/env`, { cookie, json: { key: "SHOP_URL", value: "https://shop.example" } });
for (let i = 0; i < 12; i++) {
  const when = new Date(Date.now() - (i % 9) * 86_400_000).toISOString();
  t.ctx.projectFiles.open(p.id).insert(botUsers).values({ tokenId: tk.id, userId: String(5000 + i), firstName: `User${i}`, username: `user_${i}`, firstSeenAt: when, lastSeenAt: when, interactionCount: i + 1, variables: JSON.stringify({ city: "Kazan", score: i }) }).run();
}
const lines = ["bot started @helpdesk_bot", "[chat 5001] command /start", "[chat 5001] node start (command_trigger)", '[chat 5001] sent "Hi! Pick a topic: shipping, payment, returns or contacts."', "polling stopped: GrammyError: Call to 'getUpdates' failed! (409: Conflict: terminated by other getUpdates request)"];
t.ctx.db.insert(botLogs).values(lines.map((message, i) => ({ projectId: p.id, tokenId: tk.id, level: i === 4 ? "stderr" : "stdout", message }))).run();
const fd = new FormData();
fd.append("file", new File([Uint8Array.from(atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII="), (c) => c.charCodeAt(0))], "pixel.png", { type: "image/png" }));
await t.call("POST", `/api/projects/${p.id}/media`, { cookie, body: fd });
const full = (await t.call("GET", `/api/projects/${p.id}`, { cookie })).body;
await t.call("PUT", `/api/projects/${p.id}`, { cookie, json: { data: full.data, commitMessage: "Friendlier greeting" } });
await t.call("POST", "/api/auth/pats", { cookie, json: { name: "deploy script" } });
await t.call("POST", `/api/bot/projects/${p.id}/collaborators`, { cookie, json: { user_id: 5151 } });
await t.call("PUT", `/api/projects/${p.id}/admin-ids`, { cookie, json: { adminIds: "111,222" } });

const pages: [string, string][] = [
  ["login", "/login"],
  ["projects", "/projects"],
  ...["bots", "logs", "users", "tables", "media", "versions", "team", "export"].map((x) => [`project-${x}`, `/projects/${p.id}/${x}`] as [string, string]),
  ["templates", "/templates"],
  ["template", `/templates/${tpl.id}`],
  ["account", "/account"],
];
const shots: string[] = [];
for (const width of [1280, 390]) {
  for (const scheme of ["light", "dark"] as const) {
    const b = await launchBrowser({ viewport: { width, height: width > 500 ? 900 : 844 }, colorScheme: scheme, locale: scheme === "dark" ? "ru-RU" : "en-US" });
    const [name, value] = cookie.split("=");
    for (const [label, path] of pages) {
      if (label === "login") await b.context.clearCookies();
      else await b.context.addCookies([{ name: name!, value: value!, url: base }]);
      await b.page.goto(base + path);
      await b.page.waitForLoadState("networkidle").catch(() => undefined);
      if (label === "project-export") await b.page.getByRole("button", { name: /Generate|Сгенерировать/ }).click();
      if (label === "project-users") await b.page.locator(".user-list button").first().click();
      await b.page.waitForTimeout(400);
      const overflow = await b.page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      const file = join(out, `${label}-${width}-${scheme}.png`);
      await b.page.screenshot({ path: file, fullPage: true });
      shots.push(`${file}${overflow > 0 ? `  HORIZONTAL OVERFLOW ${overflow}px` : ""}`);
    }
    if (b.errors.length) console.log("errors:", b.errors);
    await b.close();
  }
}
console.log(shots.join("\n"));
app.server?.stop(true);
await t.ctx.bots.shutdown();
await fake.stop();
t.cleanup();
