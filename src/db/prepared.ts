// The one way statements are prepared (docs/database.md "One way to prepare statements"): a module's
// queries.ts declares its statements with `statements(...)`; each is prepared on first use and
// kept with its connection, by the bot runtime's own helper (lazyStatements: one for bots and
// server). Building and preparing every statement of every service at start took several
// milliseconds of a cold start (bench/cold-start.ts), most of them for routes a given run never
// calls; a statement built per call costs several times more than a prepared one.

import { lazyStatements } from "../lib/shared-runtime";

type Built<T extends Record<string, () => unknown>> = { readonly [K in keyof T]: ReturnType<T[K]> };

/**
 * Statements of one connection, by name: `statements((db) => ({ byId: () => db.select()...prepare() }))`
 * returns `(db) => set`, the same set for the same connection (the platform's, or one project
 * file's), each statement prepared on its first read.
 */
export function statements<D extends object, T extends Record<string, () => unknown>>(builders: (db: D) => T): (db: D) => Built<T> {
  const perConnection = new WeakMap<D, Built<T>>();
  return (db) => {
    let set = perConnection.get(db);
    if (!set) perConnection.set(db, (set = lazyStatements(builders(db))));
    return set;
  };
}
