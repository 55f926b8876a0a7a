// Scenario SQL runs on the project's tables file, with the bot's own file attached read-only: a
// psql_query can no longer drop bot_state and put in its place a table whose generated column makes
// every read of it (by the bot, by the server) compute for seconds. SQLite refuses the write, not a
// tokenizer. TEMP tables are capped, and tables older versions let scenarios create in the bot's
// file move, once, into the tables file.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { PROJECT_DB_DDL } from "../../src/db/project-schema";
import { scenarioTablesPath } from "../../src/scenario/codegen/runtime/scenario-file";
import { scenarioTablesPath as serverTablesPath } from "../../src/db/project-db";
import { startFakeMessenger, type FakeMessenger } from "../support/fake-messenger";
import { Chat, doc, node, removeDir, startBot, tmpDir, type BotProcess } from "./harness";

const sql = (id: string, next: string, query: string, extra: Record<string, unknown> = {}) => node(id, "psql_query", { query, ...extra, autoTransitionTo: next });
const EXPENSIVE = "chat_id AS (CASE WHEN length(hex(zeroblob(20000000 + token_id))) > 0 THEN 'x' END)";

const scenario = doc(
  node("c1", "command_trigger", { command: "/hostile", autoTransitionTo: "h1" }),
  sql("h1", "h2", "DROP TABLE bot_state"),
  sql("h2", "h3", "DROP TABLE bot.bot_users"),
  sql("h3", "h4", `CREATE TABLE bot.bot_state2 (token_id INTEGER, ${EXPENSIVE})`),
  sql("h4", "h5", "UPDATE bot_users SET variables = 'x'"),
  // Same name, in the tables file: the scenario's own table, which nothing but scenario SQL reads.
  sql("h5", "h6", `CREATE TABLE bot_state (token_id INTEGER, ${EXPENSIVE}, variables TEXT)`),
  sql("h6", "h7", "SELECT count(*) AS n FROM bot.bot_users", { resultFormat: "first_row", saveResultTo: "users" }),
  sql("h7", "h8", "SELECT count(*) AS n FROM legacy_orders WHERE item = 'pear'", { resultFormat: "first_row", saveResultTo: "pears" }),
  node("h8", "message", { messageText: "users={users.n} pears={pears.n}" }),

  node("c2", "command_trigger", { command: "/temp", autoTransitionTo: "t1" }),
  // 80 MB asked for in TEMP (the cap is 64 MiB); then a small TEMP table still works.
  sql("t1", "t2", "CREATE TEMP TABLE big AS WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c LIMIT 800) SELECT randomblob(100000) AS b FROM c"),
  sql("t2", "t3", "CREATE TEMP TABLE small AS SELECT 1 AS x"),
  sql("t3", "t4", "SELECT count(*) AS n FROM temp.small", { resultFormat: "first_row", saveResultTo: "small" }),
  node("t4", "message", { messageText: "small={small.n}" }),
);

let fake: FakeMessenger;
let b: BotProcess;
let dbPath: string;

beforeAll(async () => {
  fake = await startFakeMessenger();
  const dir = tmpDir("scenario-files-");
  dbPath = join(dir, "project.db");
  // A file an older version left: the bot's tables plus a scenario table (rows, an index) beside them.
  const old = new Database(dbPath, { create: true });
  old.exec("PRAGMA journal_mode = WAL");
  for (const ddl of PROJECT_DB_DDL) old.exec(ddl);
  old.exec("INSERT INTO bot_users (token_id, user_id, first_seen_at, last_seen_at) VALUES (0, '1', 'a', 'a'), (0, '2', 'a', 'a')");
  old.exec("CREATE TABLE legacy_orders (id INTEGER PRIMARY KEY AUTOINCREMENT, item TEXT, qty INTEGER)");
  old.exec("CREATE INDEX legacy_orders_item ON legacy_orders (item)");
  old.exec("INSERT INTO legacy_orders (item, qty) VALUES ('apple', 1), ('pear', 2), ('pear', 3)");
  old.close();
  b = await startBot(fake, scenario, { dir, generate: { enableLogging: true }, env: { DATABASE_PATH: dbPath } });
});

afterAll(async () => {
  await b?.stop();
  if (b) removeDir(b.dir);
  await fake?.stop();
});

const schemaOf = (path: string) =>
  new Database(path, { readonly: true }).query<{ name: string; sql: string | null }, []>("SELECT name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY name").all();

test("scenario SQL cannot drop, replace or write the bot's tables; it still reads them; the legacy table moved", async () => {
  const expected = (() => {
    const m = new Database(":memory:");
    for (const ddl of PROJECT_DB_DDL) m.exec(ddl);
    return m.query<{ name: string; sql: string | null }, []>("SELECT name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY name").all();
  })();
  const [reply] = await new Chat(b).say("/hostile");
  expect(reply.params.text).toBe("users=2 pears=2");
  const out = b.output();
  for (const id of ["h1", "h2", "h3", "h4"]) expect(out).toMatch(new RegExp(`node ${id}: psql_query failed: attempt to write a readonly database`));
  expect(out).toMatch(/psql_query h5 ran/);
  // The bot's file holds exactly Botloom's schema (the legacy table left it) and its rows.
  expect(schemaOf(dbPath)).toEqual(expected);
  const file = new Database(dbPath, { readonly: true });
  expect(file.query("SELECT user_id, variables FROM bot_users ORDER BY user_id").all()).toEqual([
    { user_id: "1", variables: "{}" },
    { user_id: "2", variables: "{}" },
  ]);
  file.close();
  // The tables file: the moved table with its rows and index, and the scenario's own "bot_state".
  const tables = new Database(scenarioTablesPath(dbPath), { readonly: true });
  expect(tables.query("SELECT item, qty FROM legacy_orders ORDER BY id").all()).toEqual([
    { item: "apple", qty: 1 },
    { item: "pear", qty: 2 },
    { item: "pear", qty: 3 },
  ]);
  expect(tables.query("SELECT name FROM sqlite_master WHERE type = 'index' AND name = 'legacy_orders_item'").get()).toEqual({ name: "legacy_orders_item" });
  expect(tables.query("SELECT count(*) AS n FROM sqlite_master WHERE name = 'bot_state'").get()).toEqual({ n: 1 });
  tables.close();
});

test("a TEMP table past its cap is refused (database or disk is full); a small one still works", async () => {
  const [reply] = await new Chat(b).say("/temp");
  expect(reply.params.text).toBe("small=1");
  await b.waitForOutput(/node t1: psql_query failed: database or disk is full/);
  expect(existsSync(scenarioTablesPath(dbPath))).toBe(true);
});

test("the server and the bot runtime name the same scenario tables file", () => {
  for (const path of ["/data/projects/7.db", "relative/12.db", "no-extension", "/x/preview.db"]) {
    expect(serverTablesPath(path)).toBe(scenarioTablesPath(path));
  }
  expect(serverTablesPath("/data/projects/7.db")).toBe("/data/projects/7-tables.db");
});
