// How a batch of bot log lines is written (log-writer.ts), wherever it runs: on the event loop, or
// in the log thread (log-thread.ts) with a connection of its own. One transaction a batch; each
// token keeps its newest LOG_RETAIN_PER_TOKEN entries, its older ones deleted once LOG_TRIM_EVERY
// of its lines were written since the last time (and at its first batch), so a token holds at most
// RETAIN + TRIM_EVERY - 1 for a moment. Finding the oldest entry to keep walks RETAIN index
// entries, about 0.1 ms a token: at every batch that was most of a batch's time.
import type { Db } from "../db/client";
import { logStatements } from "./queries";

export const LOG_RETAIN_PER_TOKEN = 5000;
export const LOG_TRIM_EVERY = 500;
const statementsOf = logStatements(LOG_RETAIN_PER_TOKEN);

export interface LogEntry {
  projectId: number;
  tokenId: number;
  level: "stdout" | "stderr";
  message: string;
  createdAt: string;
}

/**
 * Writes batches to `db`; keeps, per token, how many lines were written since its last trim. A
 * batch that fails for another reason than a deleted project (the write lock held past the busy
 * timeout, a disk error) throws, unwritten, for the caller to try again.
 */
export function batchWriter(db: Db) {
  const q = statementsOf(db);
  const sinceTrim = new Map<number, number>();
  return (batch: LogEntry[]) => {
    const written = new Map<number, number>();
    for (const e of batch) written.set(e.tokenId, (written.get(e.tokenId) ?? 0) + 1);
    const due = [...written].filter(([tokenId, n]) => (sinceTrim.get(tokenId) ?? LOG_TRIM_EVERY) + n >= LOG_TRIM_EVERY).map(([tokenId]) => tokenId);
    try {
      db.transaction(() => {
        for (const e of batch) q.insert.run({ ...e });
        for (const tokenId of due) q.trim.run({ tokenId });
      });
    } catch (e) {
      if (!isForeignKey(e)) throw e;
      // A project deleted while its bot was still printing fails the whole batch: written line by
      // line, only those lines, which have nowhere to go, are dropped.
      db.transaction(() => {
        for (const e of batch) {
          try {
            q.insert.run({ ...e });
          } catch (err) {
            if (!isForeignKey(err)) throw err;
          }
        }
        for (const tokenId of due) q.trim.run({ tokenId });
      });
    }
    for (const [tokenId, n] of written) sinceTrim.set(tokenId, (sinceTrim.get(tokenId) ?? 0) + n);
    for (const tokenId of due) sinceTrim.set(tokenId, 0);
  };
}

const isForeignKey = (e: unknown) => String((e as { code?: unknown }).code ?? "").startsWith("SQLITE_CONSTRAINT_FOREIGNKEY");
