// Opens the database with the pragmas the product relies on and applies the embedded migrations.
import type { Database } from "bun:sqlite";
import type { BunSQLiteDatabase } from "drizzle-orm/bun-sqlite";
import * as schema from "./schema";
import { embeddedMigrations } from "./migrations";
import { drizzleOver } from "./drizzle";
import { openSqlite } from "./sqlite";

export { applyPragmas } from "./sqlite";

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

/**
 * @param migrateUpTo only for tests of the upgrade path: apply the first N migrations.
 */
export function openDatabase(path: string, opts: { migrateUpTo?: number } = {}): Db {
  return databaseOver(openSqlite(path), opts);
}

/**
 * drizzle over a connection opened by `openSqlite`, migrated. `migrated`: the caller has already
 * found every migration applied (`migrationsCurrent`, or an earlier call), so the migrator's own
 * check (a table, a query, a hash per migration) is not repeated.
 */
export function databaseOver(sqlite: Database, opts: { migrateUpTo?: number; migrated?: boolean } = {}): Db {
  const db: Db = drizzleOver(sqlite, schema);
  // dialect.migrate is what drizzle's own migrate() calls after reading the folder; it is idempotent
  // (applied hashes are recorded in __drizzle_migrations) and runs in one transaction.
  if (!opts.migrated) (db as any).dialect.migrate(migrationList(opts.migrateUpTo), (db as any).session, { migrationsFolder: "" });
  return db;
}

export function closeDatabase(db: Db) {
  try {
    db.$client.exec("PRAGMA optimize");
  } catch {}
  // With every statement, falling back to a plain close (docs/database.md "Closing a connection").
  // Not closeNow itself: the log writer's thread uses this file and loads none of the bot runtime.
  try {
    db.$client.close(true);
  } catch {
    db.$client.close();
  }
}
