// The scenario tables of a project (docs/tables.md): browse, edit, import and export the tables a
// scenario's bot_table and psql_query nodes keep in `<id>-tables.db`. The bot's own tables live in
// the other file (`<id>.db`) and are not listed here: the Users and Dialogs tabs show them.
import type { AppContext } from "../../context";
import { scenarioTablesPath } from "../../db/project-db";
import { AppError, badRequest, conflict, notFound } from "../../errors";
import { CsvError, csvRecord, parseCsv, type CsvField } from "../../lib/csv";
import { readOffThread, type ReadReply } from "./reads";
import type { CellOut, ExportFormat, ImportMode, RowIn, RowOut, RowPage, TableView } from "./model";
import {
  allRows,
  deleteRow,
  importRows,
  insertRow,
  plainColumns,
  rowById,
  RowRefused,
  tablesOf,
  updateRow,
  type Cell,
  type ColumnInfo,
  type Row,
  type TableInfo,
} from "./queries";

/** Rows an export reads and sends at a time (one read transaction for the whole table). */
const EXPORT_BATCH = 500;
/** A number as SQLite's numeric affinity would take it. */
const NUMBER = /^\s*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?\s*$/;

export interface PageRequest {
  page: number;
  perPage: number;
  sort?: string;
  order: "asc" | "desc";
  search: string;
}

function cellOut(v: unknown): CellOut {
  if (v instanceof Uint8Array) return Buffer.from(v).toString("base64");
  if (typeof v === "bigint") return v.toString();
  return v as CellOut;
}

function rowOut(r: Row): RowOut {
  const out: RowOut = {};
  for (const [k, v] of Object.entries(r)) out[k] = cellOut(v);
  return out;
}

/** What the reader answered; its failure is the server's (a 500 with the reason logged). */
function answer<K extends "list" | "page">(reply: ReadReply, kind: K): Extract<ReadReply, Record<K, unknown>>[K] {
  if ("failed" in reply) throw new Error(`tables reader: ${reply.failed}`);
  if (!(kind in reply)) throw new Error(`tables reader: no ${kind} in its answer`);
  return (reply as unknown as Record<K, never>)[kind];
}

/** SQLite's refusals in the client's terms; anything else is a bug and goes up as it is. */
function sqliteRefusal(e: unknown, what: string): never {
  const code = (e as { code?: string }).code ?? "";
  const message = e instanceof Error ? e.message : String(e);
  if (code.startsWith("SQLITE_CONSTRAINT") || code === "SQLITE_MISMATCH" || code === "SQLITE_TOOBIG") throw badRequest(`${what}: ${message}`);
  if (code.startsWith("SQLITE_BUSY") || code.startsWith("SQLITE_LOCKED")) throw conflict("The table is busy (a bot holds its file); try again");
  if (code === "SQLITE_FULL") throw new AppError(413, "PAYLOAD_TOO_LARGE", "The project's tables file is full");
  throw e;
}

export class TablesService {
  constructor(private readonly ctx: AppContext) {}

  private pathOf(projectId: number): string {
    return scenarioTablesPath(this.ctx.projectFiles.pathOf(projectId));
  }

  /** The table `name` names exactly; anything else (a SQL-looking name, a bot's table) is a 404. */
  private table(projectId: number, name: string): { path: string; t: TableInfo } {
    const path = this.pathOf(projectId);
    const t = tablesOf(path).get(name);
    if (!t) throw notFound(`Table ${JSON.stringify(name.slice(0, 100))} not found`);
    return { path, t };
  }

  private writable(projectId: number, name: string): { path: string; t: TableInfo } {
    const found = this.table(projectId, name);
    if (found.t.readOnly) throw conflict(`Table ${JSON.stringify(name)} is read-only here: ${found.t.readOnly}`);
    return found;
  }

  async list(projectId: number): Promise<{ items: TableView[] }> {
    return { items: answer(await readOffThread({ kind: "list", path: this.pathOf(projectId) }), "list") };
  }

  async rows(projectId: number, name: string, q: PageRequest): Promise<RowPage> {
    const { path, t } = this.table(projectId, name);
    const sort = q.sort && q.sort !== "" ? q.sort : "_id";
    if (sort !== "_id" && !plainColumns(t).some((c) => c.name === sort)) throw badRequest(`sort: ${JSON.stringify(sort.slice(0, 100))} is not a column of ${name}`);
    const query = { limit: q.perPage, offset: (q.page - 1) * q.perPage, sort, desc: q.order === "desc", search: q.search };
    const reply = await readOffThread({ kind: "page", path, table: t.name, query });
    if ("missing" in reply) throw notFound(`Table ${JSON.stringify(name.slice(0, 100))} not found`);
    const page = answer(reply, "page");
    return { items: page.rows.map(rowOut), total: page.total, totalCapped: page.capped, page: q.page, perPage: q.perPage };
  }

