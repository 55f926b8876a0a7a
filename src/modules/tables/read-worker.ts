// The Tables reads' worker thread (reads.ts): listings with row counts, pages of rows and imports, away from
// the server's event loop — a sort by a column without an index or a search scans the whole table
// (bench/tables.ts). Its own connections to the tables files; it never writes. Also an entry point
// of the compiled executable (scripts/build.ts).
import { AppError } from "../../errors";
import { enterBackground } from "../../lib/priority";
import { countRows, importRows, inSnapshot, pageRows, plainColumns, RowRefused, tablesOf } from "./queries";
import { csvRecords, jsonRecords } from "./records";
import type { ReadJob, ReadReply } from "./reads";

declare const self: Worker;

// Niced, this thread only: when the cores are busy the event loop, which answers every request,
// gets them first (as the generator's worker, src/scenario/codegen/worker.ts).
enterBackground();

function run(job: ReadJob): ReadReply {
  try {
    // a listing or a page reads one snapshot: its counts and rows agree whatever a bot commits meanwhile
    return job.kind === "import" ? answer(job) : inSnapshot(job.path, () => answer(job));
  } catch (err) {
    if (err instanceof AppError) return { refused: { status: err.status, code: err.code, message: err.message, extra: err.extra } };
    if (err instanceof RowRefused) return { refused: { status: 400, code: "VALIDATION_FAILED", message: `row ${err.row}: ${err.message}`, extra: { row: err.row } } };
    const code = (err as { code?: unknown }).code;
    if (typeof code === "string" && code.startsWith("SQLITE")) return { sqlite: { code, message: err instanceof Error ? err.message : String(err) } };
    return { failed: err instanceof Error ? err.message : String(err) };
  }
}

/** The job's answer; what it throws, run() puts in the error shape. */
function answer(job: ReadJob): ReadReply {
  const tables = tablesOf(job.path);
  if (job.kind === "list") {
    return {
      list: [...tables.values()].map((t) => ({
        name: t.name,
        columns: plainColumns(t).map((c) => ({ name: c.name, type: c.type, notNull: c.notNull, primaryKey: c.pk })),
        rows: countRows(job.path, t),
        readOnly: t.readOnly,
        key: t.keyColumn,
      })),
    };
  }
  const t = tables.get(job.table);
  if (!t) return { missing: true };
  if (job.kind === "page") return { page: pageRows(job.path, t, job.query) };
  if (t.readOnly) return { refused: { status: 409, code: "CONFLICT", message: `Table ${JSON.stringify(t.name)} is read-only here: ${t.readOnly}`, extra: {} } };
  let records;
  if (job.format === "csv") records = csvRecords(t, job.text);
  else {
    let json: unknown;
    try {
      json = JSON.parse(job.text);
    } catch {
      return { refused: { status: 400, code: "VALIDATION_FAILED", message: "Malformed request body: expected valid JSON", extra: {} } };
    }
    records = jsonRecords(t, json);
  }
  return importRows(job.path, t, records, job.replace);
}

self.onmessage = (e: MessageEvent<ReadJob>) => self.postMessage(run(e.data));
