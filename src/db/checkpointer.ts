// A WAL checkpoint copies the database's new pages from its WAL into the file and syncs both; by
// default SQLite runs one inside the commit that crosses 1,000 pages, on the connection that
// commits. For the platform database that is the event loop, and under load (bot log lines written
// four times a second) a checkpoint's fsyncs held it 5–8 ms about every other second
// (docs/performance.md "The event loop's long turns, traced"). Here a thread of its own checkpoints
// every second (PASSIVE: it never waits for the event loop's readers or writers); the event loop
// checkpoints only when the WAL has outgrown FALLBACK_PAGES, so a checkpointer that stopped cannot
// let it grow without bound.
import type { Database } from "bun:sqlite";
import { backgroundThread } from "../lib/priority";
import { serverThread } from "../lib/server-thread";

/** WAL pages (4 KiB each) beyond which the connection that commits checkpoints after all: about 40 MB. */
export const FALLBACK_PAGES = 10_000;
const EVERY_MS = 1000;

/** What checkpoint-worker.ts takes and answers. */
export type ToCheckpointer = { kind: "start"; path: string; everyMs: number } | { kind: "stop" } | { kind: "report" };
export type FromCheckpointer = "closed" | { busy: number; log: number; checkpointed: number };

export interface Checkpointer {
  /** settles once the thread has closed its connection (at most a second), then ends it */
  stop(): Promise<void>;
  /** settles at the thread's next checkpoint (tests) */
  next(): Promise<{ busy: number; log: number; checkpointed: number }>;
}

/** Checkpoints the WAL of the database `sqlite` has open at `path` from a thread of its own. */
export function checkpointOffThread(sqlite: Database, path: string, everyMs = EVERY_MS): Checkpointer {
  sqlite.exec(`PRAGMA wal_autocheckpoint = ${FALLBACK_PAGES}`);
  let waiters: ((r: { busy: number; log: number; checkpointed: number }) => void)[] = [];
  const closed = Promise.withResolvers<void>();
  const w = serverThread<ToCheckpointer, FromCheckpointer>(
    "checkpointer",
    backgroundThread(),
    (m) => {
      if (m === "closed") return closed.resolve();
      const now = waiters;
      waiters = [];
      for (const resolve of now) resolve(m);
    },
    // Should the thread fail, the commits checkpoint again as SQLite does by default.
    () => sqlite.exec("PRAGMA wal_autocheckpoint = 1000"),
  );
  w.post({ kind: "start", path, everyMs });
  return {
    stop: async () => {
      w.post({ kind: "stop" });
      await Promise.race([closed.promise, Bun.sleep(1000)]);
      await w.end();
    },
    next: () =>
      new Promise((resolve) => {
        waiters.push(resolve);
        w.post({ kind: "report" });
      }),
  };
}
