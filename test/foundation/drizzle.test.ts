// drizzle as the product uses it (src/db/drizzle.ts, docs/database.md "Parameters planned once"):
// each bound parameter is written `+?`, so the bundled SQLite plans a statement once instead of at
// every bind. The unary plus must change nothing a query answers, nor the index it uses.
import { Database, type SQLQueryBindings } from "bun:sqlite";
import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { SQLiteSyncDialect } from "drizzle-orm/sqlite-core";
import { openDatabase } from "../../src/db/client";
import { planOnce } from "../../src/db/drizzle";
import { ProjectDatabases } from "../../src/db/project-db";
import { projectBotUsers } from "../../src/db/project-schema";
import { botTokens } from "../../src/db/schema";
import { tokenStatements } from "../../src/modules/tokens/queries";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

describe("a parameter written +? answers exactly as ? does", () => {
  // One column of each affinity (and one without), rows of every storage class in each.
  const db = new Database(":memory:");
  db.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, i INTEGER, r REAL, n NUMERIC, x TEXT, b BLOB, u)");
  const stored: SQLQueryBindings[] = [null, 0, 1, 5, -1, 5.5, 1e20, "5", "5.0", "05", "abc", "", "Abc", " 5", new Uint8Array([53]), new Uint8Array([])];
  const insert = db.prepare("INSERT INTO t (i, r, n, x, b, u) VALUES (?, ?, ?, ?, ?, ?)");
  for (const v of stored) insert.run(v, v, v, v, v, v);
  const bound: SQLQueryBindings[] = [...stored, 5n, 9007199254740993n, true];
  const columns = ["i", "r", "n", "x", "b", "u"];
  const comparisons = ["= ?", "<> ?", "< ?", ">= ?", "IS ?", "IS NOT ?", "IN (?, 1)", "LIKE ?", "GLOB ?", "BETWEEN ? AND 10"];

  test.each(columns)("column %s: every comparison with every value", (column) => {
    for (const op of comparisons) {
      const plain = db.prepare(`SELECT id FROM t WHERE ${column} ${op} ORDER BY id`);
      const plus = db.prepare(`SELECT id FROM t WHERE ${column} ${op.replaceAll("?", "+?")} ORDER BY id`);
      for (const v of bound) expect([column, op, v, plus.values(v)]).toEqual([column, op, v, plain.values(v)]);
    }
  });

  test("as a value: the same type, text, sum and order of a LIMIT", () => {
    for (const v of bound) {
      const plain = db.query("SELECT typeof(?1) AS ty, quote(?1) AS q, ?1 || '' AS s, ?1 + 0 AS sum").get(v);
      const plus = db.query("SELECT typeof(+?1) AS ty, quote(+?1) AS q, +?1 || '' AS s, +?1 + 0 AS sum").get(v);
      expect([v, plus]).toEqual([v, plain]);
    }
    expect(db.query("SELECT id FROM t ORDER BY id LIMIT +? OFFSET +?").values(2, 3)).toEqual(db.query("SELECT id FROM t ORDER BY id LIMIT ? OFFSET ?").values(2, 3));
  });
});

test("the platform's drizzle and a project file's write +?, and the query keeps its index", () => {
  const platform = openDatabase(":memory:");
  const first = platform.select().from(botTokens).where(eq(botTokens.projectId, 7)).orderBy(botTokens.id).limit(1).toSQL().sql;
  expect(first).toContain(`"project_id" = +?`);
  expect(first).toEndWith("limit +?");
  const plan = platform.$client.query(`EXPLAIN QUERY PLAN ${first}`).all(7, 1) as { detail: string }[];
  expect(plan.map((p) => p.detail)).toEqual(["SEARCH bot_tokens USING INDEX tokens_project_idx (project_id=?)"]);
  // the statements the services prepare are the same builder's, and answer
  expect(tokenStatements(platform).first.all({ projectId: 7 })).toEqual([]);
  platform.$client.close();

  const dir = mkdtempSync(join(tmpdir(), "botloom-drizzle-"));
  const files = new ProjectDatabases(dir);
  const file = files.open(1);
  expect(file.select().from(projectBotUsers).where(eq(projectBotUsers.tokenId, 3)).toSQL().sql).toContain(`"token_id" = +?`);
  expect(file.select().from(projectBotUsers).where(eq(projectBotUsers.tokenId, 3)).all()).toEqual([]);
  files.close(1);
  rmSync(dir, { recursive: true, force: true });
});

test("planOnce changes only how a dialect writes a parameter", () => {
  expect(planOnce(new SQLiteSyncDialect()).sqlToQuery(eq(botTokens.id, 1)).sql).toBe(`"bot_tokens"."id" = +?`);
  expect(new SQLiteSyncDialect().sqlToQuery(eq(botTokens.id, 1)).sql).toBe(`"bot_tokens"."id" = ?`);
});
