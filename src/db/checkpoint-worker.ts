// The platform database's WAL checkpoints, on a thread of their own (checkpointer.ts says why).
// Also an entry point of the compiled executable (scripts/build.ts).
import { Database, type Statement } from "bun:sqlite";
import { enterBackground } from "../lib/priority";
import type { ToCheckpointer } from "./checkpointer";

declare const self: Worker;

enterBackground();

let db: Database | null = null;
/** its one statement, finalized before the close: a connection closed with a statement left is kept open (a "zombie") until the statement is collected, and the server's connection would not be the last one */
let checkpoint: Statement | null = null;
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
    checkpoint?.finalize();
    db?.close();
    db = null;
    checkpoint = null;
    self.postMessage("closed");
    return;
  }
  const conn = new Database(m.path, { readwrite: true, create: false });
  db = conn;
  conn.exec("PRAGMA busy_timeout = 1000");
  const statement = conn.prepare<{ busy: number; log: number; checkpointed: number }, []>("PRAGMA wal_checkpoint(PASSIVE)");
  checkpoint = statement;
  timer = setInterval(() => {
    try {
      const r = statement.get();
      if (r && report) {
        report = false;
        self.postMessage(r);
      }
    } catch {
      // busy or the file is being replaced: the next turn tries again
    }
  }, m.everyMs);
};
