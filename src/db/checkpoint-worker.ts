// The platform database's WAL checkpoints, on a thread of their own (checkpointer.ts says why).
// Also an entry point of the compiled executable (scripts/build.ts).
import { Database } from "bun:sqlite";
import { BACKGROUND_NICE, lowerPriority } from "../lib/priority";

declare const self: Worker;

lowerPriority(0, BACKGROUND_NICE);

self.onmessage = (e: MessageEvent<{ path: string; everyMs: number }>) => {
  const { path, everyMs } = e.data;
  const db = new Database(path, { readwrite: true, create: false });
  db.exec("PRAGMA busy_timeout = 1000");
  const checkpoint = db.query<{ busy: number; log: number; checkpointed: number }, []>("PRAGMA wal_checkpoint(PASSIVE)");
  setInterval(() => {
    try {
      const r = checkpoint.get();
      if (r) self.postMessage(r);
    } catch {
      // busy or the file is being replaced: the next turn tries again
    }
  }, everyMs);
};
