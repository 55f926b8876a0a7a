// The guard for scenario SQL sent to an external PostgreSQL (a psql_query node with a connection,
// runtime/pg.ts). Like sql-guard.ts this file is the text of a part of every generated program
// (runtime-text.ts embeds it from its first "// ─── " line on, without `export`): no imports.
//
// The database's own privileges are what really bound a scenario (docs/security.md, "External
// PostgreSQL": give the bot a role that may do only what it needs); this guard keeps the reach of
// a statement to the rows of that database whatever the role may do: one statement; no function
// that reads or writes the server's files, runs programs, opens other connections, or runs SQL
// hidden in a string; no statement that changes the session (SET, RESET: the connection's
// statement_timeout and standard_conforming_strings stay as the bot set them), the role
// (SET ROLE, SESSION AUTHORIZATION, GRANT), the server (ALTER SYSTEM, LOAD, extensions, functions,
// languages) or the transaction (BEGIN / COMMIT on a pooled connection). A statement runs alone in
// its own transaction on whichever of the bot's pooled connections is free, the next one maybe for
// another user: nothing may outlive it there (session advisory locks, temporary tables, prepared
// statements, held cursors, LISTEN) and nothing may read what an earlier one left (currval,
// lastval, EXECUTE, FETCH). Transaction-level forms (pg_advisory_xact_lock) end with the statement
// and pass (docs/nodes/data.md#external-postgresql).
// The check is lexical, by PostgreSQL's tokenizer rules (scan.l): strings '…' with '' inside,
// E'…' with backslash escapes, dollar quotes $tag$…$tag$, quoted names "…", nested /* */ comments,
// parameters $n. Words inside strings and comments are not keywords; quoted names are checked like
// bare ones. The connection is opened with standard_conforming_strings on, so '…' means what this
// scanner reads.

// ─── External PostgreSQL SQL guard ────────────────────────────────────────────

export class PgSqlError extends Error {}

/** Functions a scenario may not call (upper-cased); names starting with DBLINK or LO_ are refused too. */
const PG_FORBIDDEN_CALLS: Record<string, string> = {
  PG_READ_FILE: "pg_read_file reads files of the database server",
  PG_READ_BINARY_FILE: "pg_read_binary_file reads files of the database server",
  PG_STAT_FILE: "pg_stat_file reads the server's file system",
  PG_LS_DIR: "pg_ls_dir lists the server's folders",
  PG_LS_LOGDIR: "pg_ls_logdir lists the server's folders",
  PG_LS_WALDIR: "pg_ls_waldir lists the server's folders",
  PG_LS_TMPDIR: "pg_ls_tmpdir lists the server's folders",
  PG_LS_ARCHIVE_STATUSDIR: "pg_ls_archive_statusdir lists the server's folders",
  PG_LS_LOGICALSNAPDIR: "pg_ls_logicalsnapdir lists the server's folders",
  PG_LS_LOGICALMAPDIR: "pg_ls_logicalmapdir lists the server's folders",
  PG_LS_REPLSLOTDIR: "pg_ls_replslotdir lists the server's folders",
  PG_FILE_WRITE: "pg_file_write writes files of the database server",
  PG_FILE_RENAME: "pg_file_rename changes files of the database server",
  PG_FILE_UNLINK: "pg_file_unlink deletes files of the database server",
  PG_FILE_SYNC: "pg_file_sync touches files of the database server",
  PG_LOGDIR_LS: "pg_logdir_ls lists the server's folders",
  SET_CONFIG: "set_config changes the session's settings (role, timeouts)",
  PG_RELOAD_CONF: "pg_reload_conf reloads the server's configuration",
  PG_ROTATE_LOGFILE: "pg_rotate_logfile acts on the server",
  PG_TERMINATE_BACKEND: "pg_terminate_backend ends other sessions",
  PG_CANCEL_BACKEND: "pg_cancel_backend cancels other sessions' queries",
  PG_PROMOTE: "pg_promote acts on the server",
  QUERY_TO_XML: "query_to_xml runs SQL given as a string",
  QUERY_TO_XMLSCHEMA: "query_to_xmlschema runs SQL given as a string",
  QUERY_TO_XML_AND_XMLSCHEMA: "query_to_xml_and_xmlschema runs SQL given as a string",
  CURSOR_TO_XML: "cursor_to_xml reads a cursor opened elsewhere",
  CURSOR_TO_XMLSCHEMA: "cursor_to_xmlschema reads a cursor opened elsewhere",
  TS_STAT: "ts_stat runs SQL given as a string",
  TS_REWRITE: "ts_rewrite may run SQL given as a string",
  AUTHORIZATION: "AUTHORIZATION changes the role of the session or of objects",
  PG_ADVISORY_LOCK: "pg_advisory_lock keeps its lock on a pooled connection after the statement (pg_advisory_xact_lock ends with it)",
  PG_ADVISORY_LOCK_SHARED: "pg_advisory_lock_shared keeps its lock on a pooled connection after the statement (pg_advisory_xact_lock_shared ends with it)",
  PG_TRY_ADVISORY_LOCK: "pg_try_advisory_lock keeps its lock on a pooled connection after the statement (pg_try_advisory_xact_lock ends with it)",
  PG_TRY_ADVISORY_LOCK_SHARED: "pg_try_advisory_lock_shared keeps its lock on a pooled connection after the statement (pg_try_advisory_xact_lock_shared ends with it)",
  PG_ADVISORY_UNLOCK: "pg_advisory_unlock releases session locks of a pooled connection",
  PG_ADVISORY_UNLOCK_SHARED: "pg_advisory_unlock_shared releases session locks of a pooled connection",
  PG_ADVISORY_UNLOCK_ALL: "pg_advisory_unlock_all releases session locks of a pooled connection",
  CURRVAL: "currval reads what an earlier statement on a pooled connection, maybe another user's, drew (use INSERT ... RETURNING)",
  LASTVAL: "lastval reads what an earlier statement on a pooled connection, maybe another user's, drew (use INSERT ... RETURNING)",
};

