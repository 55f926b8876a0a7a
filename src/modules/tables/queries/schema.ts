// What a scenario table is, read from the file itself (pragma_table_list, pragma_table_xinfo): its
// columns, the expression of its `_id`, and why the server would not write it (docs/tables.md
// "What the server refuses"). Names come from here only, and are quoted as identifiers.
import type { Database } from "bun:sqlite";
import { conn, quote } from "./files";

export type Cell = string | number | bigint | null | Uint8Array;
export type Row = Record<string, Cell>;

export interface ColumnInfo {
  name: string;
  /** the declared type as written ("" when none: bot_table's columns) */
  type: string;
  notNull: boolean;
  /** part of the primary key */
  pk: boolean;
  /** generated: never read or written by the server */
  generated: boolean;
  /** SQLite's affinity of the declared type */
  affinity: "integer" | "real" | "numeric" | "text" | "blob";
}

export interface TableInfo {
  name: string;
  columns: ColumnInfo[];
  /** the expression that reads a row's `_id`, or null (WITHOUT ROWID tables have none) */
  key: string | null;
  /**
   * What orders the rows, one of a kind, when they are sorted by `_id`: the key, or a WITHOUT ROWID
   * table's primary key; empty when nothing does (a table whose columns hide every name of its
   * rowid): such a table is paged in the order a scan reads it.
   */
  order: string[];
  /** the column that is the rowid (an INTEGER PRIMARY KEY), if any */
  keyColumn: string | null;
  /** why the server does not write this table, or null */
  readOnly: string | null;
}

function affinityOf(type: string): ColumnInfo["affinity"] {
  // SQLite's rules, in their order (sqlite.org/datatype3.html, 3.1).
  const t = type.toUpperCase();
  if (t.includes("INT")) return "integer";
  if (/CHAR|CLOB|TEXT/.test(t)) return "text";
  if (t === "" || t.includes("BLOB")) return "blob";
  if (/REAL|FLOA|DOUB/.test(t)) return "real";
  return "numeric";
}

/** A DEFAULT the server may let SQLite evaluate on insert: a literal, or the current time. */
const SAFE_DEFAULT = /^(NULL|[+-]?\d+(\.\d+)?|'([^']|'')*'|CURRENT_(TIME|DATE|TIMESTAMP)|\(?\s*(datetime|date|time|julianday|unixepoch|strftime)\(\s*('([^']|'')*'\s*,?\s*)*\)\s*\)?)$/i;

/** The CREATE text without its strings and quoted names, to look for keywords in it. */
const bare = (ddl: string) => ddl.replace(/'([^']|'')*'|"([^"]|"")*"|`[^`]*`|\[[^\]]*\]/g, " ");

function describe(d: Database, name: string, withoutRowid: boolean): TableInfo {
  const cols = d
    .query<{ name: string; type: string; notnull: number; pk: number; hidden: number; dflt_value: string | null }, [string]>("SELECT name, type, \"notnull\", pk, hidden, dflt_value FROM pragma_table_xinfo(?, 'main')")
    .all(name);
  const columns: ColumnInfo[] = cols
    .filter((c) => c.hidden !== 1)
    .map((c) => ({ name: c.name, type: c.type, notNull: c.notnull === 1, pk: c.pk > 0, generated: c.hidden === 2 || c.hidden === 3, affinity: affinityOf(c.type) }));
  const pks = cols.filter((c) => c.pk > 0);
  const names = new Set(columns.map((c) => c.name));
  let key: string | null = null;
  let keyColumn: string | null = null;
  if (!withoutRowid) {
    if (pks.length === 1 && pks[0]!.type.toUpperCase() === "INTEGER") keyColumn = pks[0]!.name;
    const alias = ["rowid", "_rowid_", "oid"].find((a) => !names.has(a));
    key = keyColumn ? quote(keyColumn) : alias ?? null;
  }
  const reasons: string[] = [];
  if (!key) reasons.push("it has no rowid");
  if (names.has("_id")) reasons.push("a column is named _id");
  if (columns.some((c) => c.generated)) reasons.push("it has generated columns");
  const ddl = d.query<{ sql: string | null }, [string]>("SELECT sql FROM main.sqlite_schema WHERE type = 'table' AND name = ?").get(name)?.sql ?? "";
  if (/\bCHECK\b/i.test(bare(ddl))) reasons.push("it has CHECK constraints");
  if (/\bREFERENCES\b/i.test(bare(ddl))) reasons.push("it has foreign keys");
  if (cols.some((c) => c.dflt_value !== null && !SAFE_DEFAULT.test(c.dflt_value.trim()))) reasons.push("a column's default is an expression");
  if (d.query("SELECT 1 FROM main.sqlite_schema WHERE type = 'trigger' AND tbl_name = ?").get(name)) reasons.push("it has triggers");
  const indexes = d.query<{ name: string; partial: number }, [string]>("SELECT name, partial FROM pragma_index_list(?, 'main')").all(name);
  for (const ix of indexes) {
    const expr = d.query("SELECT 1 FROM pragma_index_xinfo(?, 'main') WHERE cid = -2").get(ix.name);
    if (ix.partial || expr) {
      reasons.push("it has an index on an expression or a partial index");
      break;
    }
  }
  // a rowid table's other primary key may hold several NULLs: only WITHOUT ROWID makes it one of a kind
  const order = key ? [key] : withoutRowid ? pks.sort((a, b) => a.pk - b.pk).map((c) => quote(c.name)) : [];
  return { name, columns, key, order, keyColumn, readOnly: reasons.length ? reasons.join("; ") : null };
}

/** The scenario tables of the file: plain tables, not SQLite's own, not virtual or shadow tables, not views. */
export function tablesOf(path: string): Map<string, TableInfo> {
  const c = conn(path);
  if (!c) return new Map();
  if (!c.tables) {
    const list = c.d
      .query<{ name: string; wr: number }, []>("SELECT name, wr FROM pragma_table_list WHERE schema = 'main' AND type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name")
      .all();
    c.tables = new Map(list.map((t) => [t.name, describe(c.d, t.name, t.wr === 1)]));
  }
  return c.tables;
}

/** The columns the server reads and writes: every one but generated columns (their code would run here). */
export const plainColumns = (t: TableInfo) => t.columns.filter((c) => !c.generated);

export function selectList(t: TableInfo): string {
  return [(t.key ?? "NULL") + " AS _id", ...plainColumns(t).map((c) => "main." + quote(t.name) + "." + quote(c.name))].join(", ");
}
