// The stored scenarios read lately, as their text, by project and save. Each generate and each
// preview start of a project hands its scenario (about 0.5 MB for 2,000 nodes) to the generator's
// worker; reading it from the database every time held the event loop 0.6–1 ms a call under load
// and gave the collector half a megabyte a call (issue 29, docs/performance.md). A text is used only
// while the row's stamp is the one it was read with: the time of its last save, to the millisecond
// (what a client's conflict check relies on, `baseUpdatedAt`), and the document's length in bytes
// (which SQLite knows without reading the document).

export interface StoredTextLimits {
  /** projects whose text is kept */
  entries: number;
  /** their size in all, in UTF-16 bytes */
  bytes: number;
}

export function storedTexts(limits: StoredTextLimits) {
  /** oldest use first (a Map keeps insertion order) */
  const kept = new Map<number, { stamp: string; text: string }>();
  let total = 0;

  const drop = (projectId: number) => {
    const old = kept.get(projectId);
    if (!old) return;
    kept.delete(projectId);
    total -= old.text.length * 2;
  };

  return {
    /** The text of `projectId` saved at `stamp`: kept, or `read` now (undefined: no such row). */
    get(projectId: number, stamp: string, read: () => string | undefined): string | undefined {
      const hit = kept.get(projectId);
      if (hit?.stamp === stamp) {
        kept.delete(projectId);
        kept.set(projectId, hit);
        return hit.text;
      }
      drop(projectId);
      const text = read();
      if (text === undefined || text.length * 2 > limits.bytes) return text;
      kept.set(projectId, { stamp, text });
      total += text.length * 2;
      for (const [id, entry] of kept) {
        if (kept.size <= limits.entries && total <= limits.bytes) break;
        kept.delete(id);
        total -= entry.text.length * 2;
      }
      return text;
    },

    /** What is kept (for tests). */
    get size() {
      return { entries: kept.size, bytes: total };
    },
  };
}
