// The guard for scenario SQL (Level 2 psql_query / bot_table run it inside the bot): what it lets
// through runs on a real SQLite file; what it refuses would otherwise really reach other files or
// change the file (shown on an unguarded connection first).
import { afterAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { guardCompiledScenarioSql, guardScenarioSql, ScenarioSqlError } from "../../src/scenario/codegen/runtime/sql-guard";
import { generateBot } from "../../src/scenario";
import { ProjectDatabases } from "../../src/db/project-db";

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

  test("triggers and views are refused: the platform's own reads and writes of the file would run them", () => {
    // Without the guard a trigger or a view written into the bot's file would run inside the
    // platform's reads and writes (in the server's process). The platform checks the schema when it
    // opens the file and again whenever its schema cookie moved: both go before they can run.
    const files = new ProjectDatabases(join(dir, "platform"));
    files.open(7);
    const bot = new Database(files.pathOf(7));
    bot.exec("CREATE TABLE loot (x TEXT)");
    const trigger = "CREATE TRIGGER spy AFTER INSERT ON project_content BEGIN INSERT INTO loot (x) VALUES ('ran in the platform'); END";
    bot.exec(trigger);
    const view = "CREATE VIEW bot_stats AS WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c LIMIT 1000) SELECT count(*) AS n FROM c";
    bot.exec(view);
    files.writeContent(7, "{}", "2026-01-01T00:00:00Z");
    expect(bot.query("SELECT x FROM loot").all()).toEqual([]);
    expect(bot.query("SELECT type, name FROM sqlite_master WHERE type IN ('view', 'trigger')").all()).toEqual([]);
    bot.close();
    files.closeAll();

    // (A trigger's body needs a ";", so the one-statement rule already stopped these.)
    refuse(trigger, /triggers|one SQL statement/);
    refuse("create temp trigger t before delete on bot_users begin select 1; end", /triggers|one SQL statement/);
    refuse(view, /views/);
    refuse("CREATE TEMPORARY VIEW IF NOT EXISTS v AS SELECT 1", /views/);
    // A column may still be named so when quoted.
    expect(guardScenarioSql('SELECT 1 AS "view", 2 AS [trigger]')).toBe('SELECT 1 AS "view", 2 AS [trigger]');
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

describe("the guard reads SQL as SQLite's tokenizer does", () => {
  test("a TCL-style parameter $a(...) runs to its ')': the quote inside it starts no string, so the ATTACH after is seen", () => {
    const db = projectDb();
    const attack = "SELECT $a(') ; ATTACH 'x' AS y --'";
    // What SQLite sees: one parameter `$a(')`, then a second statement.
    expect(db.query("SELECT $a(')").paramsCount).toBe(1);
    refuse(attack, /ATTACH|one SQL statement/);
    refuse("SELECT $a(') ATTACH 'x' AS y --'", /ATTACH/);
    refuse("SELECT :a(') ATTACH 'x' AS y --'", /ATTACH/);
    refuse("SELECT @a::b(') ATTACH 'x' AS y --'", /ATTACH/);
    refuse("SELECT $a::b::c(') VACUUM --'", /VACUUM/);
    refuse("SELECT #a(') PRAGMA --'", /PRAGMA/);
    // A "(" suffix ends at white space: SQLite refuses the token, so does the guard.
    refuse("SELECT $a(x y)", /not closed/);
    refuse("SELECT $ ", /without a name/);
    db.close();
  });

  test("every parameter form, quoted names, blob literals and numbers are single tokens, as SQLite counts them", () => {
    const db = projectDb();
    const cases: [string, number][] = [
      ["SELECT ?, ?12, :name, @name, $name, $a::b(c), #x", 17],
      ["SELECT x'00ff', X'', 1.5e+3, 0x1F, .5, 1_000 FROM items", 0],
      ["SELECT [a ' b], `c `` ' d`, \"e '' f\" FROM (SELECT 1 AS [a ' b], 2 AS `c `` ' d`, 3 AS \"e '' f\")", 0],
      ["SELECT name FROM items /* unterminated comment runs to the end: ATTACH", 0],
      ["SELECT 1 AS \u00a0attach", 0],
    ];
    for (const [sql, params] of cases) {
      expect(guardScenarioSql(sql)).toBe(sql);
      expect(db.query(sql).paramsCount).toBe(params);
    }
    // x'' is no escape inside a blob literal: the blob ends, the ATTACH is a keyword.
    refuse("SELECT x''; ATTACH 'x' AS y", /ATTACH|one SQL statement/);
    refuse("SELECT x'' ATTACH 'x' AS y", /ATTACH/);
    refuse("SELECT x'00", /unterminated/);
    db.close();
  });

  test("the compiled check: what SQLite's own parser makes of the statement is refused when it attaches, detaches, vacuums or loads code", () => {
    const db = projectDb();
    const compiled = (sql: string) => guardCompiledScenarioSql(db, sql);
    for (const sql of ["ATTACH ? AS y", "ATTACH DATABASE 'x' AS y", "DETACH y", "VACUUM", "VACUUM INTO 'x'", "SELECT load_extension('x')"]) {
      expect(() => compiled(sql)).toThrow(ScenarioSqlError);
    }
    for (const sql of ["SELECT * FROM items WHERE name = ?", "INSERT INTO items (name) VALUES ('ATTACH')", "CREATE TABLE IF NOT EXISTS t2 (a)"]) {
      expect(compiled(sql)).toBe(sql);
    }
    expect(db.query("SELECT count(*) AS n FROM pragma_database_list").get()).toEqual({ n: 1 });
    db.close();
  });
});
