// How a bot keeps its SQLite connections small: the cache each keeps, transactions and one-off
// reads that leave no prepared statement behind. A shared runner hosts hundreds of bots, each with
// its connections; what one keeps while idle is multiplied by all of them (docs/performance.md).
// Part of every generated program (runtime-text.ts embeds it from the first "// ─── " line on,
// without `export`; docs/runtime.md); the imports above that line are for the type checker only.
import type { Database } from "bun:sqlite";

// ─── A bot's SQLite connections ────────────────────────────────────────────────

/**
 * The page cache a connection keeps per file, in KiB. SQLite's default (up to 2 MB a file) kept
 * what a start touched, about 0.25 MB a bot. 256 KB holds a busy bot's hot pages (the rest are one
 * read from the OS's cache away), and an idle bot gives back even that (launch.ts shrinkMemory).
 */
export const CONNECTION_CACHE_KIB = 256;

/**
 * Closes a connection now, with every statement prepared on it. A plain close() leaves SQLite's
 * "zombie": the file and its WAL stay open until the statements are collected, which in a runner
 * hosting other bots may be long after the bot stopped (test/bots/runners-stop.test.ts).
 */
export function closeNow(d: Database) {
  try {
    d.close(true);
  } catch {
    d.close();
  }
}

/**
 * Statements prepared when first used: each costs its connection about 6.5 KB, a bot carries some
 * fifty, and most of a runner's hundreds of bots are idle (docs/performance.md). `make` maps a name
 * to what prepares it (db.prepare: db.query would keep it in the connection's own cache too); the
 * answer reads like the object of statements it stands for.
 */
export function lazyStatements<T extends Record<string, () => unknown>>(make: T): { [K in keyof T]: ReturnType<T[K]> } {
  const out = {} as { [K in keyof T]: ReturnType<T[K]> };
  for (const key of Object.keys(make)) {
    Object.defineProperty(out, key, {
      configurable: true,
      enumerable: true,
      get() {
        const value = make[key]!();
        Object.defineProperty(out, key, { value, enumerable: true });
        return value;
      },
    });
  }
  return out;
}

/**
 * Runs `fn` in one transaction (a savepoint inside another). bun:sqlite's db.transaction() keeps
 * nine prepared statements per connection for good (BEGIN of each kind, COMMIT, ROLLBACK, the
 * savepoint's); exec prepares each for the moment. Always IMMEDIATE: the bot's transactions
 * write, often after reading (a record's analytics read the person first), and a deferred one
 * whose snapshot a commit of the server went past fails with SQLITE_BUSY at once instead of
 * waiting out busy_timeout (docs/architecture.md, "Database and migrations").
 */
export function inTransaction<T>(d: Database, fn: () => T): T {
  const nested = d.inTransaction;
  d.exec(nested ? "SAVEPOINT nested" : "BEGIN IMMEDIATE");
  try {
    const out = fn();
    d.exec(nested ? "RELEASE nested" : "COMMIT");
    return out;
  } catch (err) {
    if (nested) {
      d.exec("ROLLBACK TO nested");
      d.exec("RELEASE nested");
    } else if (d.inTransaction) d.exec("ROLLBACK");
    throw err;
  }
}

/** The rows of a statement run once: db.query() would keep it prepared in the connection's cache. */
export function readOnce<T>(d: Database, sql: string, ...params: (string | number)[]): T[] {
  const statement = d.prepare<T, (string | number)[]>(sql);
  try {
    return statement.all(...params);
  } finally {
    statement.finalize();
  }
}
