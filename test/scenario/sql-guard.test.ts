// The guard for scenario SQL (Level 2 psql_query / bot_table run it inside the bot): what it lets
// through runs on a real SQLite file; what it refuses would otherwise really reach other files or
// change the file (shown on an unguarded connection first).
import { afterAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { guardScenarioSql, ScenarioSqlError } from "../../src/scenario/codegen/runtime/sql-guard";
import { generateBot } from "../../src/scenario";

const dir = mkdtempSync(join(tmpdir(), "sql-guard-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function projectDb() {
  const db = new Database(join(dir, `p${Math.random().toString(36).slice(2)}.db`), { create: true });
  db.exec("PRAGMA journal_mode = WAL");
  db.exec("CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT, note TEXT)");
  return db;
}

const refuse = (sql: string, why: RegExp) => {
  expect(() => guardScenarioSql(sql)).toThrow(ScenarioSqlError);
  expect(() => guardScenarioSql(sql)).toThrow(why);
};

describe("guardScenarioSql", () => {
  test("ordinary statements pass and run; keywords inside strings, quoted names and comments are data", () => {
    const db = projectDb();
    const allowed = [
      "INSERT INTO items (name, note) VALUES (?, ?)",
      "SELECT * FROM items WHERE name = 'ATTACH DATABASE x AS y; VACUUM INTO ''/tmp/x''' -- PRAGMA",
      'SELECT "pragma", [vacuum] FROM (SELECT 1 AS "pragma", 2 AS [vacuum])',
      "UPDATE items SET note = 'load_extension(''x'')' /* DETACH */ WHERE id = 1;",
      "CREATE TABLE IF NOT EXISTS orders (id INTEGER PRIMARY KEY, item INTEGER, qty INTEGER)",
      "SELECT name FROM pragma_table_info('items')",
      "DELETE FROM items WHERE id > 100;  -- trailing comment",
      "WITH t(x) AS (SELECT 1) SELECT x FROM t",
      // words that only contain a refused keyword
      "SELECT 1 AS attachment, 2 AS vacuum_level, 3 AS pragmatic",
    ];
    for (const sql of allowed) {
      expect(guardScenarioSql(sql)).toBe(sql);
      const stmt = db.query(sql);
      sql.includes("?") ? stmt.run("a", "b") : stmt.all();
    }
    expect(db.query("SELECT count(*) AS n FROM items").get()).toEqual({ n: 1 });
    db.close();
  });

  test("without the guard these statements really reach other files or change the file", () => {
    const db = projectDb();
    const other = join(dir, "platform-like.db");
    db.exec(`ATTACH DATABASE '${other}' AS other`);
    expect(existsSync(other)).toBe(true);
    db.exec("DETACH DATABASE other");
    const copy = join(dir, "copy.db");
    db.exec(`VACUUM INTO '${copy}'`);
    expect(existsSync(copy)).toBe(true);
    db.exec("PRAGMA journal_mode = DELETE");
    expect(db.query("PRAGMA journal_mode").get()).toEqual({ journal_mode: "delete" });
    db.close();
  });

  test("ATTACH, DETACH, VACUUM (INTO), PRAGMA, extensions and file functions are refused, in any spelling", () => {
    refuse("ATTACH DATABASE '/work/data/botloom.db' AS p", /ATTACH/);
    refuse("attach '/etc/passwd' as x", /ATTACH/);
    refuse("  \n\tAtTaCh\n'x' AS y", /ATTACH/);
    refuse("/* hi */ATTACH 'x' AS y", /ATTACH/);
    refuse("DETACH DATABASE main", /DETACH/);
    refuse("VACUUM", /VACUUM/);
    refuse("VACUUM INTO '/tmp/stolen.db'", /VACUUM/);
    refuse("vacuum main into 'x'", /VACUUM/);
    refuse("PRAGMA journal_mode = DELETE", /PRAGMA/);
    refuse("PRAGMA writable_schema = ON", /PRAGMA/);
    refuse("pragma main.synchronous=OFF", /PRAGMA/);
    refuse("SELECT load_extension('/tmp/evil.so')", /load_extension/);
    refuse("SELECT LOAD_EXTENSION ('x', 'init')", /load_extension/);
    refuse("SELECT readfile('/etc/passwd')", /readfile/);
    refuse("SELECT writefile('/tmp/x', 'y')", /writefile/);
    refuse("SELECT fts3_tokenizer('simple', x'00')", /fts3_tokenizer/);
  });

  test("one statement only; NUL, empty and unterminated text are refused", () => {
    refuse("SELECT 1; ATTACH 'x' AS y", /ATTACH|one SQL statement/);
    refuse("SELECT 1; SELECT 2", /one SQL statement/);
    refuse("SELECT 1;\n-- c\nDELETE FROM items", /one SQL statement/);
    refuse("SELECT 1\u0000; ATTACH 'x' AS y", /NUL/);
    refuse("   ", /empty/);
    refuse("SELECT 'open", /unterminated/);
    refuse('SELECT "open', /unterminated/);
    refuse("SELECT [open", /unterminated/);
    // ATTACH hidden after a string that only looks closed ('' is an escaped quote)
    refuse("SELECT 'it''s'; ATTACH 'x' AS y", /ATTACH|one SQL statement/);
    refuse("SELECT 'a'' ATTACH ''b' ; VACUUM", /VACUUM|one SQL statement/);
    expect(guardScenarioSql("SELECT 1;;")).toBe("SELECT 1;;");
  });

  test("every generated bot carries the same guard, under the same name", () => {
    const { code } = generateBot({ sheets: [] }, { projectName: "G", userDatabaseEnabled: false });
    expect(code).toContain("function guardScenarioSql(sql: string): string {");
    expect(code).toContain("class ScenarioSqlError extends Error {}");
    expect(code).not.toMatch(/^export /m);
  });
});
