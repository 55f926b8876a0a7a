// A bot opens the connection of its project's tables file (scenario SQL, bot_table) only when a
// scenario first needs it: most bots never do, and in a shared runner that connection, with the
// bot's file attached, was most of an idle bot's memory (docs/performance.md). A bot whose file
// still holds tables of older versions opens it at its start, so they move as they always did.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { PROJECT_DB_DDL } from "../../src/db/project-schema";
import { scenarioTablesPath } from "../../src/scenario/codegen/runtime/scenario-file";
import { startFakeMessenger, type FakeMessenger } from "../support/fake-messenger";
import { Chat, doc, node, removeDir, startBot, tmpDir, type BotProcess } from "./harness";

const scenario = doc(
  node("start", "start", { command: "/start", messageText: "hello {first_name}" }),
  node("c1", "command_trigger", { command: "/note", autoTransitionTo: "w1" }),
  node("w1", "bot_table", { tableName: "notes", operation: "insert", row: { text: "{first_name}" }, autoTransitionTo: "r1" }),
  node("r1", "psql_query", { query: "SELECT count(*) AS n FROM notes", resultFormat: "first_row", saveResultTo: "r", autoTransitionTo: "m1" }),
  node("m1", "message", { messageText: "notes={r.n}" }),
);

let fake: FakeMessenger;
const bots: BotProcess[] = [];

beforeAll(async () => {
  fake = await startFakeMessenger();
});

afterAll(async () => {
  for (const b of bots) {
    await b.stop();
    removeDir(b.dir);
  }
  await fake?.stop();
});

test("no tables file until a node needs it; then the node works as before, and keeps its rows", async () => {
  const dir = tmpDir("tables-on-use-");
  const dbPath = join(dir, "project.db");
  const b = await startBot(fake, scenario, { dir, env: { DATABASE_PATH: dbPath } });
  bots.push(b);
  const chat = new Chat(b);
  const [hello] = await chat.say("/start");
  expect(hello.params.text).toBe("hello Ann");
  expect(existsSync(dbPath)).toBe(true);
  expect(existsSync(scenarioTablesPath(dbPath))).toBe(false);

  const [first] = await chat.say("/note");
  expect(first.params.text).toBe("notes=1");
  expect(existsSync(scenarioTablesPath(dbPath))).toBe(true);
  const [second] = await chat.say("/note");
  expect(second.params.text).toBe("notes=2");
});

test("tables an older version left in the bot's file move at the start, before any scenario SQL", async () => {
  const dir = tmpDir("tables-on-use-legacy-");
  const dbPath = join(dir, "project.db");
  const old = new Database(dbPath, { create: true });
  old.exec("PRAGMA journal_mode = WAL");
  for (const ddl of PROJECT_DB_DDL) old.exec(ddl);
  old.exec("CREATE TABLE notes (id INTEGER PRIMARY KEY AUTOINCREMENT, created_at TEXT, text TEXT)");
  old.exec("INSERT INTO notes (text) VALUES ('kept')");
  old.close();
  const b = await startBot(fake, scenario, { dir, env: { DATABASE_PATH: dbPath } });
  bots.push(b);
  const [hello] = await new Chat(b).say("/start");
  expect(hello.params.text).toBe("hello Ann");

  const file = new Database(dbPath, { readonly: true });
  expect(file.query("SELECT count(*) AS n FROM sqlite_master WHERE name = 'notes'").get()).toEqual({ n: 0 });
  file.close();
  const tables = new Database(scenarioTablesPath(dbPath), { readonly: true });
  expect(tables.query("SELECT text FROM notes").all()).toEqual([{ text: "kept" }]);
  tables.close();

  const [note] = await new Chat(b).say("/note");
  expect(note.params.text).toBe("notes=2");
});
