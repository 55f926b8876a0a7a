// The log thread (log-thread.ts): writes bot log batches with its own connection to the platform
// database. At the server's priority, on the background cores: it holds the database's write lock
// while it commits, and a thread 19 nicer could be kept from finishing by the very bots whose lines
// it writes while the event loop waited for that lock. Also an entry point of the compiled
// executable (scripts/build.ts).
import { workerData } from "node:worker_threads";
import { databaseOver } from "../db/client";
import { openExistingSqlite } from "../db/sqlite";
import { enterBackground } from "../lib/priority";
import { batchWriter, type LogEntry } from "./log-batches";
import type { FromLogThread, ToLogThread } from "./log-thread";

declare const self: Worker;

enterBackground({ nicer: false });

// The database must be there: a missing or replaced file is not made anew here (the thread dies,
// and the event loop writes the batches itself).
const sqlite = openExistingSqlite((workerData as { path: string }).path);
const write = batchWriter(databaseOver(sqlite, { migrated: true }));
const answer = (m: FromLogThread) => self.postMessage(m);

/** Waits between tries of a batch the database refused (its write lock held past the busy timeout). */
const RETRY_MS = [200, 1000, 5000];

/** A batch, tried again while the database refuses it; dropped after the last try, as the event loop's writer drops it. */
async function writeBatch(batch: LogEntry[]) {
  for (let attempt = 0; ; attempt++) {
    try {
      return write(batch);
    } catch {
      if (attempt >= RETRY_MS.length) return;
      await Bun.sleep(RETRY_MS[attempt]!);
    }
  }
}

// One message at a time, in order: a batch waiting to be tried again holds the later ones back, and
// "written" is answered only after every batch before it.
let queue: Promise<unknown> = Promise.resolve();
self.onmessage = (e: MessageEvent<ToLogThread>) => {
  const m = e.data;
  queue = queue.then(async () => {
    if (Array.isArray(m)) await writeBatch(m);
    else if (m.kind === "written") answer(m);
    else {
      // every statement finalized with it: a connection left open by one (SQLite's "zombie") would
      // keep the server's own, closed last, from checkpointing and removing the WAL at a clean stop
      sqlite.close(true);
      answer({ kind: "closed" });
    }
  });
};
