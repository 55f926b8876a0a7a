// bot_table and psql_query run on the project's tables file (beside DATABASE_PATH): CRUD, upsert,
// aggregates, result formats, {table.name} variables, set_variable lookup, SQL with bound
// variables (an injection attempt stays a value), and refused or broken SQL that logs one line
// while the bot keeps serving.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { join } from "node:path";
import { scenarioTablesPath } from "../../src/scenario/codegen/runtime/scenario-file";
import { startFakeMessenger, type FakeMessenger } from "../support/fake-messenger";
import { Chat, doc, node, removeDir, startBot, tmpDir, type BotProcess } from "./harness";

const table = (id: string, next: string | undefined, data: Record<string, unknown>) => node(id, "bot_table", { tableName: "orders", ...data, autoTransitionTo: next });
const sql = (id: string, next: string | undefined, query: string, extra: Record<string, unknown> = {}) => node(id, "psql_query", { query, ...extra, autoTransitionTo: next });
const say = (id: string, text: string, next?: string) => node(id, "message", { messageText: text, ...(next ? { enableAutoTransition: true, autoTransitionTo: next } : {}) });
const cmd = (name: string, target: string) => node(`cmd-${name}`, "command_trigger", { command: `/${name}`, autoTransitionTo: target });

const scenario = doc(
  cmd("orders", "t1"),
  table("t1", "t2", { operation: "insert", row: { item: "apple", qty: "3", owner: "{user_id}" }, saveResultTo: "o", returnInsertedId: true }),
  table("t2", "t3", { operation: "insert", row: { item: "pear", qty: "5", owner: "{user_id}" } }),
  table("t3", "t4", { operation: "upsert", key: "item", onConflict: "update", row: { item: "apple", qty: "7" } }),
  table("t4", "t5", { operation: "update", where: [{ column: "item", value: "pear" }], updates: [{ column: "qty", op: "increment", value: "3" }] }),
  table("t5", "t6", { operation: "read", where: [{ column: "owner", value: "{user_id}" }], orderBy: "qty", orderDirection: "asc", resultFormat: "all_rows", saveResultTo: "rows" }),
  table("t6", "t7", { operation: "count", where: [{ column: "qty", operator: "greater_than", value: "6" }], saveResultTo: "n" }),
  table("t7", "t8", { operation: "sum", aggregateColumn: "qty", saveResultTo: "total" }),
  table("t8", "t9", { operation: "distinct", aggregateColumn: "item", saveResultTo: "kinds" }),
  table("t9", "q1", { operation: "read", where: [{ column: "item", operator: "contains", value: "APP" }], saveResultTo: "first" }),
  sql("q1", "q2", "SELECT item, qty FROM orders WHERE owner = {user_id} ORDER BY item", { resultFormat: "text", textTemplate: "{item}={qty}", saveResultTo: "lines" }),
  node("q2", "set_variable", { assignments: [{ id: "a", variable: "evil", value: "x' OR '1'='1" }], autoTransitionTo: "q3" }),
  sql("q3", "lk", "SELECT count(*) AS c FROM orders WHERE item = '{evil}'", { resultFormat: "first_row", saveResultTo: "inj" }),
  node("lk", "set_variable", {
    assignments: [{ id: "b", variable: "look", mode: "lookup", lookupTable: "orders", lookupField: "qty", lookupWhere: [{ field: "item", value: "pear" }] }],
    autoTransitionTo: "show",
  }),
  say("show", "id={o_id} rows={rows.length} low={rows.0.item} n={n} total={total} kinds={kinds} first={first.qty} lines={lines} inj={inj.c} look={look}", "del"),
  table("del", "after", { operation: "delete", where: [{ column: "item", value: "apple" }], saveResultTo: "gone" }),
  sql("after", "show2", "SELECT count(*) AS c FROM orders", { resultFormat: "first_row", saveResultTo: "left" }),
  say("show2", "gone={gone} left={left.c}"),

  cmd("bad", "b1"),
  sql("b1", "b1b", "SELECT * FROM nowhere"),
  sql("b1b", "b2", "SELEC item FROM orders"),
  sql("b2", "b3", "ATTACH DATABASE '/tmp/other.db' AS other"),
  sql("b3", "b4", "SELECT 1; DROP TABLE orders"),
  table("b4", "b5", { tableName: "bot_users", operation: "delete_all" }),
  table("b5", "b6", { tableName: "bad name; --", operation: "read" }),
  say("b6", "still serving"),
);

let fake: FakeMessenger;
let b: BotProcess;
let dbPath: string;

beforeAll(async () => {
  fake = await startFakeMessenger();
  const dir = tmpDir("scenario-tables-");
  dbPath = join(dir, "project.db");
  b = await startBot(fake, scenario, { dir, generate: { enableLogging: true }, env: { DATABASE_PATH: dbPath } });
});

afterAll(async () => {
  if (process.env.DEBUG_BOT) console.log(b?.output());
  await b?.stop();
  if (b) removeDir(b.dir);
  await fake?.stop();
});

describe("bot_table and psql_query", () => {
  test("CRUD, upsert, aggregates and result formats on the project's own file", async () => {
    const chat = new Chat(b);
    const [shown, after] = await chat.say("/orders", 2);
    expect(shown.params.text).toBe(`id=1 rows=2 low=apple n=2 total=15 kinds=apple, pear first=7 lines=apple=7\npear=8 inj=0 look=8`);
    expect(after.params.text).toBe("gone=1 left=1");
    // Scenario tables live in the project's tables file, beside the bot's own file.
    const file = new Database(scenarioTablesPath(dbPath), { readonly: true });
    expect(file.query("SELECT item, qty, owner FROM orders").all()).toEqual([{ item: "pear", qty: 8, owner: String(chat.user.id) }]);
    file.close();
  });

  test("missing tables, ATTACH, a second statement, the bot's own tables and bad names: one line each, the bot goes on", async () => {
    const chat = new Chat(b);
    expect((await chat.say("/bad"))[0].params.text).toBe("still serving");
    await b.waitForOutput(/node b5: bot_table read/); // stderr may arrive after the reply
    const out = b.output();
    expect(out).toContain("node b1: psql_query failed: no such table: nowhere");
    expect(out).toContain('node b1b: psql_query failed: near "SELEC": syntax error');
    expect(out).toContain("node b2: psql_query failed: refused: ATTACH opens another database file");
    expect(out).toContain("node b3: psql_query failed: only one SQL statement may run at a time");
    expect(out).toContain("node b4: bot_table delete_all on \"bot_users\" failed: table bot_users belongs to the bot");
    expect(out).toContain('node b5: bot_table read on "bad name; --" failed: table "bad name; --" is not a valid name');
    expect((await new Chat(b).say("/orders", 2))[1].params.text).toBe("gone=1 left=2");
  });
});
