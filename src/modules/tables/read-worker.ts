// The Tables reads' worker thread (reads.ts): listings with row counts and pages of rows, away from
// the server's event loop — a sort by a column without an index or a search scans the whole table
// (bench/tables.ts). Its own connections to the tables files; it never writes. Also an entry point
// of the compiled executable (scripts/build.ts).
import { setPriority } from "node:os";
import { countRows, pageRows, plainColumns, tablesOf } from "./queries";
import type { ReadJob, ReadReply } from "./reads";

declare const self: Worker;

// Niced, this thread only: when the cores are busy the event loop, which answers every request,
// gets them first (as the generator's worker, src/scenario/codegen/worker.ts).
try {
  setPriority(0, 10);
} catch {
  // not allowed here: the thread runs at the server's priority
}

function run(job: ReadJob): ReadReply {
  try {
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
    return { page: pageRows(job.path, t, job.query) };
  } catch (err) {
    return { failed: err instanceof Error ? err.message : String(err) };
  }
}

self.onmessage = (e: MessageEvent<ReadJob>) => self.postMessage(run(e.data));
