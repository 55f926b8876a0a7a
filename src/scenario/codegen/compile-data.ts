// `bot_table` and `psql_query` nodes (field names of the reference editor). Both work on the
// project's own SQLite database (runtime/sql-guard.ts, checked in the bot); a psql_query that names
// an external connection runs on that PostgreSQL instead (runtime/pg.ts, runtime/pg-guard.ts).
import { CompileContext, num, text, type RawNode } from "./compile-context";
import { varName } from "./compile-control";
import type { SqlNode, TableOpNode } from "./runtime/logic-tables";

const OPS = new Set<TableOpNode["op"]>(["read", "count", "sum", "avg", "min", "max", "distinct", "insert", "upsert", "update", "delete", "delete_all"]);
const FORMATS = new Set<TableOpNode["format"]>(["first_row", "all_rows", "count", "scalar", "random_row"]);
const NAME = /^[\p{L}_][\p{L}\p{N}_]{0,62}$/u;

const str = (v: unknown) => (typeof v === "string" ? v : typeof v === "number" || typeof v === "boolean" ? String(v) : "");

function entries(list: unknown, opKey: "operator" | "op", fallback: string): { column: string; op: string; value: string }[] {
  if (!Array.isArray(list)) return [];
  return list.flatMap((e) => (e && typeof e === "object" && typeof e.column === "string" && e.column.trim() ? [{ column: e.column.trim(), op: str(e[opKey]) || fallback, value: str(e.value) }] : []));
}

export function compileBotTable(node: RawNode, ctx: CompileContext): TableOpNode {
  const d = node.data;
  const table = text(d.tableName)?.trim() ?? "";
  const rawOp = text(d.operation) ?? "read";
  const op = OPS.has(rawOp as TableOpNode["op"]) ? (rawOp as TableOpNode["op"]) : "read";
  if (!OPS.has(rawOp as TableOpNode["op"])) ctx.warn(node, "table.unknownOperation", { operation: rawOp });
  if (!NAME.test(table)) ctx.warn(node, "table.badName");
  const row: Record<string, string> = {};
  if (d.row && typeof d.row === "object" && !Array.isArray(d.row)) {
    for (const [k, v] of Object.entries(d.row)) if (k.trim()) row[k.trim()] = str(v);
  }
  const format = text(d.resultFormat) ?? "first_row";
  const onConflict = d.onConflict === "update" || d.onConflict === "merge" ? d.onConflict : "ignore";
  return {
    t: "table",
    id: node.id,
    table,
    op,
    where: entries(d.where, "operator", "equals"),
    updates: entries(d.updates, "op", "set"),
    row,
    key: text(d.key)?.trim(),
    onConflict,
    saveTo: varName(d.saveResultTo),
    format: FORMATS.has(format as TableOpNode["format"]) ? (format as TableOpNode["format"]) : "first_row",
    columns: Array.isArray(d.returnColumns) ? d.returnColumns.filter((c): c is string => typeof c === "string" && c.trim() !== "") : [],
    orderBy: text(d.orderBy)?.trim(),
    desc: d.orderDirection !== "asc",
    limit: Math.max(0, Math.trunc(num(d.limit) ?? 0)),
    offset: Math.max(0, Math.trunc(num(d.offset) ?? 0)),
    aggregate: text(d.aggregateColumn)?.trim(),
    returnId: d.returnInsertedId === true ? true : undefined,
    next: ctx.target(node, text(d.autoTransitionTo), "autoTransitionTo"),
    adminOnly: d.adminOnly === true ? true : undefined,
  };
}

/** An env variable's name as the platform accepts it (modules/env-vars). */
const ENV_NAME = /^[A-Z][A-Z0-9_]{0,63}$/;

/**
 * The external PostgreSQL of a psql_query: any connectionSource but "builtin" names one, by the
 * token's secret env variable in connectionEnvVar. A connection string written into the scenario
 * (connectionString) is never used: the document is no place for a password.
 */
function externalOf(node: RawNode, ctx: CompileContext): SqlNode["pg"] {
  const d = node.data;
  if (d.connectionSource === undefined || d.connectionSource === "builtin" || d.connectionSource === "") return undefined;
  if (text(d.connectionString)) ctx.warn(node, "sql.connectionStringUnused");
  const name = text(d.connectionEnvVar)?.trim().replace(/^\{(.+)\}$/, "$1") ?? "";
  if (!ENV_NAME.test(name)) ctx.warn(node, "sql.noConnectionEnv");
  return { env: ENV_NAME.test(name) ? name : "", timeoutSeconds: Math.min(Math.max(num(d.queryTimeout) ?? 10, 1), 60) };
}

export function compilePsqlQuery(node: RawNode, ctx: CompileContext): SqlNode {
  const d = node.data;
  const query = text(d.query) ?? "";
  const pg = externalOf(node, ctx);
  // The SQL guard (runtime/sql-guard.ts) runs in the bot: runtime-text.ts embeds that file as text, and
  // a bundle cannot also import it as a module.
  if (query.trim() === "") ctx.warn(node, "sql.noQuery");
  const format = text(d.resultFormat) ?? "json";
  return {
    t: "sql",
    id: node.id,
    query,
    saveTo: varName(d.saveResultTo),
    format: format === "text" || format === "first_row" || format === "affected" ? format : "json",
    template: format === "text" ? str(d.textTemplate) : undefined,
    pg,
    next: ctx.target(node, text(d.autoTransitionTo), "autoTransitionTo"),
    error: ctx.target(node, text(d.errorTransitionTo), "errorTransitionTo"),
    adminOnly: d.adminOnly === true ? true : undefined,
  };
}
