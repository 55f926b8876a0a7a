// A map bounded by count and by size: the least recently used values leave first once either
// bound is passed, and a value larger than the whole size bound is never kept (keeping it would
// push out every other). The generator's program cache and the projects' kept scenario texts use it.

export interface LruLimits {
  /** values kept */
  entries: number;
  /** their size in all, as `sizeOf` counts it */
  bytes: number;
}

export function boundedLru<K, V>(limits: LruLimits, sizeOf: (value: V) => number) {
  /** oldest use first (a Map keeps insertion order) */
  const kept = new Map<K, { value: V; bytes: number }>();
  let total = 0;

  const remove = (key: K) => {
    const old = kept.get(key);
    if (!old) return;
    kept.delete(key);
    total -= old.bytes;
  };

  return {
    /** The value kept for `key`, now the most recently used. */
    get(key: K): V | undefined {
      const hit = kept.get(key);
      if (!hit) return undefined;
      kept.delete(key);
      kept.set(key, hit);
      return hit.value;
    },

    /** Keeps `value` for `key` (replacing what it had), then lets the least used go beyond the limits. */
    set(key: K, value: V) {
      remove(key);
      const bytes = sizeOf(value);
      if (bytes > limits.bytes) return;
      kept.set(key, { value, bytes });
      total += bytes;
      for (const old of kept.keys()) {
        if (kept.size <= limits.entries && total <= limits.bytes) break;
        remove(old);
      }
    },

    delete: remove,

    /** What is kept (for tests). */
    get size() {
      return { entries: kept.size, bytes: total };
    },
  };
}
