// Runtime source: bot_table and psql_query on the project's own SQLite file (DATABASE_PATH; an
// in-memory database when the bot runs without one). (Part of every generated bot; see types.ts.)
import { Database } from "bun:sqlite";
import { closeNow } from "./connection";
import { nodeError } from "./control";
import { log } from "./flow";
import type { SqlNode, TableOpNode } from "./logic-tables";
import { pgRun } from "./pg";
import { PROJECT_DB_DDL } from "./program-data";
import { hasLegacyTables, openScenarioDatabase } from "./scenario-file";
import { guardCompiledScenarioSql, guardScenarioSql } from "./sql-guard";
import { DB_MAX_MB, db, env, parseJson } from "./storage";
import type { Turn } from "./types";
import { PLACEHOLDER, readVar, render, toText } from "./values";

// ─── The project's own tables: bot_table, psql_query ───────────────────────────

/** Undefined until a scenario first needs its tables; null once the bot has closed it. */
let scenarioConnection: Database | null | undefined;

/**
 * Scenario tables: a file of their own, the bot's file attached read-only (scenario-file.ts). The
 * connection opens when a bot_table or psql_query node (or {table.…}) first needs it: most bots
 * never do, and with the bot's file attached it held about 0.4 MB of a runner per bot
 * (docs/performance.md). A bot whose file still holds legacy scenario tables opens it at once
 * at start, so they move as before.
 */
export function scenarioDb(): Database {
  if (scenarioConnection === null) throw new Error("the bot was stopped");
  return (scenarioConnection ??= openScenarioDatabase(env.DATABASE_PATH, DB_MAX_MB, db, PROJECT_DB_DDL));
}

/** The scenario connection if it is open (the bot gives back its cache, or closes it). */
export const openScenarioDb = (): Database | undefined => scenarioConnection ?? undefined;

export function closeScenarioDb() {
  if (scenarioConnection) closeNow(scenarioConnection);
  scenarioConnection = null;
}

if (db && hasLegacyTables(db, PROJECT_DB_DDL)) scenarioDb();

/** The bot's own tables: a bot_table node may not write them (psql_query may read them). */
export const BOT_TABLES = new Set(["bot_users", "bot_state", "media_file_ids", "project_content"]);
export const IDENT = /^[\p{L}_][\p{L}\p{N}_]{0,62}$/u;
/** Rows one read brings back at most. */
export const ROW_LIMIT = 1000;

export type Row = Record<string, unknown>;

export function quoteIdent(name: string, what: string): string {
  if (!IDENT.test(name) || /^sqlite_/i.test(name)) throw new Error(what + " " + JSON.stringify(name) + " is not a valid name (letters, digits, _)");
  return '"' + name + '"';
}

export function tableExists(name: string): boolean {
  return !!scenarioDb().query<{ n: number }, [string]>("SELECT 1 AS n FROM sqlite_master WHERE type = 'table' AND name = ?").get(name);
}

export function columnsOf(name: string): string[] {
  return scenarioDb().query<{ name: string }, [string]>("SELECT name FROM pragma_table_info(?)").all(name).map((c) => c.name);
}

/** Creates the table and any missing columns: scenario tables grow with the data written to them. */
export function ensureTable(name: string, columns: string[]) {
  const table = quoteIdent(name, "table");
  if (BOT_TABLES.has(name)) throw new Error("table " + name + " belongs to the bot; bot_table nodes do not write it");
  scenarioDb().exec("CREATE TABLE IF NOT EXISTS " + table + " (id INTEGER PRIMARY KEY AUTOINCREMENT, created_at TEXT NOT NULL DEFAULT (datetime('now')))");
  const have = new Set(columnsOf(name));
  for (const c of columns) if (!have.has(c)) scenarioDb().exec("ALTER TABLE " + table + " ADD COLUMN " + quoteIdent(c, "column"));
}

