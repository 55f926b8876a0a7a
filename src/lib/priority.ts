// Who gets the cores first when they are busy (docs/operations.md "Runners and stalls"): the
// server's event loop, which answers every request and watches the runners, runs at the priority
// it was started with; the processes it starts for bots run below it; short work a person waits for
// (generating a program, a Tables read, a preview's start) runs beside the bots where it keeps off
// the event loop's core; a running preview bot, a user's trial run, below the bots. A bot burning
// CPU in its scenario SQL then cannot delay the server's answers (bench/health-under-load.ts), and
// a user's trial run cannot delay other owners' bots.
import { readdirSync } from "node:fs";
import { getPriority, setPriority } from "node:os";
import { workerData } from "node:worker_threads";

/** How much nicer than the server bot processes run: the shared runners and, with BOT_ISOLATION=process, each bot. */
export const BOT_NICE = 10;
/**
 * How much nicer than the server a preview bot runs once it answers, and the server's threads where
 * they share the event loop's core (waitedForNice).
 */
export const BACKGROUND_NICE = 19;

/**
 * How much nicer than the server a thread or process runs whose work a person waits for: a
 * generate, a Tables read, a preview's start. Kept off the event loop's core, it runs beside the
 * bots: 19 nicer, it waited ten times its length behind one bot burning CPU in its scenario SQL
 * (docs/performance.md "Work a person waits for, beside the bots"). Sharing the event loop's core
 * (one core, or BACKGROUND_CPUS=all), it stays 19 nicer so the requests go first.
 */
export function waitedForNice(): number {
  return keptCpus() ? BOT_NICE : BACKGROUND_NICE;
}

/** The server's niceness: the event loop's own, which backgroundThread hands to every thread it starts. */
function serverNiceness(): number {
  const given = (workerData as { serverNice?: number } | null)?.serverNice;
  return typeof given === "number" ? given : getPriority(0);
}

/**
 * Makes process (or, on Linux, thread) `pid` (0: the calling thread) `by` nicer than the server,
 * so a server started niced keeps the order; a no-op where that is not allowed.
 */
export function lowerPriority(pid: number, by: number) {
  setNiceness(pid, nicenessBelow(by));
}

/**
 * Makes every thread process `pid` has now `by` nicer than the server: on Linux a niceness is a
 * thread's, and a process's threads took its main thread's when they started.
 */
export function lowerProcessPriority(pid: number, by: number) {
  lowerPriority(pid, by);
  otherThreads(pid, (tid) => lowerPriority(tid, by));
}

/**
 * Applies `each` to every thread of process `pid` but its main one, which the caller has done
 * first: a thread started meanwhile by one not yet done took the old setting, so it looks again
 * until none is new (a few passes at most).
 */
function otherThreads(pid: number, each: (tid: number) => void) {
  const done = new Set([pid]);
  for (let pass = 0; pass < 4; pass++) {
    let threads: number[];
    try {
      threads = readdirSync(`/proc/${pid}/task`).map(Number);
    } catch {
      return; // no /proc, or the process ended meanwhile
    }
    const fresh = threads.filter((tid) => !done.has(tid));
    if (!fresh.length) return;
    for (const tid of fresh) {
      each(tid);
      done.add(tid);
    }
  }
}

/**
 * The niceness `by` below the server's, at most 19 (the worst there is). From the server's, not the
 * calling thread's: a thread already niced that starts a process or thread would count from its own.
 */
export function nicenessBelow(by: number): number {
  return Math.min(19, serverNiceness() + by);
}

/** Sets process (or thread) `pid` to `nice`; a no-op where that is not allowed. */
export function setNiceness(pid: number, nice: number) {
  try {
    setPriority(pid, nice);
  } catch {
    // not allowed here: it keeps the priority it has
  }
}

// Which cores. Niceness alone leaves requests waiting milliseconds while niced processes work on
// the same cores (docs/performance.md "One core kept for the event loop"), so with BACKGROUND_CPUS=auto
// the processes the server starts and its background threads keep off the lowest core the server
// may use. Each moves itself (a thread) or is moved right after its start (a process): the event
// loop never narrows its own cores, which would put it on the busy ones for that moment.

type Affinity = { get(tid: number, size: number, mask: Uint8Array): number; set(tid: number, size: number, mask: Uint8Array): number };
let libc: Affinity | null | undefined;

