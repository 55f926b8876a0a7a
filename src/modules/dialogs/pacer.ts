// Operators' sends of one token, spaced like the bot's own mass sends (runtime/broadcast.ts
// BROADCAST_PER_SECOND, 25 a second): many operators answering at once stay within the messenger's
// limit of about 30 messages a second per bot, leaving room for the bot's replies. A 429 pauses
// the token's queue for the retry_after the messenger named.
const PER_SECOND = 25;
const GAP_MS = 1000 / PER_SECOND;

export class SendPacer {
  /** token id → when its next send may start */
  private readonly next = new Map<number, number>();

  /** Waits for the token's next slot; slots are taken before the wait, so callers go in order. */
  async slot(tokenId: number): Promise<void> {
    const now = Date.now();
    const at = Math.max(now, this.next.get(tokenId) ?? 0);
    this.next.set(tokenId, at + GAP_MS);
    if (this.next.size > 10_000) for (const [id, t] of this.next) if (t < now) this.next.delete(id);
    if (at > now) await Bun.sleep(at - now);
  }

  pause(tokenId: number, ms: number) {
    this.next.set(tokenId, Math.max(this.next.get(tokenId) ?? 0, Date.now() + ms));
  }
}
