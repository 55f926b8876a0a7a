// The guard for SQL written in a scenario (Level 2 `psql_query` / `bot_table` nodes): a bot runs
// such SQL only on its project's own database file, so the statement must not reach any other
// file or change how that file is kept. This file is also the text of that part of every generated
// program (runtime-text.ts embeds it like tables.ts: from the first "// ─── " line on, without the
// `export` keywords), so it is self-contained: no imports, declarations only.
//
// Refused: more than one statement; ATTACH / DETACH (other files); VACUUM (INTO writes a copy
// anywhere); PRAGMA statements (journal_mode, writable_schema, ... change the file; the
// side-effect-free pragma_* table functions stay usable inside SELECT); load_extension and the
// shell's file functions; CREATE TRIGGER / VIEW (the platform reads and writes this file in its
// own process: a trigger or a view would run the scenario's SQL there, a slow one stalling the
// server for everyone); a NUL character (SQLite would stop reading there).
// The check is lexical: words inside string literals, quoted identifiers and comments are not
// keywords, so `SELECT 'ATTACH'` passes while a column named vacuum or view must be quoted ("vacuum").

// ─── Scenario SQL guard ────────────────────────────────────────────────────────

export class ScenarioSqlError extends Error {}

const SQL_FORBIDDEN_WORDS: Record<string, string> = {
  ATTACH: "ATTACH opens another database file",
  DETACH: "DETACH changes the attached databases",
  VACUUM: "VACUUM rewrites the database file (VACUUM INTO writes a copy anywhere)",
  PRAGMA: "PRAGMA statements change how the database file is kept",
  LOAD_EXTENSION: "load_extension loads native code",
  READFILE: "readfile reads files of the server",
  WRITEFILE: "writefile writes files of the server",
  FTS3_TOKENIZER: "fts3_tokenizer takes native pointers",
  TRIGGER: "triggers would run inside the platform's own writes of the file",
  VIEW: "views would answer the platform's own reads of the file",
};

/** The bare words of a statement (upper-cased) and whether a second statement follows a ";". */
function scanScenarioSql(sql: string): { words: string[]; statements: number } {
  const words: string[] = [];
  let statements = 0;
  let pending = false; // a statement has started since the last ";"
  let i = 0;
  const n = sql.length;
  while (i < n) {
    const c = sql[i]!;
    if (c === "-" && sql[i + 1] === "-") {
      const end = sql.indexOf("\n", i);
      i = end < 0 ? n : end + 1;
    } else if (c === "/" && sql[i + 1] === "*") {
      const end = sql.indexOf("*/", i + 2);
      i = end < 0 ? n : end + 2;
    } else if (c === "'" || c === '"' || c === "`" || c === "[") {
      const close = c === "[" ? "]" : c;
      let j = i + 1;
      for (;;) {
        const at = sql.indexOf(close, j);
        if (at < 0) throw new ScenarioSqlError("unterminated quote in the SQL");
        // A doubled quote is an escaped one (not for [ ]).
        if (close !== "]" && sql[at + 1] === close) {
          j = at + 2;
          continue;
        }
        j = at + 1;
        break;
      }
      i = j;
      pending = true;
    } else if (c === ";") {
      if (pending) statements++;
      pending = false;
      i++;
    } else if (/[A-Za-z0-9_$\u0080-\uFFFF]/.test(c)) {
      let j = i + 1;
      while (j < n && /[A-Za-z0-9_$\u0080-\uFFFF]/.test(sql[j]!)) j++;
      words.push(sql.slice(i, j).toUpperCase());
      i = j;
      pending = true;
    } else {
      if (!/\s/.test(c)) pending = true;
      i++;
    }
  }
  if (pending) statements++;
  return { words, statements };
}

/**
 * Returns `sql` when a scenario may run it on its project's database, and throws
 * ScenarioSqlError (with the reason) otherwise. Call it on the final text, after any variable
 * substitution: values belong in bound parameters, never spliced into the text.
 */
export function guardScenarioSql(sql: string): string {
  if (typeof sql !== "string" || sql.trim() === "") throw new ScenarioSqlError("empty SQL");
  if (sql.includes("\u0000")) throw new ScenarioSqlError("the SQL contains a NUL character");
  const { words, statements } = scanScenarioSql(sql);
  if (statements > 1) throw new ScenarioSqlError("only one SQL statement may run at a time");
  for (const word of words) {
    const why = SQL_FORBIDDEN_WORDS[word];
    if (why) throw new ScenarioSqlError("refused: " + why);
  }
  return sql;
}
