// changeStamp (src/db/change-stamp.ts): the stamp the caches of resolved credentials and read-mostly
// answers are kept under moves with every write, through this connection or any other, and only then.
import { afterAll, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { changeStamp } from "../../src/db/change-stamp";
import { closeDatabase, databaseOver } from "../../src/db/client";

const dir = mkdtempSync(join(tmpdir(), "botloom-stamp-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test("moves on a write through this connection and on a commit by another, not on reads", () => {
  const path = join(dir, "s.db");
  const other = new Database(path, { create: true });
  other.exec("PRAGMA journal_mode = WAL; CREATE TABLE t (n INTEGER)");
  const db = databaseOver(new Database(path), { migrated: true });
  const stamp = changeStamp(db);
  const seen = [stamp()];
  db.$client.query("SELECT count(*) FROM t").get();
  seen.push(stamp());
  db.$client.run("INSERT INTO t VALUES (1)");
  seen.push(stamp());
  other.run("INSERT INTO t VALUES (2)");
  seen.push(stamp());
  other.query("SELECT count(*) FROM t").get();
  seen.push(stamp());
  expect(seen[1]).toBe(seen[0]);
  expect(seen[2]).not.toBe(seen[1]);
  expect(seen[3]).not.toBe(seen[2]);
  expect(seen[4]).toBe(seen[3]);
  expect(new Set(seen).size).toBe(3);
  closeDatabase(db);
  other.close();
});
