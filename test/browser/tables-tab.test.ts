// The Tables tab in Chromium with a real bot on the fake messenger (docs/tables.md): the bot's
// bot_table insert makes the table, the tab lists it, sorts by a header, searches, edits a cell
// in place (and the running bot reads the new value next), adds and deletes a row, imports a CSV
// (a bad one names its row and writes nothing) and exports CSV and JSON.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { expectOneBom } from "../support/bom";
import { haveChromium, placeholderFits, warnIfNoChromium, type Browser } from "../support/browser";
import type { FakeUser } from "../support/fake-messenger";
import { node, scenarioOf, startAudience, type AudienceEnv } from "./audience-support";

warnIfNoChromium("tables tab");

const table = (id: string, next: string, data: Record<string, unknown>) => node(id, "bot_table", { tableName: "orders", ...data, autoTransitionTo: next });
const scenario = scenarioOf(
  node("cmd-add", "command_trigger", { command: "/add", autoTransitionTo: "ins" }),
  table("ins", "added", { operation: "insert", row: { item: "apple", price: "10" } }),
  node("added", "message", { messageText: "added" }, 150),
  node("cmd-show", "command_trigger", { command: "/show", autoTransitionTo: "read" }, 300),
  table("read", "shown", { operation: "read", where: [{ column: "item", value: "apple" }], saveResultTo: "first" }),
  node("shown", "message", { messageText: "price={first.price}" }, 450),
);

