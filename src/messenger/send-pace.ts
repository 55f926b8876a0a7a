// The one send pace of each token (docs/campaigns.md#one-pace-per-token): campaigns and operators'
// sends (and, through campaigns, the scenario's broadcast node) take their slots here, so together
// they stay within the token's sends per second (25 by default: the messenger allows a bot about 30
// messages a second in all, which leaves room for the bot's own replies). A 429 pauses the token's
// queue for the retry_after the messenger named.
//
// Between processes (the server and the token's bot): with a ledger, the token's project file, the
// server reserves its send time in the file's `send_pace` row a block at a time (one write per
// block, not per send), and the bot's own mass sends reserve theirs in the same row (runtime/pace.ts).
//
// Between the server's threads: the state lives in a SharedArrayBuffer. The campaign sender's worker
// thread and the server's event loop (operators, tests, delete-sent) each build a SendPace over the
// same buffer, each with a ledger through its own connections, so they take their slots from one
// budget and use one another's blocks (docs/campaigns.md#the-sender). Times are wall-clock
// milliseconds (`performance.timeOrigin + now()`), which every thread of the process reads alike;
// the ledger's are epoch ms (the bot's clock), converted at the call.
import type { Database } from "bun:sqlite";
import { holdSendTime, reserveSendTime } from "../lib/shared-runtime";

export const SENDS_PER_SECOND_DEFAULT = 25;
/** Send time the server reserves in the ledger at once: one write per block, not per send. */
export const LEDGER_BLOCK_MS = 200;

/** Where the token's send time is shared with its bot. Times are epoch ms (the bot's clock). */
export interface PaceLedger {
  /** Reserves `ms` of send time from `now` or after the last reservation; its start (undefined: no ledger for the token). */
  reserve(tokenId: number, perSecond: number, ms: number, now: number): number | undefined;
  /** No reservation starts before `until`: a 429. */
  hold(tokenId: number, until: number): void;
}

/**
 * The ledger in each token's project file (runtime/pace.ts, the text its bot runs too), through the
 * calling thread's own connection; a file that fails to answer leaves the pace to this process.
 */
export function projectFileLedger(fileOf: (tokenId: number) => Database | undefined): PaceLedger {
  return {
    reserve(tokenId, perSecond, ms, now) {
      const file = fileOf(tokenId);
      if (!file) return undefined;
      try {
        return reserveSendTime(file, tokenId, now, ms, perSecond, perSecond).start;
      } catch {
        return undefined;
      }
    },
    hold(tokenId, until) {
      const file = fileOf(tokenId);
      try {
        if (file) holdSendTime(file, tokenId, until, SENDS_PER_SECOND_DEFAULT);
      } catch {
        /* the local pause still holds this process's sends */
      }
    },
  };
}

/** Tokens with a reservation at once; a token whose slots are all in the past gives its place up. */
const SLOTS = 4096;
const LOCK_BYTES = 8;
/** Far beyond any look-up, even of a thread the machine left waiting for a core. */
const LOCK_STALE_MS = 250;

const clock = () => performance.timeOrigin + performance.now();

export class SendPace {
  /** What another thread passes to its own SendPace to share this one's budget. */
  readonly buffer: SharedArrayBuffer;
  private readonly lock: Int32Array;
  /** token id per slot (0: never used) */
  private readonly ids: Float64Array;
  /** when the slot's token's next send may start */
  private readonly next: Float64Array;
  /** the end of the send time the token holds in the ledger (any thread's reservation counts) */
  private readonly reserved: Float64Array;

  /** `ledger`: this thread's way to the project files (none: the pace is this process's alone). */
  constructor(buffer?: SharedArrayBuffer, private readonly ledger?: PaceLedger) {
    this.buffer = buffer ?? new SharedArrayBuffer(LOCK_BYTES + SLOTS * 24);
    this.lock = new Int32Array(this.buffer, 0, 1);
    this.ids = new Float64Array(this.buffer, LOCK_BYTES, SLOTS);
    this.next = new Float64Array(this.buffer, LOCK_BYTES + SLOTS * 8, SLOTS);
    this.reserved = new Float64Array(this.buffer, LOCK_BYTES + SLOTS * 16, SLOTS);
  }

