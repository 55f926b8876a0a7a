// The Tables reads (and imports) off the event loop: a small pool of worker threads (read-worker.ts,
// src/lib/worker-pool.ts), as the generator's. A page of 1,000,000 rows
// sorted by a column without an index takes hundreds of milliseconds of CPU (bench/tables.ts); on
// the event loop that would hold every other request of the server.
import { workerPool } from "../../lib/worker-pool";
import type { PageQuery, Row } from "./queries";
import type { TableView } from "./model";
import type { ErrorCode } from "../../errors";
import { workerEntry } from "../../lib/worker-entry";

export type ReadJob =
  | { kind: "list"; path: string }
  | { kind: "page"; path: string; table: string; query: PageQuery }
  /** an import: parsed, checked and written here too (docs/tables.md "Import") */
  | { kind: "import"; path: string; table: string; format: "csv" | "json"; text: string; replace: boolean };
export type ReadReply =
  | { list: TableView[] }
  | { page: { rows: Row[]; total: number; capped: boolean } }
  /** `lockMs`: how long the import held the file's write lock */
  | { inserted: number; lockMs: number }
  /** the client's mistake, in the error shape's terms */
  | { refused: { status: number; code: ErrorCode; message: string; extra: Record<string, unknown> } }
  /** SQLite refused the write (busy, full, a constraint not tied to a row) */
  | { sqlite: { code: string; message: string } }
  | { missing: true }
  | { failed: string };

/** One core stays with the event loop; at most two reads at once; an idle reader ends after 30 s. */
export const readOffThread = workerPool<ReadJob, ReadReply>({
  entry: workerEntry("tablesReader"),
  idleMs: 30_000,
  name: "the tables reader",
});
