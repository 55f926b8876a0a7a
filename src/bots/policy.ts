// How the manager supervises bot processes (docs/bots.md#running-bots); tests pass a faster policy.
export interface SupervisionPolicy {
  backoffBaseMs: number;
  backoffCapMs: number;
  crashLimit: number;
  crashWindowMs: number;
  stopGraceMs: number;
  listenTimeoutMs: number;
}

export const DEFAULT_POLICY: SupervisionPolicy = { backoffBaseMs: 1000, backoffCapMs: 60_000, crashLimit: 5, crashWindowMs: 10 * 60_000, stopGraceMs: 5000, listenTimeoutMs: 15_000 };

/**
 * A bot's crash at `now`: the crashes still inside the window (this one included), whether that
 * many means giving up, and how long to wait before the restart (doubling, capped).
 */
export function crashVerdict(earlier: number[], now: number, p: SupervisionPolicy): { crashes: number[]; givesUp: boolean; delayMs: number } {
  const crashes = [...earlier.filter((t) => now - t < p.crashWindowMs), now];
  return { crashes, givesUp: crashes.length >= p.crashLimit, delayMs: Math.min(p.backoffBaseMs * 2 ** (crashes.length - 1), p.backoffCapMs) };
}

/** Bots started at once when the server comes back (each start is mostly waiting). */
export const RESUME_CONCURRENCY = 4;
