// Opens the database with the pragmas the product relies on and applies the embedded migrations.
import { Database } from "bun:sqlite";
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { drizzle, type BunSQLiteDatabase } from "drizzle-orm/bun-sqlite";
import * as schema from "./schema";
import { embeddedMigrations } from "./migrations";
import { createPrivateFile, PRIVATE_DIR_MODE } from "../lib/file-modes";

export type Db = BunSQLiteDatabase<typeof schema> & { $client: Database };

/** Migrations in drizzle's own form (same hash as drizzle-kit's migrator: SHA-256 of the file). */
function migrationList(upTo?: number) {
  const list = upTo === undefined ? embeddedMigrations : embeddedMigrations.slice(0, upTo);
  return list.map((m) => ({
    sql: m.sql.split("--> statement-breakpoint"),
    bps: m.breakpoints,
    folderMillis: m.when,
    hash: new Bun.CryptoHasher("sha256").update(m.sql).digest("hex"),
  }));
}

export function applyPragmas(sqlite: Database) {
  sqlite.exec("PRAGMA journal_mode = WAL");
  sqlite.exec("PRAGMA synchronous = NORMAL");
  sqlite.exec("PRAGMA foreign_keys = ON");
  sqlite.exec("PRAGMA busy_timeout = 5000");
}

/**
 * @param migrateUpTo only for tests of the upgrade path: apply the first N migrations.
 */
export function openDatabase(path: string, opts: { migrateUpTo?: number } = {}): Db {
  if (path !== ":memory:") {
    mkdirSync(dirname(path), { recursive: true, mode: PRIVATE_DIR_MODE });
    // The database holds bot tokens; its WAL and SHM files take this mode from it.
    createPrivateFile(path);
  }
  const sqlite = new Database(path, { create: true, strict: true });
  applyPragmas(sqlite);
  const db = drizzle({ client: sqlite, schema }) as Db;
  // Every transaction of the product writes. A deferred one that reads first cannot take the write
  // lock once another connection (a bot process) has committed meanwhile: SQLite answers
  // SQLITE_BUSY at once, without waiting out busy_timeout (seen as 500s under load). BEGIN
  // IMMEDIATE takes the write lock up front and waits like any single write.
  const deferred = db.transaction.bind(db);
  db.transaction = ((fn, config) => deferred(fn, { behavior: "immediate", ...config })) as Db["transaction"];
  // dialect.migrate is what drizzle's own migrate() calls after reading the folder; it is idempotent
  // (applied hashes are recorded in __drizzle_migrations) and runs in one transaction.
  (db as any).dialect.migrate(migrationList(opts.migrateUpTo), (db as any).session, { migrationsFolder: "" });
  return db;
}

export function closeDatabase(db: Db) {
  try {
    db.$client.exec("PRAGMA optimize");
  } catch {}
  db.$client.close();
}
