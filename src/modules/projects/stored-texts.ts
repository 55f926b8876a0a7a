// The stored scenarios read lately, as their text, by project. Each generate and each preview start
// of a project hands its scenario (about 0.5 MB for 2,000 nodes) to the generator's worker; reading
// it from the database every time held the event loop 0.6–1 ms a call under load and gave the
// collector half a megabyte a call (issue 29, docs/performance.md). The one writer of a project's
// row, ProjectsService.update, forgets the project's text as it writes; a caller also passes the
// document's length in bytes, which SQLite reads from the record's header (a row's later columns
// would cost it the document's pages), so a write from elsewhere that changes the length is seen.
// The text's fingerprint, the program cache's key (scenario/codegen/program-cache.ts), is made once
// with it: hashing half a megabyte at each call cost about 40 µs.
import { boundedLru, type LruLimits } from "../../lib/bounded-lru";
import { fingerprintOf } from "../../scenario/codegen/off-thread";

/** What is kept of a project: its document's text, and what else was read with it. */
export interface KeptText {
  text: string;
}

/** A kept text with its fingerprint (`fingerprintOf(text)`). */
export type Fingerprinted<V extends KeptText> = V & { fingerprint: string };

/** `limits.bytes` counts the texts in UTF-16 bytes. */
export function storedTexts<V extends KeptText>(limits: LruLimits) {
  const kept = boundedLru<number, { stamp: number; value: Fingerprinted<V> }>(limits, (e) => e.value.text.length * 2);

  return {
    /** The text of `projectId` whose document is `stamp` bytes long: kept, or `read` now (undefined: no such row). */
    get(projectId: number, stamp: number, read: () => V | undefined): Fingerprinted<V> | undefined {
      const hit = kept.get(projectId);
      if (hit?.stamp === stamp) return hit.value;
      kept.delete(projectId);
      const row = read();
      if (row === undefined) return undefined;
      const value = { ...row, fingerprint: fingerprintOf(row.text) };
      kept.set(projectId, { stamp, value });
      return value;
    },

    /** The project's row was written: its text is read again at the next call. */
    forget: (projectId: number) => kept.delete(projectId),

    /** What is kept (for tests). */
    get size() {
      return kept.size;
    },
  };
}
