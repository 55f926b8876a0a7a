// Bot stdout/stderr lines become log entries. Lines are buffered and written in one transaction
// per flush (a chatty bot must not cost a write per line), and each token keeps only its newest
// RETAIN entries: its older ones are deleted once TRIM_EVERY of its lines were written since the
// last time (and at its first flush), so a token holds at most RETAIN + TRIM_EVERY - 1 for a
// moment. Finding the oldest entry to keep walks RETAIN index entries, about 0.1 ms a token: at
// each flush (four a second on the event loop) that was most of the flush's time.
import type { Db } from "../db/client";
import { logStatements } from "./queries";

export const LOG_RETAIN_PER_TOKEN = 5000;
export const LOG_TRIM_EVERY = 500;
const FLUSH_MS = 250;
const FLUSH_LINES = 200;
const MAX_LINE = 2000;
const statementsOf = logStatements(LOG_RETAIN_PER_TOKEN);

interface Entry {
  projectId: number;
  tokenId: number;
  level: "stdout" | "stderr";
  message: string;
  createdAt: string;
}

export class LogWriter {
  private buffer: Entry[] = [];
  private timer: ReturnType<typeof setTimeout> | null = null;
  /** lines of each token written since its entries were last trimmed */
  private sinceTrim = new Map<number, number>();
  private readonly insert;
  private readonly trim;

  constructor(private readonly db: Db) {
    const q = statementsOf(db);
    this.insert = q.insert;
    this.trim = q.trim;
  }

  push(projectId: number, tokenId: number, level: "stdout" | "stderr", message: string) {
    this.buffer.push({ projectId, tokenId, level, message: message.length > MAX_LINE ? message.slice(0, MAX_LINE) + "…" : message, createdAt: new Date().toISOString() });
    if (this.buffer.length >= FLUSH_LINES) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), FLUSH_MS);
  }

  flush() {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.buffer.length === 0) return;
    const batch = this.buffer;
    this.buffer = [];
    const written = new Map<number, number>();
    for (const e of batch) written.set(e.tokenId, (written.get(e.tokenId) ?? 0) + 1);
    const due = [...written].filter(([tokenId, n]) => (this.sinceTrim.get(tokenId) ?? LOG_TRIM_EVERY) + n >= LOG_TRIM_EVERY).map(([tokenId]) => tokenId);
    for (const [tokenId, n] of written) this.sinceTrim.set(tokenId, (this.sinceTrim.get(tokenId) ?? 0) + n);
    for (const tokenId of due) this.sinceTrim.set(tokenId, 0);
    try {
      this.db.transaction(() => {
        for (const e of batch) this.insert.run({ ...e });
        for (const tokenId of due) this.trim.run({ tokenId });
      });
    } catch {
      // A project deleted while its bot was still printing (FK) fails the whole batch: write line by
      // line so only those lines, which have nowhere to go, are dropped.
      for (const e of batch) {
        try {
          this.insert.run({ ...e });
        } catch {}
      }
    }
  }
}
