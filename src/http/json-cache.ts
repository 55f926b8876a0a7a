// Caches serialised JSON answers of hot read-only lists per key until the database's change stamp
// moves (src/db/change-stamp.ts). Any write anywhere invalidates every entry: coarse, but it can
// never serve stale data, and between writes a list costs a stamp check instead of a query.
const MAX_ENTRIES = 2000;

export class JsonCache {
  private readonly entries = new Map<string, { stamp: string; body: string }>();

  constructor(private readonly stamp: () => string) {}

  /** The JSON response for `key`, computed by `produce` only when the data may have changed. */
  respond(key: string, produce: () => unknown): Response {
    // Taken before producing: a write after this point makes the next request recompute.
    const stamp = this.stamp();
    let entry = this.entries.get(key);
    if (!entry || entry.stamp !== stamp) {
      entry = { stamp, body: JSON.stringify(produce()) };
      this.entries.delete(key);
      if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
      this.entries.set(key, entry);
    }
    return new Response(entry.body, { headers: { "content-type": "application/json;charset=utf-8" } });
  }
}
