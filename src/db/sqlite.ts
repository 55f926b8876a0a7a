// The platform database's file, without drizzle: what `serve` needs before it listens (the health
// probe asks the database itself). Loading drizzle and the schema's tables cost ~7 ms of a start,
// so that waits until the app loads (src/app-loader.ts), except on a first start or an upgrade,
// which migrate before listening.
import { Database } from "bun:sqlite";
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { embeddedMigrations } from "./migrations";
import { createPrivateFile, PRIVATE_DIR_MODE } from "../lib/file-modes";

export function applyPragmas(sqlite: Database) {
  sqlite.exec("PRAGMA journal_mode = WAL");
  sqlite.exec("PRAGMA synchronous = NORMAL");
  sqlite.exec("PRAGMA foreign_keys = ON");
  sqlite.exec("PRAGMA busy_timeout = 5000");
}

export function openSqlite(path: string): Database {
  if (path !== ":memory:") {
    mkdirSync(dirname(path), { recursive: true, mode: PRIVATE_DIR_MODE });
    // The database holds bot tokens; its WAL and SHM files take this mode from it.
    createPrivateFile(path);
  }
  const sqlite = new Database(path, { create: true, strict: true });
  applyPragmas(sqlite);
  return sqlite;
}

/** A second connection to a database that must already be there (a background thread's): never makes the file. */
export function openExistingSqlite(path: string): Database {
  const sqlite = new Database(path, { readwrite: true, create: false, strict: true });
  applyPragmas(sqlite);
  return sqlite;
}

/**
 * Whether every embedded migration is applied: drizzle's migrator records each in
 * __drizzle_migrations and applies those newer than the newest recorded, so this is its own test.
 */
export function migrationsCurrent(sqlite: Database): boolean {
  try {
    const row = sqlite.query("SELECT max(created_at) AS last FROM __drizzle_migrations").get() as { last: number | string | null } | null;
    return row?.last != null && Number(row.last) >= embeddedMigrations[embeddedMigrations.length - 1]!.when;
  } catch {
    return false; // no such table: a new database
  }
}

/**
 * Whether a newer Botloom migrated the database: a migration later than every embedded one. The
 * migrator then sees nothing to do, and this version would run on a schema it does not know.
 */
export function schemaNewerThanThis(sqlite: Database): boolean {
  try {
    const row = sqlite.query("SELECT max(created_at) AS last FROM __drizzle_migrations").get() as { last: number | string | null } | null;
    return row?.last != null && Number(row.last) > embeddedMigrations[embeddedMigrations.length - 1]!.when;
  } catch {
    return false; // no such table: a new database
  }
}

/** Whether the database answers. Cheap enough for a health probe; never throws. */
export function databaseAnswers(sqlite: Database): boolean {
  try {
    sqlite.query("SELECT 1").get();
    return true;
  } catch {
    return false;
  }
}
