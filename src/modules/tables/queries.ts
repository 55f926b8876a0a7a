// SQL of the scenario tables (docs/tables.md): the tables `bot_table` and `psql_query` keep in a
// project's `<id>-tables.db`, which the project's bots write at the same moment (WAL, busy_timeout).
// Names come from the file itself (pragma_table_list, pragma_table_xinfo) and are quoted as
// identifiers; values are always bound. The server never computes a generated column and never
// writes a table whose schema would run code on a write (docs/tables.md "What the server refuses").
import { Database, type SQLQueryBindings } from "bun:sqlite";
import { statSync } from "node:fs";
import { sql, type SQL } from "drizzle-orm";
import { SQLiteSyncDialect } from "drizzle-orm/sqlite-core";
import { containsText } from "../../db/like";

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
  /** the column that is the rowid (an INTEGER PRIMARY KEY), if any */
  keyColumn: string | null;
  /** why the server does not write this table, or null */
  readOnly: string | null;
}

/** Connections kept open, most recently used last (each is three file descriptors). */
const MAX_OPEN = 16;
/** A bot's write transaction is short; longer than this and the answer is a 503, not a hang. */
const BUSY_MS = 5000;
interface Kept {
  d: Database;
  ino: number;
  /** PRAGMA data_version when the counts were taken */
  version: number;
  /** PRAGMA schema_version when the tables were described */
  schema: number;
  tables: Map<string, TableInfo> | null;
  counts: Map<string, number>;
  /** `_id`s where pages by `_id` begin and end ("table|desc|offset"), for the next and previous page */
  bounds: Map<string, { first?: number; last?: number }>;
}
const open_ = new Map<string, Kept>();

const quote = (name: string) => '"' + name.replaceAll('"', '""') + '"';
const dialect = new SQLiteSyncDialect();

function close(path: string) {
  open_.get(path)?.d.close();
  open_.delete(path);
}

/**
 * The kept connection to a tables file, or null when the file does not exist (a project whose
 * scenario never made a table). A file made anew at the same path (the project was deleted) is
 * another file: its inode tells.
 */
function conn(path: string) {
  const ino = statSync(path, { throwIfNoEntry: false })?.ino;
  const kept = open_.get(path);
  if (kept && kept.ino !== ino) close(path);
  if (ino === undefined) return null;
  let c = open_.get(path);
  open_.delete(path);
  if (!c) {
    // Never created here: only a bot makes the file (with its size caps).
    const d = new Database(path, { readwrite: true, create: false, strict: true });
    d.exec("PRAGMA busy_timeout = " + BUSY_MS);
    // Functions with side effects never run from the schema (a scenario wrote it).
    d.exec("PRAGMA trusted_schema = OFF");
    c = { d, ino, version: Number.NaN, schema: Number.NaN, tables: null, counts: new Map(), bounds: new Map() };
  }
  open_.set(path, c);
  while (open_.size > MAX_OPEN) close(open_.keys().next().value!);
  // data_version moves when another connection (a bot) commits: counts are then counted again.
  const version = c.d.query<{ data_version: number }, []>("PRAGMA data_version").get()!.data_version;
  const schema = c.d.query<{ schema_version: number }, []>("PRAGMA schema_version").get()!.schema_version;
  if (version !== c.version) {
    c.counts.clear();
    c.bounds.clear();
  }
  if (schema !== c.schema) c.tables = null;
  c.schema = schema;
  c.version = version;
  return c;
}

