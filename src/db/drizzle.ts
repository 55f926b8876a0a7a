// drizzle as the product uses it, over a bun:sqlite connection (the platform's database, a project's
// file): the two ways it departs from drizzle's defaults, each for a reason below.
import type { Database } from "bun:sqlite";
import { drizzle, type BunSQLiteDatabase } from "drizzle-orm/bun-sqlite";
import type { SQLiteSyncDialect } from "drizzle-orm/sqlite-core";

/** drizzle over `client` with `schema`: transactions begin IMMEDIATE, parameters are planned once. */
export function drizzleOver<S extends Record<string, unknown>>(client: Database, schema: S): BunSQLiteDatabase<S> & { $client: Database } {
  const db = drizzle({ client, schema });
  planOnce((db as unknown as { dialect: SQLiteSyncDialect }).dialect);
  return immediateTransactions(db);
}

// Every transaction of the product writes. A deferred one that reads first cannot take the write
// lock once another connection (a bot process, on a project file) has committed meanwhile: SQLite
// answers SQLITE_BUSY at once, without waiting out busy_timeout (seen as 500s under load, and as an
// operator's send to a user who blocked the bot failing while the bot wrote). BEGIN IMMEDIATE takes
// the write lock up front and waits like any single write.

/** Makes `db.transaction` begin IMMEDIATE unless the caller asks for another behavior. */
function immediateTransactions<D extends BunSQLiteDatabase<any>>(db: D): D {
  const deferred = db.transaction.bind(db);
  db.transaction = ((fn, config) => deferred(fn, { behavior: "immediate", ...config })) as D["transaction"];
  return db;
}

// The SQLite that Bun bundles (3.54) reads the values bound to a statement while planning it
// whenever a plan it weighs leaves a `column = ?` as a filter: an ORDER BY that the rowid could
// give, a LEFT JOIN, a LIKE. Such a statement is then prepared again each time a value is bound,
// so every call pays a whole prepare: 5 µs for a small one, 40–60 µs for a select of twenty
// columns, a third of a signed-in request's own time (docs/performance.md "Statements prepared
// once"). Written `+?`, a parameter is the same value with no affinity, as `?` is, and it still
// uses an index; the planner only does not look through the unary plus, so the plan is made once,
// as in other SQLite builds (or with SQLITE_DBCONFIG_ENABLE_QPSG, which bun:sqlite cannot set).

/** Makes `dialect` write each bound parameter as `+?` (see above). */
export function planOnce<D extends SQLiteSyncDialect>(dialect: D): D {
  dialect.escapeParam = () => "+?";
  return dialect;
}
