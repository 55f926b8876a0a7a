// Substring search with the user's text taken literally and case folded in every alphabet.
// SQLite's LIKE folds ASCII letters only ('Анна' LIKE '%анна%' is 0) and the ICU extension is not
// in bun:sqlite, so the folding is done here, in the pattern: GLOB is case-sensitive and takes
// character classes, and each letter of the text becomes the class of its case forms
// ("анна" → *[аА][нН][нН][аА]*). GLOB's own metacharacters * ? [ are put in one-character classes;
// LIKE's % _ \ mean nothing to GLOB. This file is the only place that knows the dialect's form.
import { sql, type SQL, type SQLWrapper } from "drizzle-orm";

/** Case folding for text compared in code: Unicode lower case, the same whatever the server's locale. */
export function foldCase(text: string): string {
  return text.toLowerCase();
}

function caseForms(ch: string): string[] {
  const forms = new Set([ch]);
  for (const f of [ch.toLowerCase(), ch.toUpperCase(), ch.toUpperCase().toLowerCase(), ch.toLowerCase().toUpperCase()]) {
    // One code point only: a class holds characters, and "ß" → "SS" is not one.
    if ([...f].length === 1) forms.add(f);
  }
  return [...forms];
}

/** The GLOB pattern that matches any text containing `text`, literally, in any letter case. */
export function containsPattern(text: string): string {
  let out = "*";
  for (const ch of foldCase(text)) {
    const forms = caseForms(ch);
    if (forms.length > 1) out += `[${forms.join("")}]`;
    else out += ch === "*" || ch === "?" || ch === "[" ? `[${ch}]` : ch;
  }
  return out + "*";
}

/** `column` contains `text` (literally, in any letter case). False for NULL. */
export function containsText(column: SQLWrapper, text: string): SQL {
  return sql`${column} GLOB ${containsPattern(text)}`;
}