/** Rows of a scenario table as a variable: {table.orders} (set_variable lookup reads it too). */
export function tableRows(name: string): Row[] | undefined {
  if (!IDENT.test(name) || !tableExists(name)) return undefined;
  return scenarioDb().query<Row, []>("SELECT * FROM " + quoteIdent(name, "table") + " ORDER BY id LIMIT " + ROW_LIMIT).all();
}

export function whereSql(turn: Turn, where: TableOpNode["where"]): { sql: string; params: string[] } {
  const parts: string[] = [];
  const params: string[] = [];
  for (const w of where) {
    const col = quoteIdent(w.column, "column");
    const value = render(turn, w.value);
    switch (w.op) {
      case "not_equals": parts.push("coalesce(" + col + ", '') <> ?"); params.push(value); break;
      case "greater_than": parts.push("CAST(" + col + " AS REAL) > CAST(? AS REAL)"); params.push(value); break;
      case "less_than": parts.push("CAST(" + col + " AS REAL) < CAST(? AS REAL)"); params.push(value); break;
      case "contains": parts.push("instr(lower(coalesce(" + col + ", '')), lower(?)) > 0"); params.push(value); break;
      case "is_empty": parts.push("coalesce(" + col + ", '') = ''"); break;
      case "is_not_empty": parts.push("coalesce(" + col + ", '') <> ''"); break;
      default: parts.push("coalesce(" + col + ", '') = ?"); params.push(value);
    }
  }
  return { sql: parts.length > 0 ? " WHERE " + parts.join(" AND ") : "", params };
}

export function readRows(turn: Turn, node: TableOpNode): Row[] {
  const w = whereSql(turn, node.where);
  const cols = node.columns.length > 0 ? node.columns.map((c) => quoteIdent(c, "column")).join(", ") : "*";
  const order = node.orderBy ? " ORDER BY CAST(" + quoteIdent(node.orderBy, "column") + " AS REAL) " + (node.desc ? "DESC" : "ASC") + ", id" : " ORDER BY id";
  const limit = Math.min(node.limit > 0 ? node.limit : ROW_LIMIT, ROW_LIMIT);
  const sql = "SELECT " + cols + " FROM " + quoteIdent(node.table, "table") + w.sql + order + " LIMIT " + limit + " OFFSET " + Math.max(0, node.offset);
  return scenarioDb().query<Row, string[]>(sql).all(...w.params);
}

export function renderedRow(turn: Turn, row: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(row)) out[k] = render(turn, v);
  return out;
}

export function insertRow(node: TableOpNode, values: Record<string, string>): number {
  const cols = Object.keys(values);
  ensureTable(node.table, cols);
  const table = quoteIdent(node.table, "table");
  if (cols.length === 0) return Number(scenarioDb().query("INSERT INTO " + table + " DEFAULT VALUES").run().lastInsertRowid);
  const sql = "INSERT INTO " + table + " (" + cols.map((c) => quoteIdent(c, "column")).join(", ") + ") VALUES (" + cols.map(() => "?").join(", ") + ")";
  return Number(scenarioDb().query<unknown, string[]>(sql).run(...cols.map((c) => values[c])).lastInsertRowid);
}

/** update: set / increment / decrement / min / max per column, on the rows the conditions pick. */
export function updateRows(turn: Turn, node: TableOpNode): number {
  ensureTable(node.table, node.updates.map((u) => u.column));
  const sets: string[] = [];
  const params: string[] = [];
  for (const u of node.updates) {
    const col = quoteIdent(u.column, "column");
    const value = render(turn, u.value);
    if (u.op === "increment") sets.push(col + " = coalesce(CAST(" + col + " AS REAL), 0) + CAST(? AS REAL)");
    else if (u.op === "decrement") sets.push(col + " = coalesce(CAST(" + col + " AS REAL), 0) - CAST(? AS REAL)");
    else if (u.op === "min" || u.op === "max") sets.push(col + " = " + u.op + "(coalesce(CAST(" + col + " AS REAL), CAST(? AS REAL)), CAST(? AS REAL))");
    else sets.push(col + " = ?");
    params.push(value);
    if (u.op === "min" || u.op === "max") params.push(value);
  }
  if (sets.length === 0) return 0;
  const w = whereSql(turn, node.where);
  return scenarioDb().query<unknown, string[]>("UPDATE " + quoteIdent(node.table, "table") + " SET " + sets.join(", ") + w.sql).run(...params, ...w.params).changes;
}