  /**
   * Waits for the token's next slot; slots are taken before the wait, so callers go in order.
   * Answers the time the slot was given for (the clock above).
   */
  async slot(tokenId: number, perSecond = SENDS_PER_SECOND_DEFAULT): Promise<number> {
    let ledger = this.ledger;
    const gap = 1000 / perSecond;
    // whole slots, so the last send of a block and the first after it are a slot apart
    const block = Math.ceil(LEDGER_BLOCK_MS / gap) * gap;
    for (;;) {
      const now = clock();
      const got = this.locked((): { at: number } | { want: number } => {
        const i = this.indexOf(tokenId, now);
        const at = Math.max(now, this.next[i]!);
        // within send time already held in the ledger (or none to hold it in): a slot
        if (ledger && at + gap > this.reserved[i]! + 1e-6) return { want: at };
        this.next[i] = at + gap;
        return { at };
      });
      if ("at" in got) {
        if (got.at > now) await Bun.sleep(got.at - now);
        return got.at;
      }
      // A block of send time from the ledger, outside the lock (it is a write to the file). Another
      // thread may take one at once: the later block replaces the earlier, whose rest goes unused.
      const epoch = Date.now() - now;
      const start = ledger!.reserve(tokenId, perSecond, block, got.want + epoch);
      if (start === undefined) {
        ledger = undefined;
        continue;
      }
      const from = start - epoch;
      this.locked(() => {
        const i = this.indexOf(tokenId, clock());
        if (from + block <= this.reserved[i]!) return;
        this.reserved[i] = from + block;
        this.next[i] = Math.max(this.next[i]!, from);
      });
    }
  }

  /** The messenger said to wait (429 retry_after): no send of this token starts before then. */
  pause(tokenId: number, ms: number) {
    const now = clock();
    this.locked(() => {
      const i = this.indexOf(tokenId, now);
      this.next[i] = Math.max(this.next[i]!, now + ms);
    });
    this.ledger?.hold(tokenId, Date.now() + ms);
  }

  /**
   * Held for a table look-up only (no await inside), so a spin is shorter than any wait a thread
   * could park in; the Atomics operations order the plain reads and writes between them. A thread
   * terminated inside the look-up would leave the lock taken: after LOCK_STALE_MS of spinning it is
   * taken over (at worst one token's slot is written twice), never a server spinning for good.
   */
  private locked<T>(fn: () => T): T {
    for (let spins = 0, since = 0; Atomics.compareExchange(this.lock, 0, 0, 1) !== 0; spins++) {
      if ((spins & 1023) !== 1023) continue;
      since ||= performance.now();
      if (performance.now() - since > LOCK_STALE_MS) break;
    }
    try {
      return fn();
    } finally {
      Atomics.store(this.lock, 0, 0);
    }
  }

  /**
   * The token's slot (open addressing). A slot whose time has passed may be given to another token:
   * its owner has nothing reserved, so starting again from "now" is what its own slot would say.
   * A token's slot always lies before the first never-used slot of its probe, so a look-up that
   * reaches one knows the token has none. With every slot reserved (4,096 tokens sending at once)
   * the token shares its home slot's timeline: slower, never over the pace.
   */
  private indexOf(tokenId: number, now: number): number {
    const home = (Math.imul(tokenId, 2654435761) >>> 0) % SLOTS;
    let stale = -1;
    for (let k = 0; k < SLOTS; k++) {
      const i = (home + k) % SLOTS;
      const id = this.ids[i]!;
      if (id === tokenId) return i;
      if (id === 0) return this.claim(stale >= 0 ? stale : i, tokenId);
      if (stale < 0 && this.next[i]! < now) stale = i;
    }
    return stale >= 0 ? this.claim(stale, tokenId) : home;
  }

  private claim(i: number, tokenId: number): number {
    this.ids[i] = tokenId;
    this.next[i] = 0;
    this.reserved[i] = 0;
    return i;
  }
}