/** Statements refused by their first word. */
const PG_FORBIDDEN_HEADS: Record<string, string> = {
  SET: "SET changes the session (role, timeouts)",
  RESET: "RESET changes the session (role, timeouts)",
  LOAD: "LOAD loads native code into the server",
  DO: "DO runs procedural code",
  COPY: "COPY reads or writes the server's files and programs",
  GRANT: "GRANT changes privileges",
  REVOKE: "REVOKE changes privileges",
  REASSIGN: "REASSIGN changes owners",
  SECURITY: "SECURITY LABEL changes security labels",
  IMPORT: "IMPORT FOREIGN SCHEMA reaches other servers",
  CHECKPOINT: "CHECKPOINT acts on the server",
  LISTEN: "LISTEN keeps state on a pooled connection",
  UNLISTEN: "UNLISTEN changes state of a pooled connection",
  DISCARD: "DISCARD changes the session",
  PREPARE: "PREPARE keeps state on a pooled connection",
  DEALLOCATE: "DEALLOCATE changes state of a pooled connection",
  EXECUTE: "EXECUTE runs a statement prepared earlier on a pooled connection",
  DECLARE: "DECLARE opens a cursor, and WITH HOLD keeps it on a pooled connection",
  FETCH: "FETCH reads a cursor left on a pooled connection",
  MOVE: "MOVE moves a cursor left on a pooled connection",
  CLOSE: "CLOSE closes a cursor left on a pooled connection",
  LOCK: "LOCK holds only until the transaction ends, and each statement runs alone in its own",
  BEGIN: "transactions are not left open on a pooled connection",
  START: "transactions are not left open on a pooled connection",
  COMMIT: "transactions are not left open on a pooled connection",
  END: "transactions are not left open on a pooled connection",
  ROLLBACK: "transactions are not left open on a pooled connection",
  ABORT: "transactions are not left open on a pooled connection",
  SAVEPOINT: "transactions are not left open on a pooled connection",
  RELEASE: "transactions are not left open on a pooled connection",
};

