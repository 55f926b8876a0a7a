// A project file's schema compared with Botloom's own (PROJECT_DB_DDL) before the server reads the
// file (docs/security.md, "Project files"). A schema is code: a generated column, an index on an
// expression, a partial index, a CHECK, a view or a trigger runs inside every read or write of its
// table, in the server's process, on its event loop. Only the exact tables and indexes the DDL
// makes are accepted; anything else on those tables, and every view and trigger, is unexpected.
import { Database } from "bun:sqlite";
import { PROJECT_DB_DDL } from "./project-schema";

export interface SchemaEntry {
  type: string;
  name: string;
  tbl_name: string;
  sql: string | null;
}

let expected: Map<string, SchemaEntry> | undefined;

/** The sqlite_master rows PROJECT_DB_DDL makes (tables, indexes, autoindexes, sqlite_sequence), by name. */
function expectedEntries(): Map<string, SchemaEntry> {
  if (!expected) {
    const memory = new Database(":memory:");
    for (const ddl of PROJECT_DB_DDL) memory.exec(ddl);
    const rows = memory.query<SchemaEntry, []>("SELECT type, name, tbl_name, sql FROM sqlite_master").all();
    memory.close();
    expected = new Map(rows.map((r) => [r.name, r]));
  }
  return expected;
}

/**
 * What in the file is not Botloom's schema and would run inside the server's reads or writes of
 * its tables: every view and trigger, and any table or index of the bot's tables that differs from
 * the DDL (or is extra), in the order they can be dropped. Empty for a sound file. Missing tables
 * are not listed: CREATE TABLE IF NOT EXISTS makes them.
 */
export function unexpectedSchema(d: Database): SchemaEntry[] {
  return unexpectedIn(ownRows(d));
}

/** The file's sqlite_master rows about the bot's tables, views and triggers (a legacy file may still hold many scenario tables). */
function ownRows(d: Database): SchemaEntry[] {
  const own = [...new Set([...expectedEntries().values()].map((e) => e.tbl_name))];
  const marks = own.map(() => "?").join(", ");
  return d
    .query<SchemaEntry, string[]>(`SELECT type, name, tbl_name, sql FROM sqlite_master WHERE type IN ('view', 'trigger') OR tbl_name IN (${marks}) OR name IN (${marks})`)
    .all(...own, ...own);
}

/** True when the file holds exactly Botloom's schema for the bot's tables (a read: no lock taken for writing). */
export function schemaIsSound(d: Database): boolean {
  const rows = ownRows(d);
  const have = new Set(rows.map((r) => r.name));
  return unexpectedIn(rows).length === 0 && [...expectedEntries().keys()].every((name) => have.has(name));
}

function unexpectedIn(rows: SchemaEntry[]): SchemaEntry[] {
  const want = expectedEntries();
  const bad = rows.filter((r) => {
    const w = want.get(r.name);
    return !w || w.type !== r.type || w.tbl_name !== r.tbl_name || w.sql !== r.sql;
  });
  const rank = (e: SchemaEntry) => (e.type === "trigger" || e.type === "view" ? 0 : e.type === "index" ? 1 : 2);
  return bad.sort((a, b) => rank(a) - rank(b));
}

const quoteName = (name: string) => `"${name.replaceAll('"', '""')}"`;

/**
 * Drops what unexpectedSchema lists (a table the bot owns goes with its rows: a file where it
 * differs was rewritten by other code than Botloom's) and makes the bot's tables again. Call it in
 * a transaction. Returns what was dropped.
 */
export function repairSchema(d: Database): SchemaEntry[] {
  const bad = unexpectedSchema(d);
  for (const e of bad) {
    // Autoindexes go with their table.
    if (e.name.startsWith("sqlite_")) continue;
    const kind = e.type === "view" ? "VIEW" : e.type === "trigger" ? "TRIGGER" : e.type === "index" ? "INDEX" : "TABLE";
    d.exec(`DROP ${kind} IF EXISTS ${quoteName(e.name)}`);
  }
  for (const ddl of PROJECT_DB_DDL) d.exec(ddl);
  return bad;
}
