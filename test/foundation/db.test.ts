import { describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { databaseOver, openDatabase } from "../../src/db/client";
import { migrationsCurrent, openSqlite } from "../../src/db/sqlite";
import { vacuumInto } from "../../src/db/vacuum-into";
import { embeddedMigrations } from "../../src/db/migrations";
import { Database } from "bun:sqlite";

const tables = (db: Database) => (db.query("select name from sqlite_master where type='table' order by name").all() as { name: string }[]).map((r) => r.name);

describe("database", () => {
  test("pragmas: WAL, foreign keys, busy timeout", () => {
    const db = openDatabase(join(mkdtempSync(join(tmpdir(), "botloom-db-")), "x.db"));
    expect(db.$client.query("PRAGMA journal_mode").get()).toEqual({ journal_mode: "wal" });
    expect(db.$client.query("PRAGMA foreign_keys").get()).toEqual({ foreign_keys: 1 });
    expect(db.$client.query("PRAGMA busy_timeout").get()).toEqual({ timeout: 5000 });
    db.$client.close();
  });

  test("migrations are embedded, applied once and idempotent", () => {
    const file = join(mkdtempSync(join(tmpdir(), "botloom-db-")), "x.db");
    openDatabase(file).$client.close();
    const db = openDatabase(file);
    const applied = db.$client.query("select count(*) as n from __drizzle_migrations").get() as { n: number };
    expect(applied.n).toBe(embeddedMigrations.length);
    for (const t of ["users", "sessions", "personal_access_tokens", "app_settings", "projects", "project_collaborators", "project_archives", "project_versions", "bot_tokens", "token_env_vars", "bot_users", "bot_launches", "bot_logs", "templates", "storage_configs", "media_files"]) {
      expect(tables(db.$client)).toContain(t);
    }
    db.$client.close();
  });

  test("upgrade from an older migration keeps the data", () => {
    expect(embeddedMigrations.length).toBeGreaterThanOrEqual(2);
    const file = join(mkdtempSync(join(tmpdir(), "botloom-db-")), "old.db");
    const old = openDatabase(file, { migrateUpTo: 1 });
    expect(tables(old.$client)).not.toContain("storage_configs");
    old.$client.exec("insert into users (id, first_name) values (7, 'Old')");
    old.$client.exec(`insert into projects (owner_id, name, data) values (7, 'Kept', '{"sheets":[]}')`);
    old.$client.close();
    const db = openDatabase(file);
    expect(tables(db.$client)).toContain("storage_configs");
    expect(tables(db.$client)).toContain("media_files");
    expect(db.$client.query("select name from projects").all()).toEqual([{ name: "Kept" }]);
    db.$client.close();
  });

  // `serve` listens before drizzle is loaded when this says the file is current (src/main.ts).
  test("migrationsCurrent: false for a new or older database, true once migrated", () => {
    const dir = mkdtempSync(join(tmpdir(), "botloom-db-"));
    const fresh = openSqlite(join(dir, "new.db"));
    expect(migrationsCurrent(fresh)).toBe(false);
    // `migrated` trusts the caller: nothing is applied to a new file.
    databaseOver(fresh, { migrated: true });
    expect(migrationsCurrent(fresh)).toBe(false);
    databaseOver(fresh);
    expect(migrationsCurrent(fresh)).toBe(true);
    fresh.close();
    for (let upTo = 1; upTo < embeddedMigrations.length; upTo++) {
      const file = join(dir, `old-${upTo}.db`);
      openDatabase(file, { migrateUpTo: upTo }).$client.close();
      const old = openSqlite(file);
      expect(migrationsCurrent(old)).toBe(false);
      old.close();
      openDatabase(file).$client.close();
      const upgraded = openSqlite(file);
      expect(migrationsCurrent(upgraded)).toBe(true);
      upgraded.close();
    }
  });

  test("foreign keys cascade: deleting a project removes its tokens", () => {
    const db = openDatabase(":memory:");
    db.$client.exec("insert into users (id) values (1)");
    db.$client.exec(`insert into projects (id, owner_id, name, data) values (1, 1, 'p', '{}')`);
    db.$client.exec(`insert into bot_tokens (project_id, token, name) values (1, 't', 'n')`);
    db.$client.exec("delete from projects where id = 1");
    expect(db.$client.query("select count(*) as n from bot_tokens").get()).toEqual({ n: 0 });
  });

  test("backup makes a consistent copy", () => {
    const dir = mkdtempSync(join(tmpdir(), "botloom-db-"));
    const db = openDatabase(join(dir, "a.db"));
    db.$client.exec("insert into users (id, first_name) values (3, 'B')");
    mkdirSync(join(dir, "backup"));
    vacuumInto(db.$client, join(dir, "backup", "b.db"));
    const copy = new Database(join(dir, "backup", "b.db"));
    expect(copy.query("select first_name from users").all()).toEqual([{ first_name: "B" }]);
  });
});
