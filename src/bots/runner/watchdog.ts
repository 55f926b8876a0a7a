// The runner's watchdog thread (see main.ts). A blocked event loop cannot say anything, so this
// thread watches the main thread's heartbeat and memory and tells the platform, naming the bot whose
// code ran last: a scenario stuck in a long query, or growing without bound, is that bot's.
import { writeSync } from "node:fs";
import { workerData } from "node:worker_threads";
import type { RunnerEvent } from "./protocol";

const { shared, blockMs, memoryBytes } = workerData as { shared: Int32Array; blockMs: number; memoryBytes: number };

let beat = Atomics.load(shared, 1);
let beatAt = Date.now();
let told = false;
/** The platform: when it dies (kill -9) the runner's stdin closes, which a blocked main thread never reads. */
const platform = process.ppid;
let orphanedAt = 0;

const pause = new Int32Array(new SharedArrayBuffer(4));

/**
 * writeSync: the message must leave even while the main thread (and its stdout writer) is stuck.
 * The pipe is non-blocking and full while the platform's own loop stalls (it reads nothing then):
 * the report waits for room instead of being lost, and it starts on a line of its own (the main
 * thread may have left half a line in the pipe).
 */
const tell = (message: RunnerEvent) => {
  told = true;
  const bytes = Buffer.from("\n" + JSON.stringify(message) + "\n");
  for (let at = 0; at < bytes.length; ) {
    try {
      at += writeSync(1, bytes, at);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EAGAIN") return; // the platform is gone: the orphan check ends us
      Atomics.wait(pause, 0, 0, 20);
    }
  }
};

setInterval(() => {
  const now = Date.now();
  const current = Atomics.load(shared, 1);
  if (current !== beat) {
    beat = current;
    beatAt = now;
  }
  if (process.ppid !== platform) {
    // Orphaned: a main thread that runs stops its bots itself (stdin closed, at most 3.5 s); a
    // blocked one never will, and nobody else is left to end this process.
    orphanedAt ||= now;
    if (now - beatAt >= 1000 || now - orphanedAt >= 5000) process.kill(process.pid, "SIGKILL");
    return;
  }
  if (told) return; // the platform kills the runner after one report
  if (now - beatAt >= blockMs) {
    return tell({ ev: "blocked", id: Atomics.load(shared, 0), ms: now - beatAt });
  }
  const rss = process.memoryUsage.rss();
  if (rss > memoryBytes) tell({ ev: "memory", id: Atomics.load(shared, 0), rss });
}, 100);
