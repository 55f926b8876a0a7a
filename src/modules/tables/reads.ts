// The Tables reads off the event loop: a small pool of worker threads (read-worker.ts,
// src/lib/worker-pool.ts), as the generator's. A page of 1,000,000 rows
// sorted by a column without an index takes hundreds of milliseconds of CPU (bench/tables.ts); on
// the event loop that would hold every other request of the server.
import { SPARE_CORES, workerPool } from "../../lib/worker-pool";
import type { PageQuery, Row } from "./queries";
import type { TableView } from "./model";

export type ReadJob = { kind: "list"; path: string } | { kind: "page"; path: string; table: string; query: PageQuery };
export type ReadReply = { list: TableView[] } | { page: { rows: Row[]; total: number; capped: boolean } } | { missing: true } | { failed: string };

/** read-worker.ts beside this file; in the compiled executable, the entry point scripts/build.ts adds. */
const WORKER_ENTRY = import.meta.url.includes("/$bunfs/") ? "./modules/tables/read-worker.ts" : new URL("./read-worker.ts", import.meta.url).href;

/** One core stays with the event loop; at most two reads at once; an idle reader ends after 30 s. */
export const readOffThread = workerPool<ReadJob, ReadReply>({
  entry: WORKER_ENTRY,
  size: SPARE_CORES,
  idleMs: 30_000,
  name: "the tables reader",
});
