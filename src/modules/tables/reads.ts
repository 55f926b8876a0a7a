// The Tables reads off the event loop: a small pool of worker threads (read-worker.ts) with a
// queue in front, as the generator's (src/scenario/codegen/off-thread.ts). A page of 1,000,000 rows
// sorted by a column without an index takes hundreds of milliseconds of CPU (bench/tables.ts); on
// the event loop that would hold every other request of the server.
import type { PageQuery, Row } from "./queries";
import type { TableView } from "./model";

export type ReadJob = { kind: "list"; path: string } | { kind: "page"; path: string; table: string; query: PageQuery };
export type ReadReply = { list: TableView[] } | { page: { rows: Row[]; total: number; capped: boolean } } | { missing: true } | { failed: string };

/** One core stays with the event loop; at most two reads at once. */
const POOL_SIZE = Math.max(1, Math.min(2, (navigator.hardwareConcurrency || 1) - 1));
/** An idle worker ends after this long (it holds a heap and connections of its own). */
const IDLE_MS = 30_000;

type BunWorker = Worker & { ref(): void; unref(): void };
interface Slot {
  worker: BunWorker;
  busy: Queued | null;
  idle: ReturnType<typeof setTimeout> | null;
}
interface Queued {
  job: ReadJob;
  done: PromiseWithResolvers<ReadReply>;
}

/** read-worker.ts beside this file; in the compiled executable, the entry point scripts/build.ts adds. */
const WORKER_ENTRY = import.meta.url.includes("/$bunfs/") ? "./modules/tables/read-worker.ts" : new URL("./read-worker.ts", import.meta.url).href;

const slots = new Set<Slot>();
const queue: Queued[] = [];

export function readOffThread(job: ReadJob): Promise<ReadReply> {
  const done = Promise.withResolvers<ReadReply>();
  queue.push({ job, done });
  pump();
  return done.promise;
}

function pump() {
  while (queue.length > 0) {
    let slot = [...slots].find((s) => s.busy === null);
    if (!slot) {
      if (slots.size >= POOL_SIZE) return;
      slot = spawn();
    }
    const next = queue.shift()!;
    if (slot.idle) clearTimeout(slot.idle);
    slot.idle = null;
    slot.busy = next;
    slot.worker.ref();
    slot.worker.postMessage(next.job);
  }
}

function spawn(): Slot {
  const worker = new Worker(WORKER_ENTRY) as BunWorker;
  const slot: Slot = { worker, busy: null, idle: null };
  worker.onmessage = (e: MessageEvent<ReadReply>) => {
    const queued = slot.busy;
    slot.busy = null;
    slot.worker.unref();
    slot.idle = setTimeout(() => drop(slot), IDLE_MS);
    slot.idle.unref();
    pump();
    queued?.done.resolve(e.data);
  };
  worker.onerror = (e) => {
    // A worker that died takes its job with it; the next job gets a fresh one.
    e.preventDefault?.();
    drop(slot);
    slot.busy?.done.reject(new Error(`the tables reader failed: ${e.message}`));
    pump();
  };
  slots.add(slot);
  return slot;
}

function drop(slot: Slot) {
  slots.delete(slot);
  if (slot.idle) clearTimeout(slot.idle);
  void slot.worker.terminate();
}
