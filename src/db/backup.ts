// The SQL side of restores: the checks a restore makes on a file before it replaces a live
// database. (The online copies a backup makes: vacuum-into.ts.)
import { Database } from "bun:sqlite";
import { existsSync, readSync, openSync, closeSync } from "node:fs";
import { embeddedMigrations } from "./migrations";
import { closeNow } from "../lib/shared-runtime";

const SQLITE_MAGIC = "SQLite format 3\0";

/** Whether the file starts like an SQLite database (read before SQLite is allowed near it). */
export function isSqliteFile(path: string): boolean {
  if (!existsSync(path)) return false;
  const fd = openSync(path, "r");
  try {
    const head = Buffer.alloc(16);
    return readSync(fd, head, 0, 16, 0) === 16 && head.toString("latin1") === SQLITE_MAGIC;
  } finally {
    closeSync(fd);
  }
}

export type DatabaseCheck =
  | { ok: true; migrations: number }
  | { ok: false; reason: string };

/** `PRAGMA quick_check` on a file opened read-only: null when sound, else the first problem. */
function integrityProblem(db: Database): string | null {
  const rows = db.query("PRAGMA quick_check").all() as { quick_check: string }[];
  const first = rows[0]?.quick_check;
  return first === "ok" ? null : (first ?? "no answer");
}

function openReadOnly(path: string): Database | string {
  if (!isSqliteFile(path)) return "it is not an SQLite database";
  try {
    return new Database(path, { readonly: true });
  } catch (e) {
    return `it cannot be opened (${e instanceof Error ? e.message : String(e)})`;
  }
}

/**
 * A platform database this version can run: SQLite, sound, with Botloom's migration table, and
 * no migration newer than the ones embedded here (a newer schema would be silently misread).
 */
export function checkPlatformDatabase(path: string): DatabaseCheck {
  const db = openReadOnly(path);
  if (typeof db === "string") return { ok: false, reason: db };
  try {
    const problem = integrityProblem(db);
    if (problem) return { ok: false, reason: `it is damaged (${problem})` };
    const table = db.query("SELECT name FROM sqlite_master WHERE type = 'table' AND name IN ('__drizzle_migrations', 'projects', 'bot_tokens')").all();
    if (table.length < 3) return { ok: false, reason: "it is not a Botloom database" };
    const applied = db.query("SELECT hash, created_at AS at FROM __drizzle_migrations").all() as { hash: string; at: number }[];
    const known = new Set(embeddedMigrations.map((m) => new Bun.CryptoHasher("sha256").update(m.sql).digest("hex")));
    const newest = Math.max(...embeddedMigrations.map((m) => m.when));
    if (applied.some((m) => !known.has(m.hash) && Number(m.at) > newest)) {
      return { ok: false, reason: "it comes from a newer version of Botloom (its schema is newer than this version's); upgrade Botloom first" };
    }
    return { ok: true, migrations: applied.length };
  } catch (e) {
    return { ok: false, reason: `it cannot be read (${e instanceof Error ? e.message : String(e)})` };
  } finally {
    closeNow(db);
  }
}

/** A project database: an SQLite file that passes its quick check. */
export function checkProjectDatabase(path: string): DatabaseCheck {
  const db = openReadOnly(path);
  if (typeof db === "string") return { ok: false, reason: db };
  try {
    const problem = integrityProblem(db);
    return problem ? { ok: false, reason: `it is damaged (${problem})` } : { ok: true, migrations: 0 };
  } catch (e) {
    return { ok: false, reason: `it cannot be read (${e instanceof Error ? e.message : String(e)})` };
  } finally {
    closeNow(db);
  }
}
