// The log thread (log-worker.ts): bot log batches written with a connection of its own to the
// platform database, away from the event loop (log-writer.ts says why). Batches arrive in order and
// are written in order. Should the thread die, batches are written on the event loop again.
import { backgroundThread } from "../lib/priority";
import { serverThread } from "../lib/server-thread";
import type { LogEntry } from "./log-batches";

export type ToLogThread = LogEntry[] | { kind: "written"; call: number } | { kind: "close" };
export type FromLogThread = { kind: "written"; call: number } | { kind: "closed" };

export interface LogThread {
  write(batch: LogEntry[]): void;
  /** settles once every batch written before the call is in the database */
  written(): Promise<void>;
  stop(): Promise<void>;
}

/** `fallback` writes a batch on the event loop once the thread has died. */
export function logThread(path: string, fallback: (batch: LogEntry[]) => void): LogThread {
  let dead = false;
  let nextCall = 1;
  const waiting = new Map<number, () => void>();
  const closed = Promise.withResolvers<void>();
  const thread = serverThread<ToLogThread, FromLogThread>(
    "logWriter",
    backgroundThread({ path }),
    (m) => {
      if (m.kind === "closed") return closed.resolve();
      waiting.get(m.call)?.();
      waiting.delete(m.call);
    },
    () => {
      dead = true;
      for (const resolve of waiting.values()) resolve();
      waiting.clear();
      closed.resolve();
    },
  );
  return {
    write(batch) {
      if (dead) fallback(batch);
      else thread.post(batch);
    },
    written() {
      if (dead) return Promise.resolve();
      const call = nextCall++;
      const done = new Promise<void>((resolve) => waiting.set(call, resolve));
      thread.post({ kind: "written", call });
      return done;
    },
    async stop() {
      if (!dead) {
        thread.post({ kind: "close" });
        await Promise.race([closed.promise, Bun.sleep(2000)]);
      }
      dead = true;
      await thread.end();
    },
  };
}
