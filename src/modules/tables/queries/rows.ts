// A row's reads and writes (one short IMMEDIATE transaction each: the bot may be writing the same
// file) and the whole table for an export, from a snapshot of its own (docs/tables.md).
import type { Database, SQLQueryBindings } from "bun:sqlite";
import { db, forget, openFile, quote } from "./files";
import { plainColumns, selectList, type Cell, type Row, type TableInfo } from "./schema";
import { closeNow } from "../../../lib/shared-runtime";

export function rowById(path: string, t: TableInfo, id: number): Row | undefined {
  // integers as bigints: a cell past 2^53 keeps its digits
  return db(path).query<Row, [number]>("SELECT " + selectList(t) + " FROM main." + quote(t.name) + " WHERE " + t.key + " = ?").safeIntegers(true).get(id) ?? undefined;
}

/** Inserts one row in a short IMMEDIATE transaction (the bot may be writing); its `_id`. */
export function insertRow(path: string, t: TableInfo, row: Record<string, Cell>): number {
  const d = db(path);
  const id = d.transaction(() => insertInto(d, t, Object.keys(row))(Object.values(row))).immediate();
  forget(path, t.name);
  return id;
}

export function insertInto(d: Database, t: TableInfo, columns: string[]): (values: Cell[]) => number {
  const text =
    columns.length === 0
      ? "INSERT INTO main." + quote(t.name) + " DEFAULT VALUES"
      : "INSERT INTO main." + quote(t.name) + " (" + columns.map(quote).join(", ") + ") VALUES (" + columns.map(() => "?").join(", ") + ")";
  const s = d.query<unknown, SQLQueryBindings[]>(text);
  return (values) => Number(s.run(...(values as SQLQueryBindings[])).lastInsertRowid);
}

export function updateRow(path: string, t: TableInfo, id: number, patch: Record<string, Cell>): boolean {
  const d = db(path);
  const cols = Object.keys(patch);
  if (cols.length === 0) return !!rowById(path, t, id);
  const text = "UPDATE main." + quote(t.name) + " SET " + cols.map((c) => quote(c) + " = ?").join(", ") + " WHERE " + t.key + " = ?";
  return d.transaction(() => d.query<unknown, SQLQueryBindings[]>(text).run(...(Object.values(patch) as SQLQueryBindings[]), id).changes > 0).immediate();
}

export function deleteRow(path: string, t: TableInfo, id: number): boolean {
  const d = db(path);
  const found = d.transaction(() => d.query<unknown, [number]>("DELETE FROM main." + quote(t.name) + " WHERE " + t.key + " = ?").run(id).changes > 0).immediate();
  forget(path, t.name);
  return found;
}

/**
 * Every row of a table, in `_id` order, `batch` at a time, from one read snapshot of a connection
 * of the export's own (closed when the iterator ends or is dropped): the kept connection goes on
 * writing meanwhile, and the bot's writes too (WAL readers never block writers).
 */
export function* allRows(path: string, t: TableInfo, batch: number): Generator<Row[]> {
  const d = openFile(path, true);
  try {
    const cols = plainColumns(t).map((c) => quote(c.name)).join(", ");
    const order = t.key ? " ORDER BY " + t.key : "";
    let rows: Row[] = [];
    for (const r of d.query<Row, []>("SELECT " + (cols || "NULL AS _") + " FROM main." + quote(t.name) + order).safeIntegers(true).iterate()) {
      rows.push(r);
      if (rows.length >= batch) {
        yield rows;
        rows = [];
      }
    }
    if (rows.length) yield rows;
  } finally {
    closeNow(d);
  }
}
