// Screenshots of the Tables tab at 1280 and 390 px, light (English) and dark (Russian), for
// review by eye: `bun test/browser/tables-screenshots.ts [outDir]` (default /tmp/tables-shots).
// Not part of the suite. A real bot on the fake messenger makes its table with bot_table, then a
// CSV import fills it with orders (long notes, a line break, an empty cell).
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { FakeUser } from "../support/fake-messenger";
import { node, scenarioOf, startAudience } from "./audience-support";

const out = process.argv[2] ?? "/tmp/tables-shots";
mkdirSync(out, { recursive: true });
const data = scenarioOf(
  node("cmd-order", "command_trigger", { command: "/order", autoTransitionTo: "ins" }),
  node("ins", "bot_table", { tableName: "orders", operation: "insert", row: { customer: "{first_name}", pizza: "Margherita", qty: "1", address: "", status: "new" }, autoTransitionTo: "ok" }, 150),
  node("ok", "message", { messageText: "Order taken!" }, 300),
  node("cmd-sub", "command_trigger", { command: "/sub", autoTransitionTo: "sub" }, 450),
  node("sub", "bot_table", { tableName: "subscribers", operation: "insert", row: { user_id: "{user_id}", topic: "news" }, autoTransitionTo: "ok" }, 600),
);
const env = await startAudience({ project: "Pizza orders", bot: "pizza_place_bot", scenario: data });
const { fake, t, cookie, base } = env;
const maria = { id: 720001, first_name: "Maria" } as FakeUser;
fake.sendText(env.botToken, maria, "/order");
await fake.waitForSent(env.botToken, maria.id, 1, 20_000);
fake.sendText(env.botToken, maria, "/sub");
await fake.waitForSent(env.botToken, maria.id, 1, 20_000);
const names = ["John", "Aleksandr Konstantinovich", "Li", "Olga", "Pierre", "Sofia", "Ahmed", "Yuki", "Carlos", "Anna"];
const pizzas = ["Pepperoni", "Four cheeses", "Margherita", "Hawaiian", "Diavola"];
const lines = ["customer,pizza,qty,address,status"];
for (let i = 0; i < 64; i++) {
  const address = i === 1 ? '"Tverskaya 12, entrance 3\nring twice"' : i % 7 === 3 ? "" : `"${10 + i} Main street, flat ${i}"`;
  lines.push(`${names[i % names.length]},${pizzas[i % pizzas.length]},${1 + (i % 3)},${address},${i % 4 === 0 ? "delivered" : "new"}`);
}
const imported = await t.call("POST", `/api/projects/${env.projectId}/tables/orders/import`, { cookie, body: lines.join("\n") + "\n", headers: { "content-type": "text/csv" } });
if (imported.status !== 200) console.log("import:", imported.status, imported.body);

const shots: string[] = [];
for (const width of [1280, 390]) {
  for (const scheme of ["light", "dark"] as const) {
    const b = await env.browser({ viewport: { width, height: width > 500 ? 900 : 844 }, colorScheme: scheme, locale: scheme === "dark" ? "ru-RU" : "en-US" });
    for (const label of ["tables", "tables-edit"]) {
      await b.page.goto(`${base}/projects/${env.projectId}/tables?table=orders`);
      await b.page.getByTestId("table-grid").waitFor();
      if (label === "tables-edit") {
        await b.page.locator("tbody tr").nth(1).locator(".tbl-cell").nth(3).click();
        await b.page.getByRole("button", { name: width > 500 ? /Add a row|Добавить строку/ : /Add a row|Добавить строку/ }).click();
      }
      await b.page.waitForTimeout(300);
      const overflow = await b.page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      const file = join(out, `${label}-${width}-${scheme}.png`);
      await b.page.screenshot({ path: file, fullPage: label === "tables-edit" });
      shots.push(`${file}${overflow > 0 ? `  HORIZONTAL OVERFLOW ${overflow}px` : ""}`);
    }
    if (b.errors.length) console.log("errors:", b.errors);
    await b.close();
  }
}
console.log(shots.join("\n"));
await env.stop();