export function upsertRow(turn: Turn, node: TableOpNode, values: Record<string, string>): number | undefined {
  const key = node.key && Object.hasOwn(values, node.key) ? node.key : undefined;
  ensureTable(node.table, Object.keys(values));
  const existing = key
    ? scenarioDb().query<Row, [string]>("SELECT * FROM " + quoteIdent(node.table, "table") + " WHERE coalesce(" + quoteIdent(key, "column") + ", '') = ? LIMIT 1").get(values[key]) ?? undefined
    : undefined;
  if (!existing) return insertRow(node, values);
  if (node.onConflict === "ignore") return Number(existing.id);
  const changed = Object.entries(values).filter(([, v]) => node.onConflict !== "merge" || v !== "");
  if (changed.length > 0) {
    const sql = "UPDATE " + quoteIdent(node.table, "table") + " SET " + changed.map(([c]) => quoteIdent(c, "column") + " = ?").join(", ") + " WHERE id = ?";
    scenarioDb().query<unknown, (string | number)[]>(sql).run(...changed.map(([, v]) => v), Number(existing.id));
  }
  return Number(existing.id);
}

export function saveRows(turn: Turn, node: TableOpNode, rows: Row[]) {
  if (!node.saveTo) return;
  const vars = turn.state.vars;
  switch (node.format) {
    case "all_rows": vars[node.saveTo] = rows; break;
    case "count": vars[node.saveTo] = rows.length; break;
    case "scalar": vars[node.saveTo] = rows[0] ? Object.values(rows[0])[0] ?? "" : ""; break;
    case "random_row": vars[node.saveTo] = rows.length > 0 ? rows[Math.floor(Math.random() * rows.length)] : {}; break;
    default: vars[node.saveTo] = rows[0] ?? {};
  }
}

export function runTable(turn: Turn, node: TableOpNode): string | undefined {
  try {
    const vars = turn.state.vars;
    const exists = tableExists(node.table);
    quoteIdent(node.table, "table");
    switch (node.op) {
      case "read":
        saveRows(turn, node, exists ? readRows(turn, node) : []);
        break;
      case "count":
      case "sum":
      case "avg":
      case "min":
      case "max":
      case "distinct": {
        const w = whereSql(turn, node.where);
        const col = node.op === "count" ? "*" : quoteIdent(node.aggregate ?? "", "aggregateColumn");
        const expr = node.op === "count" ? "count(*)" : node.op === "distinct" ? "json_group_array(DISTINCT " + col + ")" : node.op + "(CAST(" + col + " AS REAL))";
        const row = exists ? scenarioDb().query<{ v: unknown }, string[]>("SELECT " + expr + " AS v FROM " + quoteIdent(node.table, "table") + w.sql).get(...w.params) : undefined;
        const value = node.op === "distinct" ? parseJson<unknown[]>(toText(row?.v), []) : row?.v ?? 0;
        if (node.saveTo) vars[node.saveTo] = value === null ? 0 : value;
        break;
      }
      case "insert": {
        const id = insertRow(node, renderedRow(turn, node.row));
        if (node.returnId && node.saveTo) vars[node.saveTo + "_id"] = String(id);
        break;
      }
      case "upsert": {
        const id = upsertRow(turn, node, renderedRow(turn, node.row));
        if (node.returnId && node.saveTo) vars[node.saveTo + "_id"] = String(id ?? "");
        break;
      }
      case "update": {
        const changed = updateRows(turn, node);
        if (node.saveTo) vars[node.saveTo] = changed;
        break;
      }
      case "delete":
      case "delete_all": {
        if (BOT_TABLES.has(node.table)) throw new Error("table " + node.table + " belongs to the bot; bot_table nodes do not write it");
        if (!exists) break;
        const w = node.op === "delete_all" ? { sql: "", params: [] } : whereSql(turn, node.where);
        if (node.op === "delete" && w.sql === "") throw new Error("delete without conditions; use delete_all to empty the table");
        const changed = scenarioDb().query<unknown, string[]>("DELETE FROM " + quoteIdent(node.table, "table") + w.sql).run(...w.params).changes;
        if (node.saveTo) vars[node.saveTo] = changed;
        break;
      }
    }
    log(turn, "bot_table " + node.id + ": " + node.op + " on " + node.table);
  } catch (err) {
    nodeError(turn, node, "bot_table " + node.op + " on " + JSON.stringify(node.table) + " failed: " + (err instanceof Error ? err.message : String(err)));
  }
  return node.next;
}

