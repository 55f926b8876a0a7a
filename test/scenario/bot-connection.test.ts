// How a bot keeps its SQLite connections small (runtime/connection.ts): statements prepared on
// first use, transactions and one-off reads that keep no statement. The module has no side effects, so the test imports it as it is.
import { Database } from "bun:sqlite";
import { expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { inTransaction, lazyStatements, readOnce } from "../../src/scenario/codegen/runtime/connection";

function table() {
  const d = new Database(":memory:");
  d.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)");
  return d;
}

test("a statement is prepared on first use, once, and only the ones used", () => {
  const d = table();
  const made: string[] = [];
  const spy = (name: string, sql: string) => () => {
    made.push(name);
    return d.prepare(sql);
  };
  const q = lazyStatements({ insert: spy("insert", "INSERT INTO t (v) VALUES (?)"), count: spy("count", "SELECT count(*) AS n FROM t") });
  expect(made).toEqual([]);
  q.insert.run("a");
  q.insert.run("b");
  expect(made).toEqual(["insert"]);
  expect(Object.keys(q)).toEqual(["insert", "count"]);
  expect(q.count.get()).toEqual({ n: 2 });
  expect(made).toEqual(["insert", "count"]);
  d.close();
});

test("inTransaction commits, rolls back on a throw (the error goes on), and nests as a savepoint", () => {
  const d = table();
  const count = () => readOnce<{ n: number }>(d, "SELECT count(*) AS n FROM t")[0]!.n;
  expect(inTransaction(d, () => d.run("INSERT INTO t (v) VALUES ('a')").changes)).toBe(1);
  expect(d.inTransaction).toBe(false);
  expect(count()).toBe(1);

  expect(() =>
    inTransaction(d, () => {
      d.run("INSERT INTO t (v) VALUES ('b')");
      throw new Error("boom");
    }),
  ).toThrow("boom");
  expect(d.inTransaction).toBe(false);
  expect(count()).toBe(1);

  inTransaction(d, () => {
    d.run("INSERT INTO t (v) VALUES ('outer')");
    expect(() =>
      inTransaction(d, () => {
        d.run("INSERT INTO t (v) VALUES ('inner')");
        throw new Error("inner fails");
      }),
    ).toThrow("inner fails");
    expect(d.inTransaction).toBe(true); // the outer one goes on
    inTransaction(d, () => d.run("INSERT INTO t (v) VALUES ('inner2')"));
  });
  expect(readOnce<{ v: string }>(d, "SELECT v FROM t ORDER BY id").map((r) => r.v)).toEqual(["a", "outer", "inner2"]);
  d.close();
});

test("readOnce answers with the rows and binds its parameters; a bad statement throws", () => {
  const d = table();
  d.run("INSERT INTO t (v) VALUES ('x'), ('y'), ('z')");
  expect(readOnce<{ v: string }>(d, "SELECT v FROM t WHERE id > ? AND v <> ? ORDER BY id", 1, "z")).toEqual([{ v: "y" }]);
  expect(readOnce(d, "SELECT 1 WHERE 0")).toEqual([]);
  expect(() => readOnce(d, "SELECT * FROM missing")).toThrow(/no such table/);
  d.close();
});

test("inTransaction always begins IMMEDIATE: a commit by another writer after its first read cannot make it fail", () => {
  const dir = mkdtempSync(join(tmpdir(), "botloom-immediate-"));
  try {
    const path = join(dir, "p.db");
    const bot = new Database(path);
    bot.exec("PRAGMA journal_mode = WAL");
    bot.exec("CREATE TABLE t (v INTEGER)");
    const server = new Database(path);
    server.exec("PRAGMA busy_timeout = 0");
    let serverWrote = true;
    // the bot reads, the server tries to commit meanwhile, the bot writes
    inTransaction(bot, () => {
      bot.query("SELECT count(*) FROM t").get();
      try {
        server.run("INSERT INTO t (v) VALUES (1)");
      } catch {
        serverWrote = false; // it waits its turn (here: busy_timeout 0, so refused)
      }
      bot.run("INSERT INTO t (v) VALUES (2)");
    });
    expect(serverWrote).toBe(false);
    expect(bot.query("SELECT v FROM t").all()).toEqual([{ v: 2 }]);
    server.close();
    bot.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