/** What CREATE / ALTER / DROP may not name (after OR REPLACE, TEMP and the like). */
const PG_FORBIDDEN_OBJECTS = new Set([
  "SYSTEM", "ROLE", "USER", "GROUP", "EXTENSION", "FUNCTION", "PROCEDURE", "ROUTINE", "LANGUAGE", "SERVER", "FOREIGN",
  "SUBSCRIPTION", "PUBLICATION", "EVENT", "DATABASE", "TABLESPACE", "RULE", "TRIGGER", "AGGREGATE", "OPERATOR", "CAST",
  "TRANSFORM", "ACCESS", "CONVERSION", "PRIVILEGES", "OWNED",
]);
const PG_OBJECT_PREFIXES = new Set(["OR", "REPLACE", "TEMP", "TEMPORARY", "UNLOGGED", "TRUSTED", "PROCEDURAL", "GLOBAL", "LOCAL", "DEFAULT", "CONSTRAINT"]);
const PG_TEMP_WORDS = new Set(["TEMP", "TEMPORARY"]);
const PG_TEMP_WHY = "temporary tables, views and sequences stay on a pooled connection, seen by other users' turns";
/** What may stand between EXPLAIN and the statement it runs (EXPLAIN ANALYZE runs it). */
const PG_EXPLAIN_OPTIONS = new Set([
  "ANALYZE", "ANALYSE", "VERBOSE", "COSTS", "SETTINGS", "GENERIC_PLAN", "BUFFERS", "SERIALIZE", "WAL", "TIMING", "SUMMARY", "MEMORY",
  "FORMAT", "TEXT", "XML", "JSON", "YAML", "TRUE", "FALSE", "ON", "OFF", "NONE", "BINARY",
]);

/** A character of a PostgreSQL name after its first: letters, digits, _, $ and every non-ASCII character. */
function pgIdChar(c: string | undefined): boolean {
  return c !== undefined && (/[A-Za-z0-9_$]/.test(c) || c.charCodeAt(0) > 0x7f);
}

function pgIdStart(c: string | undefined): boolean {
  return c !== undefined && (/[A-Za-z_]/.test(c) || c.charCodeAt(0) > 0x7f);
}

/** The end of a '…' string starting at `open` (the quote); backslash escapes only in E'…'. */
function pgStringEnd(sql: string, open: number, backslash: boolean): number {
  for (let j = open + 1; j < sql.length; j++) {
    const c = sql[j];
    if (backslash && c === "\\") {
      j++;
      continue;
    }
    if (c === "'") {
      if (sql[j + 1] === "'") {
        j++;
        continue;
      }
      return j + 1;
    }
  }
  throw new PgSqlError("unterminated quote in the SQL");
}

/** The words of a statement (upper-cased, quoted names included) and how many statements the text holds. */
function scanPgSql(sql: string): { words: string[]; statements: number } {
  const words: string[] = [];
  let statements = 0;
  let pending = false;
  let i = 0;
  const n = sql.length;
  while (i < n) {
    const c = sql[i]!;
    if (/\s/.test(c)) {
      i++;
    } else if (c === "-" && sql[i + 1] === "-") {
      const end = sql.indexOf("\n", i);
      i = end < 0 ? n : end + 1;
    } else if (c === "/" && sql[i + 1] === "*") {
      // PostgreSQL's block comments nest
      let depth = 1;
      let j = i + 2;
      while (j < n && depth > 0) {
        if (sql[j] === "/" && sql[j + 1] === "*") (depth++, (j += 2));
        else if (sql[j] === "*" && sql[j + 1] === "/") (depth--, (j += 2));
        else j++;
      }
      if (depth > 0) throw new PgSqlError("unterminated comment in the SQL");
      i = j;
    } else if (c === ";") {
      if (pending) statements++;
      pending = false;
      i++;
    } else if (c === "'") {
      i = pgStringEnd(sql, i, false);
      pending = true;
    } else if ((c === "E" || c === "e") && sql[i + 1] === "'") {
      i = pgStringEnd(sql, i + 1, true);
      pending = true;
    } else if ((c === "U" || c === "u") && sql[i + 1] === "&" && sql[i + 2] === '"') {
      throw new PgSqlError("refused: names with Unicode escapes (U&\"…\")");
    } else if (c === '"') {
      let j = i + 1;
      let name = "";
      for (;;) {
        const at = sql.indexOf('"', j);
        if (at < 0) throw new PgSqlError("unterminated quoted name in the SQL");
        name += sql.slice(j, at);
        if (sql[at + 1] === '"') {
          name += '"';
          j = at + 2;
          continue;
        }
        j = at + 1;
        break;
      }
      words.push(name.toUpperCase());
      i = j;
      pending = true;
    } else if (c === "$") {
      let j = i + 1;
      if (/[0-9]/.test(sql[j] ?? "")) {
        while (j < n && /[0-9]/.test(sql[j]!)) j++;
        i = j;
      } else {
        // a dollar quote: $tag$ … $tag$
        while (j < n && sql[j] !== "$" && pgIdChar(sql[j])) j++;
        if (sql[j] !== "$") throw new PgSqlError("a stray $ in the SQL");
        const tag = sql.slice(i, j + 1);
        const end = sql.indexOf(tag, j + 1);
        if (end < 0) throw new PgSqlError("unterminated dollar quote in the SQL");
        i = end + tag.length;
      }
      pending = true;
    } else if (pgIdStart(c)) {
      let j = i + 1;
      while (j < n && pgIdChar(sql[j])) j++;
      words.push(sql.slice(i, j).toUpperCase());
      i = j;
      pending = true;
    } else {
      // numbers, operators, punctuation: the letters of 1e5 or 0x1F become harmless words next turn
      i++;
      pending = true;
    }
  }
  if (pending) statements++;
  return { words, statements };
}

