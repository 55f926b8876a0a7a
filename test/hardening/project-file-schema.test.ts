// The server reads project files only once their schema is Botloom's: a file where an older
// version's scenario SQL (or a crafted file) replaced bot_users / bot_state with a table whose
// generated column computes on every read made GET /api/bot/tokens/{id}/users and the preview's
// variables run that code in the server, on its event loop. Here the generated column fails
// loudly (an integer overflow) instead of taking seconds: any read of it shows as an error.
import { afterAll, afterEach, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readChatVariables, writeChatVariables } from "../../src/db/preview-state";
import { ProjectDatabases } from "../../src/db/project-db";
import { PROJECT_DB_DDL } from "../../src/db/project-schema";
import { unexpectedSchema } from "../../src/db/project-schema-check";
import { scenarioTablesPath } from "../../src/scenario/codegen/runtime/scenario-file";
import { createTestApp, loginAs, setUp, type TestApp } from "../support/app";

const OWNER = 501;
/** Evaluating it throws "integer overflow": a read that computes it cannot go unnoticed. */
const TRAP = "abs(-9223372036854775807 - 1 + length(token_id))";

/** Every test's files live under one folder, removed at the end (the app's own in its cleanup). */
const root = mkdtempSync(join(tmpdir(), "project-file-schema-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let apps: TestApp[] = [];
afterEach(() => {
  for (const a of apps) a.cleanup();
  apps = [];
});

/** A project file whose bot tables were replaced as the hostile scenario did, with rows. */
function hostileFile(path: string) {
  const d = new Database(path, { create: true });
  d.exec("PRAGMA journal_mode = WAL");
  for (const ddl of PROJECT_DB_DDL) d.exec(ddl);
  d.exec("DROP TABLE bot_users");
  d.exec(
    `CREATE TABLE bot_users (id INTEGER PRIMARY KEY, token_id INTEGER NOT NULL, user_id AS (${TRAP}), first_name TEXT, last_name TEXT, username TEXT, ` +
      "language_code TEXT, photo_url TEXT, first_seen_at TEXT, last_seen_at TEXT, interaction_count INTEGER, variables TEXT)",
  );
  d.exec("DROP TABLE bot_state");
  d.exec(`CREATE TABLE bot_state (token_id INTEGER NOT NULL, chat_id AS (${TRAP}), variables TEXT, waiting TEXT, updated_at TEXT)`);
  // An index on an expression over a sound table runs on every write of it.
  d.exec(`CREATE INDEX trap_idx ON media_file_ids ((${TRAP.replace("token_id", "file_id")}))`);
  const users = d.query("INSERT INTO bot_users (token_id, first_name) VALUES (?, ?)");
  const states = d.query("INSERT INTO bot_state (token_id, variables) VALUES (?, '{\"x\":1}')");
  d.transaction(() => {
    for (let i = 0; i < 300; i++) {
      users.run(1, `u${i}`);
      states.run(0);
    }
  })();
  d.close();
}

test("GET /api/bot/tokens/{id}/users on a file with a hostile bot_users: the schema is rebuilt before any read, the answer is sound", async () => {
  const t = createTestApp();
  apps.push(t);
  await setUp(t);
  const cookie = await loginAs(t, OWNER);
  const project = (await t.call("POST", "/api/projects", { cookie, json: { name: "P" } })).body.id as number;
  const raw = t.ctx.db.$client;
  const tokenId = raw.query<{ id: number }, [number]>("INSERT INTO bot_tokens (project_id, token, name) VALUES (?, '12345:ABCDEFGHIJKLMNOPQRSTUVWXYZ0123', 'b') RETURNING id").get(project)!.id;
  t.ctx.projectFiles.closeAll();
  mkdirSync(t.ctx.projectFiles.dir, { recursive: true });
  hostileFile(t.ctx.projectFiles.pathOf(project));

  const users = await t.call("GET", `/api/bot/tokens/${tokenId}/users`, { cookie });
  expect(users.status).toBe(200);
  expect(users.body.count).toBe(0);
  const file = new Database(t.ctx.projectFiles.pathOf(project), { readonly: true });
  expect(unexpectedSchema(file)).toEqual([]);
  file.close();
  expect(t.logs.some((l) => /Project \d+: its file held a schema Botloom did not write; dropped .*trap_idx.*bot_users|bot_users.*trap_idx/.test(l))).toBe(true);
  // The stats endpoint reads the same (now sound) file.
  expect((await t.call("GET", `/api/bot/tokens/${tokenId}/stats`, { cookie })).status).toBe(200);
});

test("the preview's variables: a file with a hostile bot_state counts as no database; a sound one reads and writes", () => {
  const dir = mkdtempSync(join(root, "preview-state-"));
  const hostile = join(dir, "hostile.db");
  hostileFile(hostile);
  expect(readChatVariables(hostile, 1)).toEqual({});
  expect(writeChatVariables(hostile, 1, { a: 1 })).toBe(false);

  const sound = join(dir, "sound.db");
  const d = new Database(sound, { create: true });
  for (const ddl of PROJECT_DB_DDL) d.exec(ddl);
  d.close();
  expect(writeChatVariables(sound, 7, { a: 1 })).toBe(true);
  expect(readChatVariables(sound, 7)).toEqual({ a: 1 });
});

test("a sound file is accepted as it is; a view, a trigger, an extra index or an altered table are each found", () => {
  const d = new Database(":memory:");
  for (const ddl of PROJECT_DB_DDL) d.exec(ddl);
  expect(unexpectedSchema(d)).toEqual([]);
  d.exec("CREATE TABLE scenario_orders (id INTEGER PRIMARY KEY, x AS (1))");
  expect(unexpectedSchema(d)).toEqual([]);
  d.exec("CREATE VIEW v AS SELECT 1");
  d.exec("CREATE TRIGGER tr AFTER INSERT ON scenario_orders BEGIN SELECT 1; END");
  d.exec("CREATE INDEX extra ON bot_users (lower(username))");
  d.exec("ALTER TABLE project_content ADD COLUMN slow AS (1)");
  expect(unexpectedSchema(d).map((e) => `${e.type} ${e.name}`).sort()).toEqual(["index extra", "table project_content", "trigger tr", "view v"]);
});

test("removing a project's file removes its tables file too", () => {
  const dir = mkdtempSync(join(root, "project-remove-"));
  const files = new ProjectDatabases(dir);
  files.open(3);
  const tables = scenarioTablesPath(files.pathOf(3));
  expect(tables).toBe(join(files.dir, "3-tables.db"));
  const d = new Database(tables, { create: true });
  d.exec("PRAGMA journal_mode = WAL");
  d.exec("CREATE TABLE orders (x)");
  files.remove(3);
  expect(existsSync(files.pathOf(3))).toBe(false);
  expect(existsSync(tables)).toBe(false);
  expect(existsSync(`${tables}-wal`)).toBe(false);
  d.close();
});

test("the preview's kept reader sees a schema changed after it was checked, and a file made anew at the same path", () => {
  const dir = mkdtempSync(join(root, "preview-reader-"));
  const path = join(dir, "preview.db");
  const make = (vars: string) => {
    const d = new Database(path, { create: true });
    d.exec("PRAGMA journal_mode = WAL");
    for (const ddl of PROJECT_DB_DDL) d.exec(ddl);
    d.query("INSERT INTO bot_state (token_id, chat_id, variables, updated_at) VALUES (0, '5', ?, 'x')").run(vars);
    return d;
  };
  const first = make('{"n":1}');
  expect(readChatVariables(path, 5)).toEqual({ n: 1 });
  // Added behind the kept connection's back: counted as no database from the next read on.
  first.exec(`CREATE INDEX trap_idx ON bot_state ((${TRAP.replace("token_id", "chat_id")}))`);
  expect(readChatVariables(path, 5)).toEqual({});
  first.close();
  for (const suffix of ["", "-wal", "-shm"]) rmSync(path + suffix, { force: true });
  expect(readChatVariables(path, 5)).toEqual({});
  const second = make('{"n":2}');
  expect(readChatVariables(path, 5)).toEqual({ n: 2 });
  second.close();
});