function affinity(): Affinity | null {
  if (libc !== undefined) return libc;
  libc = null;
  if (process.platform !== "linux") return null;
  try {
    // node:os has no affinity; libc's two calls are the whole of it (glibc's soname; elsewhere a no-op)
    const { dlopen, FFIType } = require("bun:ffi") as typeof import("bun:ffi");
    const { symbols } = dlopen("libc.so.6", {
      sched_getaffinity: { args: [FFIType.i32, FFIType.u64, FFIType.ptr], returns: FFIType.i32 },
      sched_setaffinity: { args: [FFIType.i32, FFIType.u64, FFIType.ptr], returns: FFIType.i32 },
    });
    libc = { get: (tid, size, mask) => symbols.sched_getaffinity(tid, size, mask), set: (tid, size, mask) => symbols.sched_setaffinity(tid, size, mask) };
  } catch {
    libc = null;
  }
  return libc;
}

/** A CPU mask without its lowest core, or null if that leaves none (a machine of one core keeps it). */
export function withoutFirstCpu(mask: Uint8Array): Uint8Array | null {
  const at = mask.findIndex((b) => b !== 0);
  if (at < 0) return null;
  const rest = mask.slice();
  rest[at]! &= rest[at]! - 1;
  return rest.some((b) => b !== 0) ? rest : null;
}

/** Every core the calling thread may use; null where unknown. */
export function cpusOfThisThread(): Uint8Array | null {
  const mask = new Uint8Array(128);
  return affinity()?.get(0, mask.length, mask) === 0 ? mask : null;
}

/**
 * How many threads may work beside the event loop at once (the generator's, the Tables reads'):
 * the cores the calling thread may use less the one kept for the event loop, at most two, at least
 * one. From the thread's own cores, not the machine's: a container given one core of sixteen gets
 * one, not two.
 */
export function spareCores(): number {
  return spareCoresOf(cpusOfThisThread());
}

/** spareCores for a thread that may use the cores of `mask` (null where unknown: the machine's count). */
export function spareCoresOf(mask: Uint8Array | null): number {
  let cores = 0;
  if (mask) for (const byte of mask) for (let b = byte; b; b &= b - 1) cores++;
  else cores = navigator.hardwareConcurrency || 1;
  return Math.max(1, Math.min(2, cores - 1));
}

/** Every core the calling thread may use but the lowest; null with fewer than two, or where unknown. */
export function backgroundCpus(): Uint8Array | null {
  const mask = cpusOfThisThread();
  return mask && withoutFirstCpu(mask);
}

/** The cores of thread `tid` (0: the calling thread; a process id names its main thread only); false where that cannot be done. */
export function setCpus(tid: number, mask: Uint8Array | null): boolean {
  return !!mask && affinity()?.set(tid, mask.length, mask) === 0;
}

/** The cores of every thread process `pid` has now; its main thread's pass to threads it starts later. */
export function setProcessCpus(pid: number, mask: Uint8Array | null) {
  if (!mask || !setCpus(pid, mask)) return;
  otherThreads(pid, (tid) => setCpus(tid, mask));
}

/** BACKGROUND_CPUS as the server started with it (useBackgroundCpus). */
let setting: "auto" | "all" = "auto";
/** The background cores it gives: null for "all" or one core; undefined until first needed. */
let kept: Uint8Array | null | undefined;

/** Set at start: "auto" keeps the lowest core for the event loop, "all" shares every core. */
export function useBackgroundCpus(chosen: "auto" | "all") {
  setting = chosen;
  kept = undefined;
}

/**
 * Worked out at first need rather than at start (loading libc through bun:ffi costs about a
 * millisecond a cold start would pay), on the event loop, whose cores are the server's; a
 * background thread is given its own by enterBackground.
 */
function keptCpus(): Uint8Array | null {
  if (kept === undefined) kept = setting === "auto" ? backgroundCpus() : null;
  return kept;
}

/** Moves a process the server just started, every thread of it, to the background cores (when kept). */
export function toBackgroundCpus(pid: number) {
  setProcessCpus(pid, keptCpus());
}

/** Options for `new Worker` of a background thread: it learns the background cores (enterBackground reads them). */
export function backgroundThread(data: Record<string, unknown> = {}): WorkerOptions {
  // Bun's Worker takes node's workerData; the DOM type the checker sees does not list it
  const cpus = keptCpus();
  return { workerData: { ...data, backgroundCpus: cpus && [...cpus], serverNice: serverNiceness() } } as WorkerOptions;
}

/**
 * The first line of a background thread: on the cores backgroundThread gave it and, unless `nicer`
 * is false, waitedForNice() nicer than the server.
 */
export function enterBackground({ nicer = true } = {}) {
  const given = (workerData as { backgroundCpus?: number[] | null } | null)?.backgroundCpus;
  // what a thread this one starts (the preview thread's process spawner) is given: the same cores,
  // or none to move to (this module's own setting in a thread is the default, not the server's)
  kept = given ? Uint8Array.from(given) : null;
  if (kept) setCpus(0, kept);
  if (nicer) lowerPriority(0, waitedForNice());
}
