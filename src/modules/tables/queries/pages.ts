// Pages of a table's rows, its row count, sorts and searches (docs/tables.md "Reading: paging, sort,
// search, counts"). They run in the reads' worker (../read-worker.ts), each in one read snapshot.
import type { Database, SQLQueryBindings } from "bun:sqlite";
import { sql, type SQL } from "drizzle-orm";
import { SQLiteSyncDialect } from "drizzle-orm/sqlite-core";
import { planOnce } from "../../../db/drizzle";
import { containsText } from "../../../db/like";
import { conn, db, quote, type Kept } from "./files";
import { plainColumns, selectList, type Row, type TableInfo } from "./schema";

const dialect = planOnce(new SQLiteSyncDialect());

/** Rows between two marks: a page read from a mark steps over fewer than this many rows. */
export const MARK_STEP = 4096;

/**
 * Rows of a table. `count(*)` of a whole table walks the b-tree's pages, not its rows (under a
 * millisecond for 1,000,000 rows with the file mapped) and is kept until a commit moves the file's
 * data_version.
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

/** The statement of a built query, with its parameters (kept by the connection per text). */
function prepared<T>(d: Database, q: SQL) {
  const { sql: text, params } = dialect.sqlToQuery(q);
  return { s: d.query<T, SQLQueryBindings[]>(text), params: params as SQLQueryBindings[] };
}

/** A page's rows: integers as bigints, so a cell past 2^53 keeps its digits (service.ts decides how it travels). */
function rowsOf(d: Database, q: SQL): Row[] {
  const { s, params } = prepared<Row>(d, q);
  return s.safeIntegers(true).all(...params);
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
    const dir = desc ? " DESC" : " ASC";
    const order = [...(q.sort === "_id" ? [] : ["main." + quote(t.name) + "." + quote(q.sort)]), ...t.order].map((o) => o + dir).join(", ");
    const orderBy = sql.raw(order ? " ORDER BY " + order : "");
    if (q.sort !== "_id" && t.key && !where) {
      // OFFSET steps over the sorted column and the key only — an index on the column holds both,
      // so the steps never reach the table's rows — and the page's rows are then read by their key
      return rowsOf(d, sql`SELECT ${sql.raw(selectList(t))}${from} WHERE ${sql.raw(t.key)} IN (SELECT ${sql.raw(t.key)}${from}${orderBy} LIMIT ${limit} OFFSET ${offset})${orderBy}`);
    }
    return rowsOf(d, sql`SELECT ${sql.raw(selectList(t))}${from}${where ? sql` WHERE ${where}` : sql``}${orderBy} LIMIT ${limit} OFFSET ${offset}`);
  };
  if (!where && q.sort === "_id" && t.key) return { rows: byKey(conn(path)!, t, q, countRows(path, t)), total: countRows(path, t), capped: false };
  if (!where) {
    const total = countRows(path, t);
    // OFFSET steps over every row before the page: a page past the middle is read from the other
    // end, so the last page of 1,000,000 rows costs what the first does (bench/tables.ts). Only
    // rows in an order of their own have another end (t.order).
    if (q.offset > total / 2 && q.offset < total && t.order.length > 0) {
      const limit = Math.min(q.limit, total - q.offset);
      return { rows: select(!q.desc, limit, total - q.offset - limit).reverse(), total, capped: false };
    }
    return { rows: select(q.desc, q.limit, q.offset), total, capped: false };
  }
  const rows = select(q.desc, q.limit, q.offset);
  // A page that is not full ends the matches: no second pass to count them.
  if (rows.length < q.limit && (rows.length > 0 || q.offset === 0)) return { rows, total: q.offset + rows.length, capped: false };
  const count = prepared<{ n: number }>(d, sql`SELECT count(*) AS n FROM (SELECT 1${from} WHERE ${where} LIMIT ${SEARCH_COUNT_CAP + 1})`);
  const n = count.s.get(...count.params)!.n;
  return { rows, total: Math.min(n, SEARCH_COUNT_CAP), capped: n > SEARCH_COUNT_CAP };
}

/**
 * A page in `_id` order, read from the nearer end of the table, starting at the mark before it:
 * OFFSET steps over fewer than MARK_STEP rows, where from the table's end it would step over every
 * row before the page (half a million in the middle of 1,000,000). The marks are taken as pages
 * need them and kept while the file does not change (files.ts), so a first jump steps over the rows
 * from the nearer end once, and jumps after it do not. `n`: the rows of the table in this snapshot.
 */
function byKey(c: Kept, t: TableInfo, q: PageQuery, n: number): Row[] {
  // the rows wanted as ascending positions [from, to)
  const from = q.desc ? Math.max(0, n - q.offset - q.limit) : q.offset;
  const to = q.desc ? n - q.offset : Math.min(n, q.offset + q.limit);
  if (from >= to) return [];
  let marks = c.marks.get(t.name);
  if (!marks) c.marks.set(t.name, (marks = { head: [], tail: [] }));
  const ascending = from <= n - to;
  // the page's position counted from the end it is read from, and the mark at or before it
  const at = ascending ? from : n - to;
  const i = Math.floor(at / MARK_STEP);
  const dir = ascending ? " ASC" : " DESC";
  const select = "SELECT " + selectList(t) + " FROM main." + quote(t.name);
  const tail = " ORDER BY " + t.key + dir + " LIMIT ? OFFSET ?";
  const rows =
    i === 0
      ? c.d.query<Row, [number, number]>(select + tail).safeIntegers(true).all(to - from, at)
      : c.d
          .query<Row, [number | bigint, number, number]>(select + " WHERE " + t.key + (ascending ? " >= ?" : " <= ?") + tail)
          .safeIntegers(true)
          .all(markAt(c.d, t, ascending ? marks.head : marks.tail, ascending, i), to - from, at - i * MARK_STEP);
  if (!ascending) rows.reverse();
  return q.desc ? rows.reverse() : rows;
}

/** The i-th mark from one end of the table (the `_id` i × MARK_STEP rows in), taking the ones missing before it. */
function markAt(d: Database, t: TableInfo, list: (number | bigint)[], ascending: boolean, i: number): number | bigint {
  const dir = ascending ? " ASC" : " DESC";
  const table = " FROM main." + quote(t.name);
  // rowids go up to 2^63: kept exactly, as bigints
  if (list.length === 0) list.push(d.query<unknown, []>("SELECT " + t.key + table + " ORDER BY " + t.key + dir + " LIMIT 1").safeIntegers(true).values()[0]![0] as bigint);
  if (list.length <= i) {
    // one statement: each mark is MARK_STEP rows on from the one before it
    const next = "(SELECT " + t.key + table + " WHERE " + t.key + (ascending ? " > " : " < ") + "botloom_marks.at ORDER BY " + t.key + dir + " LIMIT 1 OFFSET " + (MARK_STEP - 1) + ")";
    const more = d
      .query<unknown, [bigint | number, number]>(
        "WITH RECURSIVE botloom_marks(i, at) AS (SELECT 0, ? UNION ALL SELECT i + 1, " + next + " FROM botloom_marks WHERE i < ? AND at IS NOT NULL) SELECT at FROM botloom_marks WHERE i > 0",
      )
      .safeIntegers(true)
      .values(list.at(-1)!, i - list.length + 1);
    for (const [at] of more) {
      if (at === null) break;
      list.push(at as bigint);
    }
  }
  const mark = list[i];
  if (mark === undefined) throw new Error(`no mark ${i} in ${t.name}: the count and the rows disagree`);
  return mark;
}
