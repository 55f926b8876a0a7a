// LIKE patterns with the user's text taken literally: `%`, `_` and the escape character itself are
// escaped, so a search for "50%" or "a_b" matches those characters and nothing else.
import { sql, type SQLWrapper } from "drizzle-orm";

export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** `column LIKE '%text%'` with `text` literal. SQLite's LIKE folds case for ASCII letters only. */
export function likeContains(column: SQLWrapper, text: string) {
  return sql`${column} LIKE ${`%${escapeLike(text)}%`} ESCAPE '\\'`;
}
