// Runtime source: psql_query on an external PostgreSQL through Bun's built-in client (Bun.SQL). The
// connection string comes from a secret env variable of the token; the server's address passes the
// egress policy like an http_request's; each statement passes pg-guard.ts and runs with a
// statement timeout. (Part of every generated bot; see types.ts.) docs/nodes/data.md.
import { egressCheck } from "./egress";
import { EGRESS, SECRET_ENV } from "./http";
import type { SqlNode } from "./logic-tables";
import { guardPgSql } from "./pg-guard";
import { env } from "./storage";
import type { Turn } from "./types";
import { readVar, toText } from "./values";

// ─── External PostgreSQL ───────────────────────────────────────────────────────

/** Connections one bot keeps open per database at most; idle ones close after PG_IDLE_SECONDS. */
export const PG_POOL_SIZE = 4;
export const PG_IDLE_SECONDS = 30;

/** One pool per env variable and checked address: a changed variable or DNS answer gets a new one. */
export const pgPools = new Map<string, InstanceType<typeof Bun.SQL>>();

/** A stopping bot lets go of its connections (a runner goes on hosting other bots). */
export function closePgPools() {
  for (const pool of pgPools.values()) void pool.close({ timeout: 0 }).catch(() => undefined);
  pgPools.clear();
}

/** Where a connection string points, for log lines: never its user or password. */
export function pgWhere(url: URL): string {
  return url.host + url.pathname;
}

/** The connection string of a node: a secret env variable's value, read as a postgres:// URL. */
export function pgUrl(node: SqlNode): URL {
  const name = node.pg?.env ?? "";
  if (!name) throw new Error("no connectionEnvVar names the connection string");
  if (!SECRET_ENV.has(name)) {
    throw new Error(env[name] === undefined
      ? "the env variable " + name + " is not set for this bot (a preview has no env variables)"
      : "the env variable " + name + " is not marked secret; a connection string must be");
  }
  let url: URL;
  try {
    url = new URL(env[name] ?? "");
  } catch {
    throw new Error("the env variable " + name + " does not hold a postgres:// connection string");
  }
  if (url.protocol !== "postgres:" && url.protocol !== "postgresql:") throw new Error("the env variable " + name + " does not hold a postgres:// connection string");
  if (!url.hostname) throw new Error("the connection string in " + name + " names no host (sockets are not used)");
  return url;
}

/** The pool for a node; the server's address is checked by the egress policy before anything connects. */
export async function pgPool(node: SqlNode, url: URL): Promise<{ pool: InstanceType<typeof Bun.SQL>; key: string }> {
  const port = Number(url.port) || 5432;
  const host = url.hostname;
  const { address } = await egressCheck(EGRESS, new URL("http://" + host + ":" + port + "/"));
  const key = node.pg!.env + " " + address + ":" + port;
  const existing = pgPools.get(key);
  if (existing) return { pool: existing, key };
  const sslmode = url.searchParams.get("sslmode") ?? "disable";
  const named = host.replace(/^\[|\]$/g, "");
  const tls = sslmode === "disable" || sslmode === "allow" || sslmode === "prefer"
    ? false
    : { serverName: named, rejectUnauthorized: sslmode === "verify-ca" || sslmode === "verify-full" };
  // Built from parts, never from the string itself: its host/socket parameters cannot take the
  // connection around the checked address.
  const pool = new Bun.SQL({
    adapter: "postgres",
    hostname: address.replace(/^\[|\]$/g, ""),
    port,
    username: decodeURIComponent(url.username),
    password: decodeURIComponent(url.password),
    database: decodeURIComponent(url.pathname.replace(/^\//, "")) || decodeURIComponent(url.username),
    tls,
    max: PG_POOL_SIZE,
    idleTimeout: PG_IDLE_SECONDS,
    connectionTimeout: node.pg!.timeoutSeconds,
    // what the guard reads '…' as, and the server's own limit on one statement
    connection: { statement_timeout: node.pg!.timeoutSeconds * 1000, standard_conforming_strings: "on", application_name: "botloom" },
  });
  pgPools.set(key, pool);
  return { pool, key };
}

/** {name} in scenario SQL becomes $1, $2… (quotes around it go too): values never become SQL. */
export function pgBound(turn: Turn, query: string): { text: string; params: (string | number | null)[] } {
  const params: (string | number | null)[] = [];
  const text = query.replace(/'?\{([\p{L}\p{N}_][\p{L}\p{N}_.\-]*)\}'?/gu, (_, name: string) => {
    const v = readVar(turn, name);
    params.push(typeof v === "number" ? v : v === undefined || v === null ? null : toText(v));
    return "$" + params.length;
  });
  return { text, params };
}

/**
 * Runs the node's statement; answers its rows and the count the server reports. A failure of any
 * kind throws with a reason naming the server (host/database) and the server's own words, never the password.
 */
export async function pgRun(turn: Turn, node: SqlNode): Promise<{ rows: Record<string, unknown>[]; count: number }> {
  const { text, params } = pgBound(turn, node.query);
  guardPgSql(text);
  const url = pgUrl(node);
  const where = pgWhere(url);
  let key = "";
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const got = await pgPool(node, url);
    key = got.key;
    // the server's statement_timeout ends a slow statement; this ends a server that went silent
    const limit = (node.pg!.timeoutSeconds + 2) * 1000;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error("no answer within " + node.pg!.timeoutSeconds + " s")), limit);
    });
    const result = (await Promise.race([got.pool.unsafe(text, params), timeout])) as Record<string, unknown>[] & { count?: number };
    return { rows: [...result], count: typeof result.count === "number" ? result.count : result.length };
  } catch (err) {
    // a broken pool is not kept: the next turn connects afresh (a restarted server, a new address)
    const pool = key ? pgPools.get(key) : undefined;
    if (pool && String((err as { code?: unknown } | null)?.code ?? "") !== "ERR_POSTGRES_SERVER_ERROR") {
      pgPools.delete(key);
      void pool.close({ timeout: 0 }).catch(() => undefined);
    }
    const code = String((err as { code?: unknown } | null)?.code ?? "");
    const reason = err instanceof Error ? err.message : String(err);
    // Bun's own words for a failed connection are short ("Failed to connect"): its code says which
    throw new Error("PostgreSQL at " + where + ": " + reason + (code.startsWith("ERR_POSTGRES_CONNECTION") ? " (" + code.slice("ERR_POSTGRES_".length).toLowerCase().replace(/_/g, " ") + ")" : ""));
  } finally {
    clearTimeout(timer);
  }
}
