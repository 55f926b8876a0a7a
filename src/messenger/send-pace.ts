// The one send pace of each token (docs/campaigns.md#one-pace-per-token): campaigns and operators'
// sends (and, through campaigns, the scenario's broadcast node) take their slots here, so together
// they stay within the token's sends per second (25 by default: the messenger allows a bot about 30
// messages a second in all, which leaves room for the bot's own replies). A 429 pauses the token's
// queue for the retry_after the messenger named.
//
// The state lives in a SharedArrayBuffer: the campaign sender's worker thread and the server's event
// loop (operators, tests, delete-sent) each build a SendPace over the same buffer, so they take their
// slots from one budget (docs/campaigns.md#the-sender). Times are wall-clock milliseconds
// (`performance.timeOrigin + now()`), which every thread of the process reads alike.
export const SENDS_PER_SECOND_DEFAULT = 25;

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

  constructor(buffer?: SharedArrayBuffer) {
    this.buffer = buffer ?? new SharedArrayBuffer(LOCK_BYTES + SLOTS * 16);
    this.lock = new Int32Array(this.buffer, 0, 1);
    this.ids = new Float64Array(this.buffer, LOCK_BYTES, SLOTS);
    this.next = new Float64Array(this.buffer, LOCK_BYTES + SLOTS * 8, SLOTS);
  }

  /**
   * Waits for the token's next slot; slots are taken before the wait, so callers go in order.
   * Answers the time the slot was given for (the clock above).
   */
  async slot(tokenId: number, perSecond = SENDS_PER_SECOND_DEFAULT): Promise<number> {
    const now = clock();
    const at = this.locked(() => {
      const i = this.indexOf(tokenId, now);
      const at = Math.max(now, this.next[i]!);
      this.next[i] = at + 1000 / perSecond;
      return at;
    });
    if (at > now) await Bun.sleep(at - now);
    return at;
  }

  /** The messenger said to wait (429 retry_after): no send of this token starts before then. */
  pause(tokenId: number, ms: number) {
    const now = clock();
    this.locked(() => {
      const i = this.indexOf(tokenId, now);
      this.next[i] = Math.max(this.next[i]!, now + ms);
    });
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
    return i;
  }
}
