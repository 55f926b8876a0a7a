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