/** Closes every kept connection (tests, a deleted project). */
export function closeTablesFiles() {
  for (const path of [...open_.keys()]) close(path);
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
  return { name, columns, key, keyColumn, readOnly: reasons.length ? reasons.join("; ") : null };
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

function db(path: string): Database {
  const c = conn(path);
  if (!c) throw new Error("the tables file is gone");
  return c.d;
}

/** A write of this connection: data_version moves only for other connections' commits. */
function wrote<T>(path: string, table: string, result: T): T {
  open_.get(path)?.counts.delete(table);
  open_.get(path)?.bounds.clear();
  return result;
}

/**
 * Rows of a table. `count(*)` of a whole table walks the b-tree's pages, not its rows (about 10 ms
 * for 1,000,000 rows) and is kept until a commit moves the file's data_version.
 */
export function countRows(path: string, table: TableInfo): number {
  const c = conn(path);
  if (!c) return 0;
  let n = c.counts.get(table.name);
  if (n === undefined) {
    n = c.d.query<{ n: number }, []>("SELECT count(*) AS n FROM main." + quote(table.name)).get()!.n;
    c.counts.set(table.name, n);
  }
  return n;
}

/** The columns the server reads and writes: every one but generated columns (their code would run here). */
export const plainColumns = (t: TableInfo) => t.columns.filter((c) => !c.generated);

function selectList(t: TableInfo): string {
  return [(t.key ?? "NULL") + " AS _id", ...plainColumns(t).map((c) => "main." + quote(t.name) + "." + quote(c.name))].join(", ");
}

function run<T>(d: Database, q: SQL, all = true): T[] {
  const { sql: text, params } = dialect.sqlToQuery(q);
  const s = d.query<T, SQLQueryBindings[]>(text);
  return all ? s.all(...(params as SQLQueryBindings[])) : [s.get(...(params as SQLQueryBindings[]))].filter((r) => r !== null) as T[];
}

/** Matches of a search counted up to this many (a filtered count scans the table). */
export const SEARCH_COUNT_CAP = 10_000;

export interface PageQuery {
  limit: number;
  offset: number;
  /** a plain column's name or "_id" */
  sort: string;
  desc: boolean;
  search: string;
}

function searchWhere(t: TableInfo, search: string): SQL | null {
  const term = search.trim();
  if (!term) return null;
  const textual = plainColumns(t).filter((c) => c.affinity === "text" || c.affinity === "blob");
  if (textual.length === 0) return sql`0`;
  return sql.join(textual.map((c) => containsText(sql.raw("main." + quote(t.name) + "." + quote(c.name)), term)), sql` OR `);
}

export function pageRows(path: string, t: TableInfo, q: PageQuery): { rows: Row[]; total: number; capped: boolean } {
  const d = db(path);
  const where = searchWhere(t, q.search);
  const from = sql.raw(" FROM main." + quote(t.name));
  const select = (desc: boolean, limit: number, offset: number) => {
    const dir = desc ? "DESC" : "ASC";
    const keyOrder = t.key ? ", " + t.key + " " + dir : "";
    const order = q.sort === "_id" ? (t.key ? t.key + " " + dir : "1") : "main." + quote(t.name) + "." + quote(q.sort) + " " + dir + keyOrder;
    return run<Row>(d, sql`SELECT ${sql.raw(selectList(t))}${from}${where ? sql` WHERE ${where}` : sql``} ORDER BY ${sql.raw(order)} LIMIT ${limit} OFFSET ${offset}`);
  };
  if (!where && q.sort === "_id" && t.key) {
    const rows = byKey(path, t, q, select);
    return { rows, total: countRows(path, t), capped: false };
  }
  if (!where) {
    const total = countRows(path, t);
    // OFFSET steps over every row before the page: a page past the middle is read from the other
    // end, so the last page of 1,000,000 rows costs what the first does (bench/tables.ts).
    if (q.offset > total / 2 && q.offset < total) {
      const limit = Math.min(q.limit, total - q.offset);
      return { rows: select(!q.desc, limit, total - q.offset - limit).reverse(), total, capped: false };
    }
    return { rows: select(q.desc, q.limit, q.offset), total, capped: false };
  }
  const rows = select(q.desc, q.limit, q.offset);
  // A page that is not full ends the matches: no second pass to count them.
  if (rows.length < q.limit && (rows.length > 0 || q.offset === 0)) return { rows, total: q.offset + rows.length, capped: false };
  const n = run<{ n: number }>(d, sql`SELECT count(*) AS n FROM (SELECT 1${from} WHERE ${where} LIMIT ${SEARCH_COUNT_CAP + 1})`, false)[0]!.n;
  return { rows, total: Math.min(n, SEARCH_COUNT_CAP), capped: n > SEARCH_COUNT_CAP };
}

/**
 * A page in `_id` order. The page after (or before) one already read starts from that page's last
 * (or first) `_id`: the index finds it at once, where OFFSET would step over every row before it.
 */
function byKey(path: string, t: TableInfo, q: PageQuery, select: (desc: boolean, limit: number, offset: number) => Row[]): Row[] {
  const c = open_.get(path)!;
  const at = (offset: number) => c.bounds.get(t.name + "|" + q.desc + "|" + offset);
  const after = at(q.offset)?.last;
  const before = at(q.offset + q.limit)?.first;
  const cmp = (forward: boolean) => ((forward ? !q.desc : q.desc) ? " > ?" : " < ?");
  const from = " FROM main." + quote(t.name) + " WHERE " + t.key;
  let rows: Row[];
  if (after !== undefined) {
    rows = c.d.query<Row, [number, number]>("SELECT " + selectList(t) + from + cmp(true) + " ORDER BY " + t.key + (q.desc ? " DESC" : " ASC") + " LIMIT ?").all(after, q.limit);
  } else if (before !== undefined && q.offset >= 0) {
    rows = c.d.query<Row, [number, number]>("SELECT " + selectList(t) + from + cmp(false) + " ORDER BY " + t.key + (q.desc ? " ASC" : " DESC") + " LIMIT ?").all(before, q.limit).reverse();
  } else {
    const total = countRows(path, t);
    // OFFSET steps over every row before the page: a page past the middle is read from the other
    // end, so the last page of 1,000,000 rows costs what the first does (bench/tables.ts).
    if (q.offset > total / 2 && q.offset < total) {
      const limit = Math.min(q.limit, total - q.offset);
      rows = select(!q.desc, limit, total - q.offset - limit).reverse();
    } else rows = select(q.desc, q.limit, q.offset);
  }
  if (rows.length > 0) {
    const key = t.name + "|" + q.desc + "|";
    if (c.bounds.size > 1000) c.bounds.clear();
    c.bounds.set(key + q.offset, { ...c.bounds.get(key + q.offset), first: Number(rows[0]!._id) });
    c.bounds.set(key + (q.offset + rows.length), { ...c.bounds.get(key + (q.offset + rows.length)), last: Number(rows.at(-1)!._id) });
  }
  return rows;
}

export function rowById(path: string, t: TableInfo, id: number): Row | undefined {
  return db(path).query<Row, [number]>("SELECT " + selectList(t) + " FROM main." + quote(t.name) + " WHERE " + t.key + " = ?").get(id) ?? undefined;
}

/** Inserts one row in a short IMMEDIATE transaction (the bot may be writing); its `_id`. */
export function insertRow(path: string, t: TableInfo, row: Record<string, Cell>): number {
  const d = db(path);
  return wrote(path, t.name, d.transaction(() => insertInto(d, t, Object.keys(row))(Object.values(row))).immediate());
}

function insertInto(d: Database, t: TableInfo, columns: string[]): (values: Cell[]) => number {
  const text =
    columns.length === 0
      ? "INSERT INTO main." + quote(t.name) + " DEFAULT VALUES"
      : "INSERT INTO main." + quote(t.name) + " (" + columns.map(quote).join(", ") + ") VALUES (" + columns.map(() => "?").join(", ") + ")";
  const s = d.query<unknown, SQLQueryBindings[]>(text);
  return (values) => Number(s.run(...(values as SQLQueryBindings[])).lastInsertRowid);
}

export function updateRow(path: string, t: TableInfo, id: number, patch: Record<string, Cell>): boolean {
  const d = db(path);
  const cols = Object.keys(patch);
  if (cols.length === 0) return !!rowById(path, t, id);
  const text = "UPDATE main." + quote(t.name) + " SET " + cols.map((c) => quote(c) + " = ?").join(", ") + " WHERE " + t.key + " = ?";
  return d.transaction(() => d.query<unknown, SQLQueryBindings[]>(text).run(...(Object.values(patch) as SQLQueryBindings[]), id).changes > 0).immediate();
}

export function deleteRow(path: string, t: TableInfo, id: number): boolean {
  const d = db(path);
  return wrote(path, t.name, d.transaction(() => d.query<unknown, [number]>("DELETE FROM main." + quote(t.name) + " WHERE " + t.key + " = ?").run(id).changes > 0).immediate());
}

/**
 * Every row of a table, in `_id` order, `batch` at a time, from one read snapshot of a connection
 * of the export's own (closed when the iterator ends or is dropped): the kept connection goes on
 * writing meanwhile, and the bot's writes too (WAL readers never block writers).
 */
export function* allRows(path: string, t: TableInfo, batch: number): Generator<Row[]> {
  const d = new Database(path, { readonly: true });
  try {
    d.exec("PRAGMA busy_timeout = " + BUSY_MS);
    d.exec("PRAGMA trusted_schema = OFF");
    const cols = plainColumns(t).map((c) => quote(c.name)).join(", ");
    const order = t.key ? " ORDER BY " + t.key : "";
    let rows: Row[] = [];
    for (const r of d.query<Row, []>("SELECT " + (cols || "NULL AS _") + " FROM main." + quote(t.name) + order).iterate()) {
      rows.push(r);
      if (rows.length >= batch) {
        yield rows;
        rows = [];
      }
    }
    if (rows.length) yield rows;
  } finally {
    d.close();
  }
}

/** Thrown by importRows with the 1-based number of the record SQLite refused. */
export class RowRefused extends Error {
  constructor(
    readonly row: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Writes every record or none (replace empties the table first) and names the first record SQLite
 * refuses. The bot writes the same file, so the write lock is held as briefly as it can be: the
 * records go to a TEMP table first (this connection's own; the file is not locked meanwhile), then
 * one IMMEDIATE transaction copies them in a single INSERT … SELECT. Only when that copy is refused
 * are the records written one by one, in one transaction rolled back at the refused one, to name it.
 * `lockMs`: how long the file's write lock was held.
 */
export function importRows(path: string, t: TableInfo, records: Record<string, Cell>[], replace: boolean): { inserted: number; lockMs: number } {
  const d = db(path);
  open_.get(path)?.counts.delete(t.name);
  open_.get(path)?.bounds.clear();
  const shapes = new Set(records.map((r) => JSON.stringify(Object.keys(r))));
  const columns = records.length > 0 ? Object.keys(records[0]!) : [];
  if (shapes.size <= 1 && columns.length > 0) {
    const list = columns.map(quote).join(", ");
    d.exec("DROP TABLE IF EXISTS temp.botloom_import");
    // Untyped columns: a value keeps its type until the table's own affinity takes it.
    d.exec("CREATE TEMP TABLE botloom_import (" + list + ")");
    try {
      const stage = d.query<unknown, SQLQueryBindings[]>("INSERT INTO temp.botloom_import (" + list + ") VALUES (" + columns.map(() => "?").join(", ") + ")");
      d.transaction(() => {
        for (const r of records) stage.run(...(Object.values(r) as SQLQueryBindings[]));
      })();
      const t0 = performance.now();
      try {
        d.transaction(() => {
          if (replace) d.exec("DELETE FROM main." + quote(t.name));
          d.exec("INSERT INTO main." + quote(t.name) + " (" + list + ") SELECT " + list + " FROM temp.botloom_import ORDER BY rowid");
        }).immediate();
        return { inserted: records.length, lockMs: performance.now() - t0 };
      } catch (e) {
        if (!/^SQLITE_(CONSTRAINT|MISMATCH|TOOBIG)/.test(String((e as { code?: unknown }).code ?? ""))) throw e;
        // a record was refused: find which, one by one
      }
    } finally {
      d.exec("DROP TABLE IF EXISTS temp.botloom_import");
    }
  }
  const t0 = performance.now();
  d.transaction(() => {
    if (replace) d.exec("DELETE FROM main." + quote(t.name));
    // One statement per set of columns (JSON records may each name their own).
    const inserts = new Map<string, (values: Cell[]) => number>();
    for (let i = 0; i < records.length; i++) {
      const cols = Object.keys(records[i]!);
      const shape = JSON.stringify(cols);
      let insert = inserts.get(shape);
      if (!insert) inserts.set(shape, (insert = insertInto(d, t, cols)));
      try {
        insert(Object.values(records[i]!));
      } catch (e) {
        throw new RowRefused(i + 1, e instanceof Error ? e.message : String(e));
      }
    }
  }).immediate();
  return { inserted: records.length, lockMs: performance.now() - t0 };
}
