// Bot processes write into the same SQLite file as the server (WAL). A server transaction that
// reads first and writes afterwards must not fail because a bot committed in between: found by
// the load test as 500 "database is locked" on PUT/POST /api/projects (SQLITE_BUSY_SNAPSHOT is
// returned at once, busy_timeout does not help a deferred transaction). db.transaction therefore
// begins IMMEDIATE.
import { afterAll, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDatabase } from "../../src/db/client";
import { users } from "../../src/db/schema";

const dir = mkdtempSync(join(tmpdir(), "botloom-locking-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test("a read-then-write transaction survives a bot's commit in between", () => {
  const path = join(dir, "botloom.db");
  const db = openDatabase(path);
  const bot = new Database(path);
  bot.exec("PRAGMA busy_timeout = 0"); // same thread: the bot cannot wait here; in its own process it would
  const seen = { botWrote: null as boolean | null };
  db.transaction((tx) => {
    tx.select().from(users).all();
    try {
      bot.run("INSERT INTO users (id) VALUES (1)");
      seen.botWrote = true;
    } catch {
      seen.botWrote = false; // the server holds the write lock: the bot's busy_timeout makes it wait
    }
    tx.insert(users).values({ id: 2 }).run();
  });
  expect(seen.botWrote).toBe(false);
  bot.run("INSERT INTO users (id) VALUES (1)"); // once the transaction committed
  expect(db.select({ id: users.id }).from(users).all().map((u) => u.id).sort()).toEqual([1, 2]);
  bot.close();
  db.$client.close();
});
