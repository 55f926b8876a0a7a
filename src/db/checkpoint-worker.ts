// The platform database's WAL checkpoints, on a thread of their own (checkpointer.ts says why).
// Also an entry point of the compiled executable (scripts/build.ts).
import { Database } from "bun:sqlite";
import { enterBackground } from "../lib/priority";
import type { ToCheckpointer } from "./checkpointer";

declare const self: Worker;

enterBackground();

let db: Database | null = null;
let timer: ReturnType<typeof setInterval> | null = null;

/** a checkpoint's outcome was asked for (tests): posted after the next one only, so the event loop is not woken every second */
let report = false;

self.onmessage = (e: MessageEvent<ToCheckpointer>) => {
  const m = e.data;
  if (m.kind === "report") {
    report = true;
    return;
  }
  if (m.kind === "stop") {
    // Closed before the server's own connection, which, the last one, then checkpoints and
    // removes the WAL as SQLite does at a clean shutdown.
    if (timer) clearInterval(timer);
    // With its statement (close(true), as the log writer closes): a plain close would leave the
    // connection open (SQLite's "zombie") until the statement is collected (docs/database.md).
    db?.close(true);
    db = null;
    self.postMessage("closed");
    return;
  }
  const conn = new Database(m.path, { readwrite: true, create: false });
  db = conn;
  conn.exec("PRAGMA busy_timeout = 1000");
  const checkpoint = conn.query<{ busy: number; log: number; checkpointed: number }, []>("PRAGMA wal_checkpoint(PASSIVE)");
  timer = setInterval(() => {
    try {
      const r = checkpoint.get();
      if (r && report) {
        report = false;
        self.postMessage(r);
      }
    } catch {
      // busy or the file is being replaced: the next turn tries again
    }
  }, m.everyMs);
};
