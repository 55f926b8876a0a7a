// What a client writes to a scenario table, checked against the table before any SQL runs: known,
// writable columns; numbers where an INTEGER or REAL column takes numbers; CSV and JSON imports
// turned into records, the first bad one named (docs/tables.md "Import"). Pure: the service uses
// it for a row, the reads' worker for an import (read-worker.ts).
import { AppError, badRequest } from "../../errors";
import { CsvError, parseCsv, type CsvField } from "../../lib/csv";
import type { RowIn } from "./model";
import { plainColumns, type Cell, type ColumnInfo, type TableInfo } from "./queries";

/** A number as SQLite's numeric affinity would take it. */
const NUMBER = /^\s*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?\s*$/;

/** A row's cells checked against the table. */
export function rowCells(t: TableInfo, row: RowIn, where: string): Record<string, Cell> {
  const out: Record<string, Cell> = {};
  const columns = new Map(plainColumns(t).map((c) => [c.name, c]));
  for (const [name, value] of Object.entries(row)) {
    const c = columns.get(name);
    if (!c) throw badRequest(`${where}: ${JSON.stringify(name.slice(0, 100))} is not a column of ${t.name}`, { column: name.slice(0, 100) });
    out[name] = cellIn(c, value, where);
  }
  return out;
}

// A spreadsheet set to a locale whose decimal mark is a comma (Russian, German...) saves "CSV" with
// semicolons: the whole header then reads as one unknown column, and the error says why.
const SEMICOLONS = " (the fields of a CSV are separated by commas, and this header has semicolons: save the file as CSV with commas)";

/** The records of a CSV whose first line names the columns (any of them, in any order). */
export function csvRecords(t: TableInfo, text: string): Record<string, Cell>[] {
  let parsed: CsvField[][];
  try {
    parsed = parseCsv(text);
  } catch (e) {
    if (e instanceof CsvError) throw badRequest(e.record === 1 ? `header: ${e.message}` : `row ${e.record - 1}: ${e.message}`, { row: e.record - 1 });
    throw e;
  }
  const [header, ...rows] = parsed;
  if (!header) throw badRequest("The CSV is empty: the first line names the columns");
  const columns = new Map(plainColumns(t).map((c) => [c.name, c]));
  const seen = new Set<string>();
  const cols = header.map((h) => {
    const c = h === null ? undefined : columns.get(h);
    if (!c) throw badRequest(`header: ${JSON.stringify((h ?? "").slice(0, 100))} is not a column of ${t.name}${header.length === 1 && h?.includes(";") ? SEMICOLONS : ""}`, { row: 0 });
    if (seen.has(c.name)) throw badRequest(`header: ${c.name} is named twice`, { row: 0 });
    seen.add(c.name);
    return c;
  });
  return rows.map((fields, i) => {
    const where = `row ${i + 1}`;
    if (fields.length !== cols.length) throw badRequest(`${where}: ${fields.length} fields where the header names ${cols.length}`, { row: i + 1 });
    const out: Record<string, Cell> = {};
    cols.forEach((c, k) => (out[c.name] = cellIn(c, fields[k]!, where, i + 1)));
    return out;
  });
}

/** The records of a JSON array of row objects. */
export function jsonRecords(t: TableInfo, json: unknown): Record<string, Cell>[] {
  if (!Array.isArray(json)) throw badRequest("A JSON import is an array of row objects");
  return json.map((r, i) => {
    const where = `row ${i + 1}`;
    if (r === null || typeof r !== "object" || Array.isArray(r)) throw badRequest(`${where}: not an object of column: value`, { row: i + 1 });
    // `_id` is where the row was in the table it came from, not a column: a round trip drops it.
    const { _id: _, ...cells } = r as Record<string, unknown>;
    try {
      return rowCells(t, cells as RowIn, where);
    } catch (e) {
      if (e instanceof AppError) throw badRequest(e.message, { ...e.extra, row: i + 1 });
      throw e;
    }
  });
}

/** One cell as the column takes it; a value the column cannot hold is a 400 naming the column. */
function cellIn(c: ColumnInfo, v: unknown, where: string, row?: number): Cell {
  const refuse = (why: string) => badRequest(`${where}: ${c.name} ${why}`, { column: c.name, ...(row === undefined ? {} : { row }) });
  if (c.generated) throw refuse("is a generated column");
  if (v === null) return null;
  if (typeof v === "boolean") return v ? 1 : 0;
  if (typeof v === "number") {
    if (!Number.isFinite(v)) throw refuse("takes finite numbers only");
    return v;
  }
  if (typeof v !== "string") throw refuse("takes text, a number, true/false or null");
  // NUMERIC (DATE, BOOLEAN, ...) keeps text it cannot read as a number; INTEGER and REAL columns are meant for numbers.
  if ((c.affinity === "integer" || c.affinity === "real") && !NUMBER.test(v)) {
    throw refuse(`is ${c.type || "a number"} and ${JSON.stringify(v.slice(0, 40))} is not a number`);
  }
  return v;
}
