// Storage config ids derived from names (DESIGN.md §4: slug, suffixed when taken). Cyrillic is
// transliterated because most names on this platform are Russian; other scripts fall back.
const CYRILLIC: Record<string, string> = {
  а: "a", б: "b", в: "v", г: "g", д: "d", е: "e", ё: "e", ж: "zh", з: "z", и: "i", й: "y", к: "k", л: "l", м: "m",
  н: "n", о: "o", п: "p", р: "r", с: "s", т: "t", у: "u", ф: "f", х: "h", ц: "ts", ч: "ch", ш: "sh", щ: "sch",
  ъ: "", ы: "y", ь: "", э: "e", ю: "yu", я: "ya", і: "i", ї: "yi", є: "ye", ґ: "g", ў: "u",
};

const FALLBACK = "storage";
const MAX_BASE = 56; // leaves room for a "-NNNNN" suffix within the 63-character limit

export function slugify(name: string): string {
  const latin = [...name.toLowerCase()].map((c) => CYRILLIC[c] ?? c).join("");
  const slug = latin
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, MAX_BASE)
    .replace(/-+$/, "");
  return slug.length >= 2 ? slug : FALLBACK;
}

/** First of `base`, `base-2`, `base-3`, … that `taken` does not report. */
export function uniqueSlug(base: string, taken: (id: string) => boolean): string {
  if (!taken(base)) return base;
  for (let n = 2; ; n++) {
    const id = `${base}-${n}`;
    if (!taken(id)) return id;
  }
}
