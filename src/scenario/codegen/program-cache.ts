// Programs generated lately, by what they were generated from. The Studio asks for the same program
// again and again (the Code tab, each preview start or restart of an unchanged scenario), and eight
// parallel `generate` calls of one project kept the generator's thread busy for seconds (issue 29,
// bench/health-under-load.ts): calls for the same source share one generation while it runs, and
// its result answers later calls until newer programs push it out.
//
// The key holds a 64-bit hash of the source, which is not collision-resistant: a caller names a
// scope only the people who may read every source of it share (a project's stored scenario), so a
// crafted collision can only return a program of that same scope. Hashing a 0.5 MB text costs the
// event loop about 40 µs: a stored text is hashed once, when it is read (projects/stored-texts.ts).

import { boundedLru, type LruLimits } from "../../lib/bounded-lru";

/** A source's part of a cache key: its hash and its length. */
export const fingerprintOf = (source: string): string => `${Bun.hash(source).toString(36)}:${source.length}`;

export function programCache<R>(limits: LruLimits, sizeOf: (result: R) => number) {
  /** finished results */
  const kept = boundedLru<string, R>(limits, sizeOf);
  const running = new Map<string, Promise<R>>();

  return {
    /** The key of a source (its `fingerprintOf`) in `scope` with `settings`. */
    keyOf(scope: string, fingerprint: string, settings: unknown): string {
      return `${scope}\n${fingerprint}\n${JSON.stringify(settings)}`;
    },

    /** The result for `key`: kept, being made, or made now by `make` (kept when `worthKeeping`). */
    get(key: string, make: () => Promise<R>, worthKeeping: (result: R) => boolean): Promise<R> {
      const hit = kept.get(key);
      if (hit !== undefined) return Promise.resolve(hit);
      let pending = running.get(key);
      if (!pending) {
        pending = make().then((result) => {
          if (worthKeeping(result)) kept.set(key, result);
          return result;
        });
        running.set(key, pending);
        const settled = () => running.delete(key);
        pending.then(settled, settled);
      }
      return pending;
    },

    /** What is kept (for tests). */
    get size() {
      return kept.size;
    },
  };
}
