// The scenario tables of a project (docs/tables.md): browse, edit, import and export the tables a
// scenario's bot_table and psql_query nodes keep in `<id>-tables.db`. The bot's own tables live in
// the other file (`<id>.db`) and are not listed here: the Users and Dialogs tabs show them.
import type { AppContext } from "../../context";
import { scenarioTablesPath } from "../../db/project-db";
import { AppError, badRequest, conflict, notFound } from "../../errors";
import { csvRecord } from "../../lib/csv";
import { CSV_BOM } from "../../lib/csv-cell";
import { readOffThread, type ReadReply } from "./reads";
import { rowCells } from "./records";
import type { CellOut, ExportFormat, ImportMode, RowIn, RowOut, RowPage, TableView } from "./model";
import {
  allRows,
  deleteRow,
  insertRow,
  plainColumns,
  rowById,
  tablesOf,
  updateRow,
  type Cell,
  type Row,
  type TableInfo,
} from "./queries";

/** Rows an export reads and sends at a time (one read transaction for the whole table). */
const EXPORT_BATCH = 500;

export interface PageRequest {
  page: number;
  perPage: number;
  sort?: string;
  order: "asc" | "desc";
  search: string;
}

function cellOut(v: unknown): CellOut {
  if (v instanceof Uint8Array) return Buffer.from(v).toString("base64");
  // rows are read with safe integers: a JSON number holds the value up to 2^53, its decimal text beyond
  if (typeof v === "bigint") return v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v.toString();
  return v as CellOut;
}

function rowOut(r: Row): RowOut {
  const out: RowOut = {};
  for (const [k, v] of Object.entries(r)) out[k] = cellOut(v);
  return out;
}

/** What the reader answered; its failure is the server's (a 500 with the reason logged). */
function answer<K extends "list" | "page" | "inserted">(reply: ReadReply, kind: K): Extract<ReadReply, Record<K, unknown>>[K] {
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

  async insert(projectId: number, name: string, row: RowIn): Promise<RowOut> {
    const { path, t } = this.writable(projectId, name);
    const cells = rowCells(t, row, "row");
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
    const cells = rowCells(t, patch, "row");
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
        // the BOM in the first chunk only: the stream is one file
        if (first) text = format === "csv" ? CSV_BOM + csvRecord(columns) : "[";
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
   * nothing. The first bad record is named: its number among the data records (from 1). Parsed,
   * checked and written in the reads' worker: a 50 MB body would hold the event loop for seconds.
   */
  async import(projectId: number, name: string, body: { format: "csv" | "json"; text: string }, mode: ImportMode): Promise<{ inserted: number }> {
    const { path, t } = this.writable(projectId, name);
    const reply = await readOffThread({ kind: "import", path, table: t.name, format: body.format, text: body.text, replace: mode === "replace" });
    if ("refused" in reply) throw new AppError(reply.refused.status, reply.refused.code, reply.refused.message, reply.refused.extra);
    if ("sqlite" in reply) sqliteRefusal(Object.assign(new Error(reply.sqlite.message), { code: reply.sqlite.code }), "import");
    if ("missing" in reply) throw notFound(`Table ${JSON.stringify(name.slice(0, 100))} not found`);
    return { inserted: answer(reply, "inserted") };
  }
}
