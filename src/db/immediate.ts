// Every transaction of the product writes. A deferred one that reads first cannot take the write
// lock once another connection (a bot process, on a project file) has committed meanwhile: SQLite
// answers SQLITE_BUSY at once, without waiting out busy_timeout (seen as 500s under load, and as an
// operator's send to a user who blocked the bot failing while the bot wrote). BEGIN IMMEDIATE takes
// the write lock up front and waits like any single write.
import type { BunSQLiteDatabase } from "drizzle-orm/bun-sqlite";

/** Makes `db.transaction` begin IMMEDIATE unless the caller asks for another behavior. */
export function immediateTransactions<D extends BunSQLiteDatabase<any>>(db: D): D {
  const deferred = db.transaction.bind(db);
  db.transaction = ((fn, config) => deferred(fn, { behavior: "immediate", ...config })) as D["transaction"];
  return db;
}
