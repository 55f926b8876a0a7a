// The one send pace of each token (docs/campaigns.md#one-pace-per-token): campaigns and operators'
// sends (and, through campaigns, the scenario's broadcast node) take their slots here, so together
// they stay within the token's sends per second (25 by default: the messenger allows a bot about 30
// messages a second in all, which leaves room for the bot's own replies). A 429 pauses the token's
// queue for the retry_after the messenger named.
export const SENDS_PER_SECOND_DEFAULT = 25;

export class SendPace {
  /** token id → when its next send may start */
  private readonly next = new Map<number, number>();

  /** Waits for the token's next slot; slots are taken before the wait, so callers go in order. */
  async slot(tokenId: number, perSecond = SENDS_PER_SECOND_DEFAULT): Promise<void> {
    const now = performance.now();
    const at = Math.max(now, this.next.get(tokenId) ?? 0);
    this.next.set(tokenId, at + 1000 / perSecond);
    if (this.next.size > 10_000) for (const [id, t] of this.next) if (t < now) this.next.delete(id);
    if (at > now) await Bun.sleep(at - now);
  }

  /** The messenger said to wait (429 retry_after): no send of this token starts before then. */
  pause(tokenId: number, ms: number) {
    this.next.set(tokenId, Math.max(this.next.get(tokenId) ?? 0, performance.now() + ms));
  }
}
