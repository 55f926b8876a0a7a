// The file scenario SQL runs on (psql_query, bot_table): the project's tables sit in a file of
// their own beside the bot's file (DATABASE_PATH, which holds bot_users, bot_state, ...). The
// connection that runs scenario SQL has its own file as `main` and the bot's file attached
// read-only as `bot`, so SQLite itself refuses every write, DROP or CREATE there: no scenario can
// replace a table the bot or the platform reads (docs/security.md, "Project files").
// Part of every generated program (runtime-text.ts embeds it from the first "// ─── " line on,
// without `export`; docs/runtime.md); the imports above that line are for the type checker only.
import { Database } from "bun:sqlite";
import { CONNECTION_CACHE_KIB, inTransaction, readOnce } from "./connection";

// ─── Scenario tables: a file of their own ──────────────────────────────────────

/** Where a project's scenario tables live: <id>.db → <id>-tables.db (backed up with it). */
export function scenarioTablesPath(databasePath: string): string {
  return databasePath.replace(/(\.db)?$/, "-tables.db");
}

/**
 * The most TEMP tables may hold (MiB). SQLite keeps them in a file of its own that the cap of the
 * tables file does not cover: CREATE TEMP TABLE ... randomblob(...) wrote 1.1 GB to disk.
 */
const SCENARIO_TEMP_MAX_MB = 64;

/** Caps the file (`schema`) of a connection at `mb` MiB: its max_page_count, which scenario SQL cannot lift (no PRAGMA). */
export function capPages(d: Database, schema: "main" | "temp", mb: number) {
  const pageSize = readOnce<{ page_size: number }>(d, "PRAGMA " + schema + ".page_size")[0]?.page_size ?? 4096;
  d.exec("PRAGMA " + schema + ".max_page_count = " + Math.max(1, Math.floor((mb * 1024 * 1024) / pageSize)));
}

/** A file: URI that opens `path` read-only (URI filenames are on for the scenario connection only). */
function readOnlyUri(path: string): string {
  const escaped = path.replace(/[%?#]/g, (c) => "%" + c.charCodeAt(0).toString(16).toUpperCase());
  return (escaped.startsWith("/") ? "file://" : "file:") + escaped + "?mode=ro";
}

/**
 * The connection scenario SQL runs on. Without DATABASE_PATH everything stays in memory. The
 * tables file is capped at `maxMb`, TEMP at SCENARIO_TEMP_MAX_MB (scenario SQL may not run PRAGMA,
 * so it cannot lift either cap); the bot's file is attached read-only as `bot`, so `bot_users`
 * still reads (SQLite looks a name up in main, temp, then attached files) but never writes.
 * `systemDdl` makes the bot's file: tables it does not name are a scenario's, from older versions.
 */
export function openScenarioDatabase(databasePath: string | undefined, maxMb: number, system: Database | null, systemDdl: readonly string[]): Database {
  if (!databasePath) {
    const memory = new Database(":memory:");
    capPages(memory, "temp", SCENARIO_TEMP_MAX_MB);
    return memory;
  }
  // SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_URI (the read-only attachment is a URI).
  const d = new Database(scenarioTablesPath(databasePath), 0x02 | 0x04 | 0x40);
  d.exec("PRAGMA busy_timeout = 5000");
  d.exec("PRAGMA journal_mode = WAL");
  capPages(d, "main", maxMb);
  capPages(d, "temp", SCENARIO_TEMP_MAX_MB);
  d.exec("PRAGMA main.cache_size = -" + CONNECTION_CACHE_KIB);
  if (system) {
    readOnce(d, "ATTACH ? AS bot", readOnlyUri(databasePath));
    d.exec("PRAGMA bot.cache_size = -" + CONNECTION_CACHE_KIB);
    moveLegacyTables(system, d, systemDdl);
  }
  d.exec("PRAGMA shrink_memory");
  return d;
}

/** Tables of the bot's file that its DDL does not name: a scenario's, from older versions. */
function legacyTables(system: Database, systemDdl: readonly string[]): string[] {
  const own = new Set(systemDdl.map((ddl) => /^CREATE TABLE IF NOT EXISTS (\w+)/.exec(ddl)?.[1]));
  return readOnce<{ name: string }>(system, "SELECT name FROM pragma_table_list WHERE schema = 'main' AND type IN ('table', 'virtual') AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'")
    .map((t) => t.name)
    .filter((name) => !own.has(name));
}

/** Whether the bot's file still holds scenario tables of older versions (opening the scenario connection moves them). */
export function hasLegacyTables(system: Database, systemDdl: readonly string[]): boolean {
  return legacyTables(system, systemDdl).length > 0;
}

const quoteName = (name: string) => '"' + name.replaceAll('"', '""') + '"';

/**
 * Older versions ran scenario SQL on the bot's file itself: its tables (rows and indexes) move
 * here once. A bot of another token of the project may be moving them at the same moment: the
 * copy is one IMMEDIATE transaction that skips a table already here, and the drop comes after.
 */
function moveLegacyTables(system: Database, d: Database, systemDdl: readonly string[]) {
  const legacy = legacyTables(system, systemDdl);
  if (legacy.length === 0) return;
  inTransaction(d, () => {
    for (const name of legacy) {
      if (readOnce(d, "SELECT 1 FROM main.sqlite_master WHERE name = ?", name).length > 0) continue;
      const created = readOnce<{ sql: string | null }>(d, "SELECT sql FROM bot.sqlite_master WHERE type = 'table' AND name = ?", name)[0];
      if (!created?.sql) continue;
      d.exec(created.sql);
      // Generated and hidden columns compute themselves.
      const columns = readOnce<{ name: string }>(d, "SELECT name FROM pragma_table_xinfo(?, 'bot') WHERE hidden = 0", name)
        .map((c) => quoteName(c.name))
        .join(", ");
      if (columns) d.exec("INSERT INTO main." + quoteName(name) + " (" + columns + ") SELECT " + columns + " FROM bot." + quoteName(name));
      const indexes = readOnce<{ sql: string }>(d, "SELECT sql FROM bot.sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL", name);
      for (const index of indexes) d.exec(index.sql);
    }
  });
  for (const name of legacy) system.exec("DROP TABLE IF EXISTS main." + quoteName(name));
}