/**
 * Returns `sql` when a scenario may send it to its external PostgreSQL, and throws PgSqlError
 * (with the reason) otherwise. Call it on the final text: values are bound parameters ($1, $2…).
 */
export function guardPgSql(sql: string): string {
  if (typeof sql !== "string" || sql.trim() === "") throw new PgSqlError("empty SQL");
  if (sql.includes("\u0000")) throw new PgSqlError("the SQL contains a NUL character");
  const { words, statements } = scanPgSql(sql);
  if (statements > 1) throw new PgSqlError("only one SQL statement may run at a time");
  // EXPLAIN ANALYZE runs the statement it explains (EXECUTE, DECLARE, CREATE TABLE AS among them)
  let at = words[0] === "EXPLAIN" ? 1 : 0;
  while (at > 0 && at < words.length && PG_EXPLAIN_OPTIONS.has(words[at]!)) at++;
  const head = words[at] ?? "";
  const headWhy = Object.hasOwn(PG_FORBIDDEN_HEADS, head) ? PG_FORBIDDEN_HEADS[head] : undefined;
  if (headWhy) throw new PgSqlError("refused: " + headWhy);
  if (head === "CREATE" || head === "ALTER" || head === "DROP") {
    let k = at + 1;
    while (k < words.length && PG_OBJECT_PREFIXES.has(words[k]!)) {
      if (head === "CREATE" && PG_TEMP_WORDS.has(words[k]!)) throw new PgSqlError("refused: " + PG_TEMP_WHY);
      k++;
    }
    if (PG_FORBIDDEN_OBJECTS.has(words[k] ?? "")) throw new PgSqlError("refused: " + head + " " + words[k] + " changes the server, its roles or its code");
  }
  for (let k = 0; k < words.length; k++) {
    const word = words[k]!;
    const why = Object.hasOwn(PG_FORBIDDEN_CALLS, word) ? PG_FORBIDDEN_CALLS[word] : undefined;
    if (why) throw new PgSqlError("refused: " + why);
    if (word.startsWith("DBLINK")) throw new PgSqlError("refused: dblink opens connections to other servers");
    if (word.startsWith("LO_")) throw new PgSqlError("refused: large-object functions (lo_import, lo_export) reach the server's files");
    // pg_temp (and pg_temp_N) is the session's own schema: CREATE TABLE pg_temp.t makes a temporary table
    if (word.startsWith("PG_TEMP")) throw new PgSqlError("refused: " + PG_TEMP_WHY);
    // SELECT … INTO [LOCAL | GLOBAL] TEMP t; INSERT INTO temp … names a table called temp
    const into = word === "INTO" && words[k - 1] !== "INSERT" && words[k - 1] !== "MERGE";
    const next = words[k + 1] === "LOCAL" || words[k + 1] === "GLOBAL" ? words[k + 2] : words[k + 1];
    if (into && PG_TEMP_WORDS.has(next ?? "")) throw new PgSqlError("refused: " + PG_TEMP_WHY);
  }
  return sql;
}
