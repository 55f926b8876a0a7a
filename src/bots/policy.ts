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

/** Bots started at once when the server comes back (each start is mostly waiting). */
export const RESUME_CONCURRENCY = 4;