  /** A row's cells checked against the table: known, writable columns; numbers where the column takes numbers. */
  private cells(t: TableInfo, row: RowIn, where: string): Record<string, Cell> {
    const out: Record<string, Cell> = {};
    const columns = new Map(plainColumns(t).map((c) => [c.name, c]));
    for (const [name, value] of Object.entries(row)) {
      const c = columns.get(name);
      if (!c) throw badRequest(`${where}: ${JSON.stringify(name.slice(0, 100))} is not a column of ${t.name}`, { column: name.slice(0, 100) });
      out[name] = cellIn(c, value, where);
    }
    return out;
  }

  async insert(projectId: number, name: string, row: RowIn): Promise<RowOut> {
    const { path, t } = this.writable(projectId, name);
    const cells = this.cells(t, row, "row");
    let id: number;
    try {
      id = insertRow(path, t, cells);
    } catch (e) {
      sqliteRefusal(e, "row");
    }
    return rowOut(rowById(path, t, id)!);
  }

  async update(projectId: number, name: string, id: number, patch: RowIn): Promise<RowOut> {
    const { path, t } = this.writable(projectId, name);
    if (t.keyColumn && t.keyColumn in patch) throw badRequest(`${t.keyColumn} is the row's key (_id) and is not edited`);
    const cells = this.cells(t, patch, "row");
    let found: boolean;
    try {
      found = updateRow(path, t, id, cells);
    } catch (e) {
      sqliteRefusal(e, "row");
    }
    const row = found ? rowById(path, t, id) : undefined;
    if (!row) throw notFound("Row not found");
    return rowOut(row);
  }

  async remove(projectId: number, name: string, id: number): Promise<{ success: true }> {
    const { path, t } = this.writable(projectId, name);
    let found: boolean;
    try {
      found = deleteRow(path, t, id);
    } catch (e) {
      sqliteRefusal(e, "row");
    }
    if (!found) throw notFound("Row not found");
    return { success: true };
  }

  /** The whole table as a stream: read in batches from one snapshot, so memory stays flat for a large table. */
  async export(projectId: number, name: string, format: ExportFormat): Promise<{ body: ReadableStream<Uint8Array>; filename: string }> {
    const { path, t } = this.table(projectId, name);
    const columns = plainColumns(t).map((c) => c.name);
    const batches = allRows(path, t, EXPORT_BATCH);
    const encoder = new TextEncoder();
    let first = true;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        let text = "";
        if (first) text = format === "csv" ? csvRecord(columns) : "[";
        const next = batches.next();
        if (next.done) {
          if (format === "json") text += first ? "]\n" : "\n]\n";
          if (text) controller.enqueue(encoder.encode(text));
          controller.close();
          return;
        }
        for (const r of next.value) {
          if (format === "csv") text += csvRecord(columns.map((c) => r[c]));
          else {
            text += (first ? "\n" : ",\n") + JSON.stringify(rowOut(r));
            first = false;
          }
        }
        first = false;
        controller.enqueue(encoder.encode(text));
      },
      cancel() {
        batches.return(undefined);
      },
    });
    return { body, filename: `${name.replace(/[^\p{L}\p{N}_-]/gu, "_")}.${format}` };
  }

  /**
   * A CSV (a header of column names, then records) or a JSON array of row objects, written all or
   * nothing. The first bad record is named: its number among the data records (from 1).
   */
  async import(projectId: number, name: string, body: { csv: string } | { json: unknown }, mode: ImportMode): Promise<{ inserted: number }> {
    const { path, t } = this.writable(projectId, name);
    const records = "csv" in body ? this.csvRecords(t, body.csv) : this.jsonRecords(t, body.json);
    try {
      return { inserted: importRows(path, t, records, mode === "replace") };
    } catch (e) {
      if (e instanceof RowRefused) throw badRequest(`row ${e.row}: ${e.message}`, { row: e.row });
      sqliteRefusal(e, "import");
    }
  }

  private csvRecords(t: TableInfo, text: string): Record<string, Cell>[] {
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
      if (!c) throw badRequest(`header: ${JSON.stringify((h ?? "").slice(0, 100))} is not a column of ${t.name}`, { row: 0 });
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

  private jsonRecords(t: TableInfo, json: unknown): Record<string, Cell>[] {
    if (!Array.isArray(json)) throw badRequest("A JSON import is an array of row objects");
    return json.map((r, i) => {
      const where = `row ${i + 1}`;
      if (r === null || typeof r !== "object" || Array.isArray(r)) throw badRequest(`${where}: not an object of column: value`, { row: i + 1 });
      // `_id` is where the row was in the table it came from, not a column: a round trip drops it.
      const { _id: _, ...cells } = r as Record<string, unknown>;
      try {
        return this.cells(t, cells as RowIn, where);
      } catch (e) {
        if (e instanceof AppError) throw badRequest(e.message, { ...e.extra, row: i + 1 });
        throw e;
      }
    });
  }
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
