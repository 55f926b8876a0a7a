// Bot stdout/stderr lines become log entries. Lines are buffered and written in one transaction
// per flush (a chatty bot must not cost a write per line), and each token keeps only its newest
// RETAIN entries.
import type { Db } from "../db/client";
import { logStatements } from "./queries";

export const LOG_RETAIN_PER_TOKEN = 5000;
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
    const tokens = new Set<number>();
    try {
      this.db.transaction(() => {
        for (const e of batch) {
          this.insert.run({ ...e });
          tokens.add(e.tokenId);
        }
        for (const tokenId of tokens) this.trim.run({ tokenId });
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
