// Bot stdout/stderr lines become log entries. Lines are buffered and written in one transaction
// per flush (a chatty bot must not cost a write per line; log-batches.ts). The server writes them
// from the log thread (log-thread.ts): a commit on the event loop waited for the disk whenever
// another program filled it, and every request waited with it (docs/performance.md "Previews in a
// thread of their own"). A database in memory (the tests' apps) is written where it is.
import type { Db } from "../db/client";
import { batchWriter, type LogEntry } from "./log-batches";
import { logThread, type LogThread } from "./log-thread";

export { LOG_RETAIN_PER_TOKEN, LOG_TRIM_EVERY } from "./log-batches";

const FLUSH_MS = 250;
const FLUSH_LINES = 200;
const MAX_LINE = 2000;

export class LogWriter {
  private buffer: LogEntry[] = [];
  private timer: ReturnType<typeof setTimeout> | null = null;
  private readonly here: (batch: LogEntry[]) => void;
  private thread: LogThread | null = null;

  /** `threadFile`: the database's file, for batches written from the log thread (started with the first batch); absent: written here. */
  constructor(
    db: Db,
    private threadFile?: string,
  ) {
    this.here = batchWriter(db);
  }

  push(projectId: number, tokenId: number, level: "stdout" | "stderr", message: string) {
    this.buffer.push({ projectId, tokenId, level, message: message.length > MAX_LINE ? message.slice(0, MAX_LINE) + "…" : message, createdAt: new Date().toISOString() });
    if (this.buffer.length >= FLUSH_LINES) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), FLUSH_MS);
  }

  /** Hands the buffered lines on to be written (in the thread: written once `close` or `written` settles). */
  flush() {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.buffer.length === 0) return;
    const batch = this.buffer;
    this.buffer = [];
    if (this.threadFile) this.thread ??= logThread(this.threadFile, (b) => this.writeHere(b));
    if (this.thread) this.thread.write(batch);
    else this.writeHere(batch);
  }

  private writeHere(batch: LogEntry[]) {
    try {
      this.here(batch);
    } catch {
      // the database refused the batch (a disk error): as before, these lines are lost, not the server
    }
  }

  /** Settles once every line handed on so far is in the database. */
  async written() {
    this.flush();
    await this.thread?.written();
  }

  /** Writes what is left and ends the thread (server shutdown: before the database closes). */
  async close() {
    await this.written();
    const thread = this.thread;
    this.thread = null;
    this.threadFile = undefined;
    await thread?.stop();
  }
}
