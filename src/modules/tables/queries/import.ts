// An import's write (docs/tables.md "Import"): all records or none, holding the file's write lock
// as briefly as it can, and naming the first record SQLite refuses.
import type { SQLQueryBindings } from "bun:sqlite";
import { db, forget, quote } from "./files";
import { insertInto } from "./rows";
import type { Cell, TableInfo } from "./schema";

/** Thrown by importRows with the 1-based number of the record SQLite refused. */
export class RowRefused extends Error {
  constructor(
    readonly row: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Writes every record or none (replace empties the table first) and names the first record SQLite
 * refuses. The bot writes the same file, so the write lock is held as briefly as it can be: the
 * records go to a TEMP table first (this connection's own; the file is not locked meanwhile), then
 * one IMMEDIATE transaction copies them in a single INSERT … SELECT. Only when that copy is refused
 * are the records written one by one, in one transaction rolled back at the refused one, to name it.
 * `lockMs`: how long the file's write lock was held.
 */
export function importRows(path: string, t: TableInfo, records: Record<string, Cell>[], replace: boolean): { inserted: number; lockMs: number } {
  const d = db(path);
  forget(path, t.name);
  const shapes = new Set(records.map((r) => JSON.stringify(Object.keys(r))));
  const columns = records.length > 0 ? Object.keys(records[0]!) : [];
  if (shapes.size <= 1 && columns.length > 0) {
    const list = columns.map(quote).join(", ");
    d.exec("DROP TABLE IF EXISTS temp.botloom_import");
    // Untyped columns: a value keeps its type until the table's own affinity takes it.
    d.exec("CREATE TEMP TABLE botloom_import (" + list + ")");
    try {
      const stage = d.query<unknown, SQLQueryBindings[]>("INSERT INTO temp.botloom_import (" + list + ") VALUES (" + columns.map(() => "?").join(", ") + ")");
      d.transaction(() => {
        for (const r of records) stage.run(...(Object.values(r) as SQLQueryBindings[]));
      })();
      const t0 = performance.now();
      try {
        d.transaction(() => {
          if (replace) d.exec("DELETE FROM main." + quote(t.name));
          d.exec("INSERT INTO main." + quote(t.name) + " (" + list + ") SELECT " + list + " FROM temp.botloom_import ORDER BY rowid");
        }).immediate();
        return { inserted: records.length, lockMs: performance.now() - t0 };
      } catch (e) {
        if (!/^SQLITE_(CONSTRAINT|MISMATCH|TOOBIG)/.test(String((e as { code?: unknown }).code ?? ""))) throw e;
        // a record was refused: find which, one by one
      }
    } finally {
      d.exec("DROP TABLE IF EXISTS temp.botloom_import");
    }
  }
  const t0 = performance.now();
  d.transaction(() => {
    if (replace) d.exec("DELETE FROM main." + quote(t.name));
    // One statement per set of columns (JSON records may each name their own).
    const inserts = new Map<string, (values: Cell[]) => number>();
    for (let i = 0; i < records.length; i++) {
      const cols = Object.keys(records[i]!);
      const shape = JSON.stringify(cols);
      let insert = inserts.get(shape);
      if (!insert) inserts.set(shape, (insert = insertInto(d, t, cols)));
      try {
        insert(Object.values(records[i]!));
      } catch (e) {
        throw new RowRefused(i + 1, e instanceof Error ? e.message : String(e));
      }
    }
  }).immediate();
  return { inserted: records.length, lockMs: performance.now() - t0 };
}
