// The guard for SQL written in a scenario (Level 2 `psql_query` / `bot_table` nodes): a bot runs
// such SQL only on its project's tables file (the bot's own file attached read-only, see
// scenario-file.ts), so the statement must not reach any other file or change how that file is
// kept. This file is also the text of that part of every generated program (runtime-text.ts
// embeds it like tables.ts: from the first "// ─── " line on, without the
// `export` keywords), so it is self-contained: no imports, declarations only.
//
// Refused: more than one statement; ATTACH / DETACH (other files); VACUUM (INTO writes a copy
// anywhere); PRAGMA statements (journal_mode, writable_schema, ... change the file; the
// side-effect-free pragma_* table functions stay usable inside SELECT); load_extension and the
// shell's file functions; CREATE TRIGGER / VIEW (hidden SQL that would run inside other reads and
// writes: when scenario SQL still shared the bot's file, inside the server's); a NUL character
// (SQLite would stop reading there).
// The check is lexical, by SQLite's tokenizer rules (parameters, blob literals and quoted names
// included): words inside string literals, quoted identifiers and comments are not keywords, so
// `SELECT 'ATTACH'` passes while a column named vacuum or view must be quoted ("vacuum"). A second
// check (guardCompiledScenarioSql) reads the program SQLite itself compiled for the statement.
// Which tables scenario SQL may write is SQLite's to enforce, not this guard's (docs/security.md,
// "Project files"): these checks keep other files out of reach.

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

/** SQLite's white space (ASCII only: U+00A0 and the like are name characters; a bare vertical tab SQLite refuses). */
function sqlSpace(c: string | undefined): boolean {
  return c === " " || c === "\t" || c === "\n" || c === "\f" || c === "\r" || c === "\v";
}

/** A character of a name (tokenize.c IdChar): ASCII letters, digits, _ and $, and every non-ASCII character. */
function sqlIdChar(c: string | undefined): boolean {
  return c !== undefined && (/[A-Za-z0-9_$]/.test(c) || c.charCodeAt(0) > 0x7f);
}

/**
 * The bare words of a statement (upper-cased) and how many statements the text holds, read by
 * SQLite's own tokenizer rules (tokenize.c sqlite3GetToken), so that what SQLite runs as a keyword
 * is a word here: strings '...' (with '' inside), quoted names "..." `...` [...], blob literals
 * x'..', comments, numbers, and parameters: ?NNN, :name, @name, #name and $name, where a $, :, @
 * or # name may go on with "::" parts and end in a "(...)" suffix that runs to the first ")" or
 * white space, quotes included: `$a(')` is one parameter, so the ATTACH after it is a keyword.
 */
function scanScenarioSql(sql: string): { words: string[]; statements: number } {
  const words: string[] = [];
  let statements = 0;
  let pending = false; // a statement has started since the last ";"
  let i = 0;
  const n = sql.length;
  while (i < n) {
    const c = sql[i]!;
    if (sqlSpace(c)) {
      i++;
    } else if (c === "-" && sql[i + 1] === "-") {
      const end = sql.indexOf("\n", i);
      i = end < 0 ? n : end + 1;
    } else if (c === "/" && sql[i + 1] === "*") {
      // SQLite ends an unterminated block comment at the end of the text.
      const end = sql.indexOf("*/", i + 2);
      i = end < 0 ? n : end + 2;
    } else if (c === ";") {
      if (pending) statements++;
      pending = false;
      i++;
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
    } else if ((c === "x" || c === "X") && sql[i + 1] === "'") {
      // A blob literal ends at the next quote: x'' is no escape.
      const end = sql.indexOf("'", i + 2);
      if (end < 0) throw new ScenarioSqlError("unterminated blob literal in the SQL");
      i = end + 1;
      pending = true;
    } else if (c === "?") {
      i++;
      while (i < n && /[0-9]/.test(sql[i]!)) i++;
      pending = true;
    } else if (c === "$" || c === ":" || c === "@" || c === "#") {
      let j = i + 1;
      let named = 0;
      while (j < n) {
        const d = sql[j]!;
        if (sqlIdChar(d)) {
          named++;
          j++;
        } else if (d === "(" && named > 0) {
          j++;
          while (j < n && !sqlSpace(sql[j]) && sql[j] !== ")") j++;
          if (sql[j] !== ")") throw new ScenarioSqlError("a parameter's (...) suffix is not closed");
          j++;
          break;
        } else if (d === ":" && sql[j + 1] === ":") {
          j += 2;
        } else {
          break;
        }
      }
      if (named === 0) throw new ScenarioSqlError("a parameter without a name");
      i = j;
      pending = true;
    } else if (/[0-9]/.test(c) || (c === "." && /[0-9]/.test(sql[i + 1] ?? ""))) {
      // A number; name characters glued to it make one bad token in SQLite (1abc), never a word.
      const number = /^(?:0[xX][0-9A-Fa-f_]+|(?:[0-9][0-9_]*(?:\.[0-9_]*)?|\.[0-9][0-9_]*)(?:[eE][+-]?[0-9][0-9_]*)?)/.exec(sql.slice(i, i + 400));
      let j = i + Math.max(1, number ? number[0].length : 1);
      while (j < n && sqlIdChar(sql[j])) j++;
      i = j;
      pending = true;
    } else if (sqlIdChar(c)) {
      let j = i + 1;
      while (j < n && sqlIdChar(sql[j])) j++;
      words.push(sql.slice(i, j).toUpperCase());
      i = j;
      pending = true;
    } else {
      pending = true;
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

/** Functions of SQLite's compiled programs that reach other files or load code (EXPLAIN's p4: "name(args)"). */
const SQL_FORBIDDEN_CALLS = /^(sqlite_attach|sqlite_detach|load_extension|readfile|writefile|fts3_tokenizer)\(/i;

/**
 * The second check, by SQLite's own parser rather than ours: the program SQLite compiles for the
 * statement (EXPLAIN lists it) must not attach or detach a file, vacuum, or call a function that
 * loads code or touches files. Call it on text guardScenarioSql passed: a PRAGMA takes effect
 * while its statement is prepared, so only text without one may be compiled at all.
 */
export function guardCompiledScenarioSql(db: { prepare(sql: string): { all(): unknown[]; finalize(): void } }, sql: string): string {
  // Prepared and finalized here, not cached: a cached EXPLAIN statement left active kept the
  // next write's transaction from committing (bun:sqlite 1.4).
  const explain = db.prepare("EXPLAIN " + sql);
  let program: { opcode: string; p4: unknown }[];
  try {
    program = explain.all() as { opcode: string; p4: unknown }[];
  } finally {
    explain.finalize();
  }
  for (const op of program) {
    if (op.opcode === "Vacuum") throw new ScenarioSqlError("refused: " + SQL_FORBIDDEN_WORDS.VACUUM);
    if (/Func/.test(op.opcode) && typeof op.p4 === "string" && SQL_FORBIDDEN_CALLS.test(op.p4)) {
      throw new ScenarioSqlError("refused: the statement calls " + op.p4.replace(/\(.*$/, ""));
    }
  }
  return sql;
}
