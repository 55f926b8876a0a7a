// The one send pace of each token (docs/campaigns.md#one-pace-per-token): campaigns and operators'
// sends (and, through campaigns, the scenario's broadcast node) take their slots here, so together
// they stay within the token's sends per second (25 by default: the messenger allows a bot about 30
// messages a second in all, which leaves room for the bot's own replies). A 429 pauses the token's
// queue for the retry_after the messenger named. With a ledger (the token's project file), the
// server reserves its send time there a block at a time, and a bot's own mass sends (an in-process
// broadcast, a schedule for every user) reserve theirs in the same row: one pace for both processes.
import type { Database } from "bun:sqlite";
import { holdSendTime, reserveSendTime } from "../lib/shared-runtime";

export const SENDS_PER_SECOND_DEFAULT = 25;
/** Send time the server reserves in the ledger at once: one write per block, not per send. */
export const LEDGER_BLOCK_MS = 200;

/** Where the token's send time is shared with its bot (undefined: nowhere, the pace is this process's). */
export interface PaceLedger {
  /** Reserves `ms` of send time from `now` (epoch ms) or after the last reservation; its start, epoch ms. */
  reserve(tokenId: number, perSecond: number, ms: number, now: number): number | undefined;
  /** No reservation starts before `until` (epoch ms): a 429. */
  hold(tokenId: number, until: number): void;
}

/** The ledger in each token's project file (runtime/pace.ts, the text its bot runs too); a file that fails to answer leaves the pace local. */
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

export class SendPace {
  /** token id → when its next send may start (performance.now() time) */
  private readonly next = new Map<number, number>();
  /** token id → the end of the send time reserved in the ledger */
  private readonly reserved = new Map<number, number>();

  constructor(private readonly ledger?: PaceLedger) {}

  /**
   * Waits for the token's next slot; slots are taken before the wait, so callers go in order.
   * Answers when the slot starts (epoch ms).
   */
  async slot(tokenId: number, perSecond = SENDS_PER_SECOND_DEFAULT): Promise<number> {
    const now = performance.now();
    // the ledger's clock (epoch ms) read with this one, so times convert on one basis
    const epoch = Date.now();
    let at = Math.max(now, this.next.get(tokenId) ?? 0);
    if (this.ledger && at >= (this.reserved.get(tokenId) ?? 0)) {
      const start = this.ledger.reserve(tokenId, perSecond, LEDGER_BLOCK_MS, epoch + (at - now));
      if (start !== undefined) {
        at = Math.max(at, start - epoch + now);
        this.reserved.set(tokenId, at + LEDGER_BLOCK_MS);
      }
    }
    this.next.set(tokenId, at + 1000 / perSecond);
    if (this.next.size > 10_000)
      for (const [id, t] of this.next)
        if (t < now) {
          this.next.delete(id);
          this.reserved.delete(id);
        }
    const startsAt = epoch + (at - now);
    if (at > now) await Bun.sleep(at - now);
    return startsAt;
  }

  /** The messenger said to wait (429 retry_after): no send of this token starts before then. */
  pause(tokenId: number, ms: number) {
    this.next.set(tokenId, Math.max(this.next.get(tokenId) ?? 0, performance.now() + ms));
    this.ledger?.hold(tokenId, Date.now() + ms);
  }
}
