// The stored scenarios read lately, as their text, by project. Each generate and each preview start
// of a project hands its scenario (about 0.5 MB for 2,000 nodes) to the generator's worker; reading
// it from the database every time held the event loop 0.6–1 ms a call under load and gave the
// collector half a megabyte a call (issue 29, docs/performance.md). The one writer of a project's
// row, ProjectsService.update, forgets the project's text as it writes; a caller also passes the
// document's length in bytes, which SQLite reads from the record's header (a row's later columns
// would cost it the document's pages), so a write from elsewhere that changes the length is seen.

export interface StoredTextLimits {
  /** projects whose text is kept */
  entries: number;
  /** their size in all, in UTF-16 bytes */
  bytes: number;
}

/** What is kept of a project: its document's text, and what else was read with it. */
export interface KeptText {
  text: string;
}

export function storedTexts<V extends KeptText>(limits: StoredTextLimits) {
  /** oldest use first (a Map keeps insertion order) */
  const kept = new Map<number, { stamp: number; value: V }>();
  let total = 0;

  const size = (v: V) => v.text.length * 2;
  const forget = (projectId: number) => {
    const old = kept.get(projectId);
    if (!old) return;
    kept.delete(projectId);
    total -= size(old.value);
  };

  return {
    /** The text of `projectId` whose document is `stamp` bytes long: kept, or `read` now (undefined: no such row). */
    get(projectId: number, stamp: number, read: () => V | undefined): V | undefined {
      const hit = kept.get(projectId);
      if (hit?.stamp === stamp) {
        kept.delete(projectId);
        kept.set(projectId, hit);
        return hit.value;
      }
      forget(projectId);
      const value = read();
      // one text over the whole budget is answered, not kept: keeping it would push out every other
      if (value === undefined || size(value) > limits.bytes) return value;
      kept.set(projectId, { stamp, value });
      total += size(value);
      for (const [id, entry] of kept) {
        if (kept.size <= limits.entries && total <= limits.bytes) break;
        kept.delete(id);
        total -= size(entry.value);
      }
      return value;
    },

    /** The project's row was written: its text is read again at the next call. */
    forget,

    /** What is kept (for tests). */
    get size() {
      return { entries: kept.size, bytes: total };
    },
  };
}
