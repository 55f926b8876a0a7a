// Storage config ids derived from names (docs/api.md#storage-configs: slug, suffixed when taken).
import { slugOf } from "../../lib/slug";

const FALLBACK = "storage";
const MAX_BASE = 56; // leaves room for a "-NNNNN" suffix within the 63-character limit

/** A storage config id from a name (at least 2 characters, as the id pattern asks). */
export const slugify = (name: string) => slugOf(name, { max: MAX_BASE, fallback: FALLBACK, minLength: 2 });

/** First of `base`, `base-2`, `base-3`, … that `taken` does not report. */
export function uniqueSlug(base: string, taken: (id: string) => boolean): string {
  if (!taken(base)) return base;
  for (let n = 2; ; n++) {
    const id = `${base}-${n}`;
    if (!taken(id)) return id;
  }
}