describe.skipIf(!haveChromium)("Tables tab in Chromium", () => {
  let env: AudienceEnv;
  let b: Browser;
  const ann: FakeUser = { id: 770101, first_name: "Ann" } as FakeUser;
  const ask = async (text: string) => {
    env.fake.sendText(env.botToken, ann, text);
    const [reply] = await env.fake.waitForSent(env.botToken, ann.id, 1, 20_000);
    return String(reply!.params.text);
  };
  const grid = () => b.page.getByTestId("table-grid");
  const rowsApi = async () => (await env.t.call("GET", `/api/projects/${env.projectId}/tables/orders/rows?perPage=200`, { cookie: env.cookie })).body.items as Record<string, unknown>[];

  beforeAll(async () => {
    env = await startAudience({ project: "Shop", bot: "shop_bot", scenario });
    expect(await ask("/add")).toBe("added");
    const csv = "item,price\npear,5\nplum,7\n\"kiwi, gold\",12\n";
    const seeded = await env.t.call("POST", `/api/projects/${env.projectId}/tables/orders/import`, { cookie: env.cookie, body: csv, headers: { "content-type": "text/csv" } });
    expect(seeded.status).toBe(200);
    b = await env.browser();
  }, 60_000);
  afterAll(async () => {
    await env?.stop();
  });

  test("lists the table, sorts by a header and searches", async () => {
    const { page } = b;
    await page.goto(`${env.base}/projects/${env.projectId}/tables`);
    await page.getByTestId("table-list").getByText("orders").waitFor();
    await grid().waitFor();
    expect(await grid().locator("tbody tr").count()).toBe(4);
    // a row's id stands on the line of its cells' text (theirs sits inside a button's border and padding)
    const lines = await grid().locator("tbody tr").first().evaluate((tr) => [tr.querySelector("td.tbl-id")!, tr.querySelector(".tbl-cell")!].map((el) => {
      const range = document.createRange();
      range.selectNodeContents(el);
      return range.getBoundingClientRect().bottom;
    }));
    expect(Math.abs(lines[0]! - lines[1]!)).toBeLessThan(0.5);
    await grid().getByRole("button", { name: /^item/ }).click();
    await page.waitForFunction(() => document.querySelector('[data-testid="table-grid"] th[aria-sort="ascending"]')?.textContent?.startsWith("item"));
    const firstItem = async () => (await grid().locator("tbody tr").first().locator("td").nth(2).textContent())?.trim();
    await page.waitForFunction(() => document.querySelector('[data-testid="table-grid"] tbody tr td:nth-child(3)')?.textContent === "apple");
    await grid().getByRole("button", { name: /^item/ }).click();
    await page.waitForFunction(() => document.querySelector('[data-testid="table-grid"] tbody tr td:nth-child(3)')?.textContent === "plum");
    expect(await firstItem()).toBe("plum");
    await page.getByPlaceholder("Search text columns").fill("KIWI");
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="table-grid"] tbody tr').length === 1);
    expect(await grid().getByText("kiwi, gold").count()).toBe(1);
    await page.getByPlaceholder("Search text columns").fill("");
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="table-grid"] tbody tr').length === 4);
    // on a phone the search's hint shows whole, in both languages, and nothing runs off the page
    const viewport = page.viewportSize()!;
    await page.setViewportSize({ width: 390, height: 844 });
    const search = page.locator('.tbl-tools input[type="search"]');
    expect(await placeholderFits(search)).toBe(true);
    await page.getByLabel("Language").selectOption("ru");
    await page.getByPlaceholder("Поиск по текстовым столбцам").waitFor();
    expect(await placeholderFits(search)).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await page.getByLabel("Язык").selectOption("en");
    await page.getByPlaceholder("Search text columns").waitFor();
    await page.setViewportSize(viewport);
  }, 60_000);

  test("a cell edited in place is what the running bot reads next", async () => {
    const { page } = b;
    const apple = (await rowsApi()).find((r) => r.item === "apple")!;
    const label = `Edit price of row ${apple._id}`;
    await page.getByRole("button", { name: label }).click();
    const box = page.getByRole("textbox", { name: label });
    await box.fill("99");
    await box.press("Enter");
    await page.getByRole("button", { name: label }).getByText("99").waitFor();
    expect((await rowsApi()).find((r) => r._id === apple._id)!.price).toBe("99");
    expect(await ask("/show")).toBe("price=99");
  }, 60_000);

  test("adds a row and deletes one after a confirmation", async () => {
    const { page } = b;
    await page.getByRole("button", { name: "Add a row" }).click();
    const form = page.getByRole("form", { name: "New row" });
    await form.getByLabel("item").fill("mango");
    await form.getByLabel("price").fill("3");
    await form.getByRole("button", { name: "Add", exact: true }).click();
    await grid().getByText("mango").waitFor();
    const mango = (await rowsApi()).find((r) => r.item === "mango")!;
    expect(mango.price).toBe("3");
    await page.getByRole("button", { name: `Delete row ${mango._id}` }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Delete" }).click();
    await grid().getByText("mango").waitFor({ state: "detached" });
    expect((await rowsApi()).some((r) => r.item === "mango")).toBe(false);
  }, 60_000);

  test("imports a CSV (a bad row is named, nothing written) and exports CSV and JSON", async () => {
    const { page } = b;
    const before = (await rowsApi()).length;
    const input = page.locator('input[type="file"]');
    await input.setInputFiles({ name: "bad.csv", mimeType: "text/csv", buffer: Buffer.from("item,price\nfig,1\nlime,2,extra\n") });
    await page.getByRole("button", { name: "Import", exact: true }).click();
    const result = page.getByTestId("import-result");
    await result.waitFor();
    expect(await result.textContent()).toContain("row 2: 3 fields");
    expect((await rowsApi()).length).toBe(before);
    // a spreadsheet's semicolon "CSV" is named as such, not only as an unknown column
    await input.setInputFiles({ name: "excel.csv", mimeType: "text/csv", buffer: Buffer.from("item;price\r\nfig;1\r\n") });
    await page.getByRole("button", { name: "Import", exact: true }).click();
    await result.getByText("this header has semicolons", { exact: false }).waitFor();
    expect(await result.textContent()).toContain('"item;price" is not a column of orders');
    expect((await rowsApi()).length).toBe(before);
    await input.setInputFiles({ name: "more.csv", mimeType: "text/csv", buffer: Buffer.from('item,price\nfig,1\n"lime\nwith a line break",2\n') });
    await page.getByRole("button", { name: "Import", exact: true }).click();
    await page.getByText("2 rows imported.").waitFor();
    await grid().getByText("fig").waitFor();
    expect((await rowsApi()).length).toBe(before + 2);

    const [csv] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Download CSV" }).click()]);
    expect(csv.suggestedFilename()).toBe("orders.csv");
    const saved = readFileSync((await csv.path())!);
    expectOneBom(saved, "the Tables tab's Download CSV");
    const text = saved.toString("utf8").slice(1);
    expect(text.split("\r\n")[0]).toBe("id,created_at,item,price");
    expect(text).toContain('"lime\nwith a line break",2');
    const [json] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Download JSON" }).click()]);
    const rows = JSON.parse(readFileSync((await json.path())!, "utf8"));
    expect(rows.length).toBe(before + 2);
    expect(b.errors.filter((e) => !e.includes("status of 400"))).toEqual([]);
  }, 60_000);

  test("a row the bot adds while the tab is open shows in the grid as in the list's count, without a reload", async () => {
    const { page } = b;
    await page.goto(`${env.base}/projects/${env.projectId}/tables`);
    await grid().waitFor();
    const before = (await rowsApi()).length;
    await page.getByTestId("table-range").getByText(`1–${before} of ${before}`).waitFor();
    expect(await ask("/add")).toBe("added");
    // the list reads the counts every 10 s; the grid follows its table's count
    await page.getByTestId("table-list").getByText(`${before + 1} rows`).waitFor({ timeout: 20_000 });
    await page.getByTestId("table-range").getByText(`1–${before + 1} of ${before + 1}`).waitFor({ timeout: 5_000 });
    expect(await grid().locator("tbody tr").count()).toBe(before + 1);
  }, 45_000);
});
