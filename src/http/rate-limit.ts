// In-memory abuse limits (issue 12): a window counter for logins and PAT creation, and the admin
// login's failure ladder. Per process: a restart forgets them, which only gives an attacker what a
// single process would give him anyway. Keys are client addresses or user ids, never secrets.
import { AppError } from "../errors";
import { clientBehindProxies } from "../lib/client-address";

export const rateLimited = (retryAfterSec: number, what: string) =>
  new AppError(429, "RATE_LIMITED", `Too many ${what}; try again in ${retryAfterSec} s`, { retryAfter: retryAfterSec });

/** At most `limit` events per key in any `windowMs` (a fixed window per key). */
export class WindowLimiter {
  private readonly hits = new Map<string, { start: number; n: number }>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Counts one event; the seconds to wait when it is over the limit, else 0. */
  take(key: string): number {
    return this.attempt(key).wait;
  }

  /** As take, and whether this is the window's first refusal (worth one log line, not thousands). */
  attempt(key: string): { wait: number; firstRefusal: boolean } {
    const t = this.now();
    this.sweep(t);
    const h = this.hits.get(key);
    if (!h || t - h.start >= this.windowMs) {
      this.hits.set(key, { start: t, n: 1 });
      return { wait: 0, firstRefusal: false };
    }
    if (h.n >= this.limit) {
      const firstRefusal = h.n === this.limit;
      h.n = this.limit + 1;
      return { wait: Math.max(1, Math.ceil((h.start + this.windowMs - t) / 1000)), firstRefusal };
    }
    h.n++;
    return { wait: 0, firstRefusal: false };
  }

  /** Bounded memory under a flood of keys: expired windows go once the map grows. */
  private sweep(t: number) {
    if (this.hits.size < 10_000) return;
    for (const [k, h] of this.hits) if (t - h.start >= this.windowMs) this.hits.delete(k);
  }
}

export const LOCK_MS = 15 * 60_000;
const MAX_DELAY_MS = 5 * 60_000;

/**
 * Wrong admin keys per client address: `free` failures cost nothing; after them each attempt must
 * wait 1 s, 2 s, 4 s, ... (capped at 5 minutes) after the last failure; 4 × `free` failures lock the
 * address for 15 minutes. A right key clears the address's record.
 */
export class FailureLadder {
  private readonly failures = new Map<string, { n: number; last: number; lockedUntil: number }>();

  /**
   * `forgetAfterMs`: an address without a failure for that long starts again at zero. For keys
   * that several secrets share (the hooks), where a right secret must not clear the record.
   */
  constructor(
    private readonly free: number,
    private readonly now: () => number = Date.now,
    private readonly forgetAfterMs = Infinity,
  ) {}

  /** Seconds this address must still wait before it may try (0: it may). */
  waitFor(key: string): number {
    const f = this.failures.get(key);
    if (!f) return 0;
    const t = this.now();
    if (f.lockedUntil > t) return Math.ceil((f.lockedUntil - t) / 1000);
    if (f.lockedUntil !== 0 || t - f.last >= this.forgetAfterMs) {
      this.failures.delete(key); // the lock served its time, or the address kept quiet: start again
      return 0;
    }
    if (f.n < this.free) return 0;
    const delay = Math.min(MAX_DELAY_MS, 1000 * 2 ** (f.n - this.free));
    return Math.max(0, Math.ceil((f.last + delay - t) / 1000));
  }

  /** Records a failure; true when it locked the address. */
  fail(key: string): { count: number; locked: boolean } {
    const t = this.now();
    const known = this.failures.get(key);
    const f = known && (known.lockedUntil !== 0 || t - known.last < this.forgetAfterMs) ? known : { n: 0, last: t, lockedUntil: 0 };
    f.n++;
    f.last = t;
    const locked = f.n >= this.free * 4;
    if (locked) f.lockedUntil = t + LOCK_MS;
    this.failures.set(key, f);
    if (this.failures.size > 10_000) {
      for (const [k, x] of this.failures) if (x.lockedUntil === 0 && t - x.last > MAX_DELAY_MS) this.failures.delete(k);
    }
    return { count: f.n, locked };
  }

  succeed(key: string) {
    this.failures.delete(key);
  }
}

/**
 * The client's address: the connection's own, or — when that is one of the operator's
 * TRUSTED_PROXIES — the client its X-Forwarded-For names (anyone else's forwarding headers are
 * ignored: a client could forge them).
 */
export function clientAddress(server: { requestIP(r: Request): { address: string } | null } | null | undefined, request: Request, trustedProxies: ReadonlySet<string> = NO_PROXIES): string {
  let peer: string;
  try {
    peer = server?.requestIP(request)?.address ?? "unknown";
  } catch {
    return "unknown";
  }
  return clientBehindProxies(peer, request.headers.get("x-forwarded-for"), trustedProxies);
}

const NO_PROXIES: ReadonlySet<string> = new Set();