/** {name} in scenario SQL becomes a bound parameter (quotes around it go too): values never become SQL. */
export function boundSql(turn: Turn, query: string): { text: string; params: (string | number | null)[] } {
  const params: (string | number | null)[] = [];
  const text = query.replace(/'?\{([\p{L}\p{N}_][\p{L}\p{N}_.\-]*)\}'?/gu, (_, name: string) => {
    const v = readVar(turn, name);
    params.push(typeof v === "number" ? v : v === undefined || v === null ? null : toText(v));
    return "?";
  });
  return { text, params };
}

/** Saves a statement's rows (or its count) as the node's result format says. */
export function saveSqlResult(turn: Turn, node: SqlNode, rows: Row[], count: number) {
  if (!node.saveTo) return;
  const vars = turn.state.vars;
  if (node.format === "affected") vars[node.saveTo] = count;
  else if (node.format === "first_row") vars[node.saveTo] = rows[0] ?? {};
  else if (node.format === "text") vars[node.saveTo] = rows.map((r) => node.template!.replace(PLACEHOLDER, (_, k: string) => toText(Object.hasOwn(r, k) ? r[k] : readVar(turn, k)))).join("\n");
  else vars[node.saveTo] = rows;
}

/** A failed statement: {sql_error} says why, and the flow takes the node's error exit when it has one. */
export function sqlFailed(turn: Turn, node: SqlNode, err: unknown): string | undefined {
  const reason = err instanceof Error ? err.message : String(err);
  turn.state.vars.sql_error = reason;
  nodeError(turn, node, "psql_query failed: " + reason);
  return node.error ?? node.next;
}

export function runSql(turn: Turn, node: SqlNode): string | undefined | Promise<string | undefined> {
  if (node.pg) return runExternalSql(turn, node);
  try {
    const { text, params } = boundSql(turn, node.query);
    const statement = scenarioDb().query<Row, (string | number | null)[]>(guardCompiledScenarioSql(scenarioDb(), guardScenarioSql(text)));
    if (node.format === "affected") saveSqlResult(turn, node, [], statement.run(...params).changes);
    else {
      const rows = statement.all(...params).slice(0, ROW_LIMIT);
      saveSqlResult(turn, node, rows, rows.length);
    }
    delete turn.state.vars.sql_error;
    log(turn, "psql_query " + node.id + " ran");
  } catch (err) {
    return sqlFailed(turn, node, err);
  }
  return node.next;
}

/** psql_query on the node's external PostgreSQL (pg.ts). */
export async function runExternalSql(turn: Turn, node: SqlNode): Promise<string | undefined> {
  try {
    const { rows, count } = await pgRun(turn, node);
    saveSqlResult(turn, node, rows.slice(0, ROW_LIMIT), count);
    delete turn.state.vars.sql_error;
    log(turn, "psql_query " + node.id + " ran on PostgreSQL: " + count + " rows");
  } catch (err) {
    return sqlFailed(turn, node, err);
  }
  return node.next;
}
