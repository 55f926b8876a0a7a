// Slugs from names (bot folders, storage config ids). Cyrillic is transliterated because most
// names on this platform are Russian; accents are stripped; other scripts fall back.
const CYRILLIC: Record<string, string> = {
  а: "a", б: "b", в: "v", г: "g", д: "d", е: "e", ё: "e", ж: "zh", з: "z", и: "i", й: "y", к: "k", л: "l", м: "m",
  н: "n", о: "o", п: "p", р: "r", с: "s", т: "t", у: "u", ф: "f", х: "h", ц: "ts", ч: "ch", ш: "sh", щ: "sch",
  ъ: "", ы: "y", ь: "", э: "e", ю: "yu", я: "ya", і: "i", ї: "yi", є: "ye", ґ: "g", ў: "u",
};

/** Latin letters, digits and single dashes, at most `max` characters; `fallback` when shorter than `minLength`. */
export function slugOf(name: string, opts: { max: number; fallback: string; minLength?: number }): string {
  const latin = [...name.toLowerCase()].map((c) => CYRILLIC[c] ?? c).join("");
  const slug = latin
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, opts.max)
    .replace(/-+$/, "");
  return slug.length >= (opts.minLength ?? 1) ? slug : opts.fallback;
}
