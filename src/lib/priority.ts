// Who gets the cores first when they are busy (docs/operations.md "Runners and stalls"): the
// server's event loop, which answers every request and watches the runners, runs at the priority
// it was started with; the processes it starts for bots run below it, and the work of one user that
// can wait (a preview bot, generating a program, a Tables read) below the bots. A bot burning CPU in
// its scenario SQL then cannot delay the server's answers (bench/health-under-load.ts), and a
// user's trial run cannot delay other owners' bots.
import { getPriority, setPriority } from "node:os";

/** How much nicer than the server bot processes run: the shared runners and, with BOT_ISOLATION=process, each bot. */
export const BOT_NICE = 10;
/** How much nicer than the server a preview bot's process and the server's worker threads run. */
export const BACKGROUND_NICE = 19;

/**
 * Makes process (or, on Linux, thread) `pid` (0: the calling thread) `by` nicer than the calling
 * thread, so a server started niced keeps the order; a no-op where that is not allowed.
 */
export function lowerPriority(pid: number, by: number) {
  setNiceness(pid, nicenessBelow(by));
}

/** The niceness `by` below the calling thread's, at most 19 (the worst there is). */
export function nicenessBelow(by: number): number {
  return Math.min(19, getPriority(0) + by);
}

/** Sets process (or thread) `pid` to `nice`; a no-op where that is not allowed. */
export function setNiceness(pid: number, nice: number) {
  try {
    setPriority(pid, nice);
  } catch {
    // not allowed here: it keeps the priority it has
  }
}


// Which cores. Niceness alone leaves the event loop waiting milliseconds behind a niced process that
// has just woken, or that is in the kernel, on its core (docs/performance.md "One core kept for the
// event loop"); so the processes the server starts and its background threads keep off one core.

type Affinity = { get(pid: number, size: number, mask: Uint8Array): number; set(pid: number, size: number, mask: Uint8Array): number };
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
    libc = { get: (pid, size, mask) => symbols.sched_getaffinity(pid, size, mask), set: (pid, size, mask) => symbols.sched_setaffinity(pid, size, mask) };
  } catch {
    libc = null;
  }
  return libc;
}

/** The cores the process started with (its main thread's, never narrowed), or null where unknown. */
let every: Uint8Array | null | undefined;
function processCpus(): Uint8Array | null {
  if (every !== undefined) return every;
  every = null;
  const mask = new Uint8Array(128);
  if (affinity()?.get(process.pid, mask.length, mask) === 0) every = mask;
  return every;
}

/** A CPU mask without its lowest core, or null if that leaves none (a machine of one core keeps it). */
export function withoutFirstCpu(mask: Uint8Array): Uint8Array | null {
  const at = mask.findIndex((b) => b !== 0);
  if (at < 0) return null;
  const rest = mask.slice();
  rest[at]! &= rest[at]! - 1;
  return rest.some((b) => b !== 0) ? rest : null;
}

/** The cores background work may use: every core of the process but its first; null with fewer than two. */
export function backgroundCpus(): Uint8Array | null {
  const all = processCpus();
  return all && withoutFirstCpu(all);
}

/** Sets the cores of process (or thread) `pid` (0: the calling thread); false where that cannot be done. */
export function setCpus(pid: number, mask: Uint8Array | null): boolean {
  return !!mask && affinity()?.set(pid, mask.length, mask) === 0;
}

/** BACKGROUND_CPUS (docs/configuration.md): "auto" keeps one core for the event loop, "all" shares every core. */
let keepCore = true;
export function keepCoreForEventLoop(keep: boolean) {
  keepCore = keep;
}

/**
 * Runs `create` with the calling thread on the background cores (when kept: keepCoreForEventLoop),
 * then gives it back the cores it had: a thread or a process starts with the cores of the thread
 * that creates it, so a worker (Bun starts its thread inside `new Worker`) or a process (`Bun.spawn`
 * returns once it has exec'd) created inside starts off the event loop's core, with no moment on it
 * (test/bots/priority.test.ts checks both).
 */
export function onBackgroundCpus<W>(create: () => W): W {
  const had = new Uint8Array(128);
  const narrowed = keepCore && affinity()?.get(0, had.length, had) === 0 && setCpus(0, backgroundCpus());
  try {
    return create();
  } finally {
    if (narrowed) setCpus(0, had);
  }
}
