// The drizzle tables the code queries through and the tables SQLite really has must agree column
// for column: the project file's tables are created from PROJECT_DB_DDL (also written into every
// generated program), the platform's from the embedded migrations. Both are described a second
// time as drizzle tables; a column renamed, retyped, made nullable or given another default on
// one side only would otherwise surface as a failing query in production.
import { describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { is, SQL } from "drizzle-orm";
import { getTableConfig, SQLiteSyncDialect, SQLiteTable } from "drizzle-orm/sqlite-core";
import { openDatabase } from "../../src/db/client";
import { PROJECT_DB_DDL, projectSchema } from "../../src/db/project-schema";
import * as platformSchema from "../../src/db/schema";

const dialect = new SQLiteSyncDialect();

interface Shape {
  columns: { name: string; type: string; notNull: boolean; default: string | null }[];
  primaryKey: string[];
  autoIncrement: boolean;
  indexes: { name: string | null; unique: boolean; columns: string[] }[];
  foreignKeys: { columns: string[]; table: string; to: string[]; onDelete: string }[];
}

/** `(expr)` and `expr` are the same default: SQLite keeps the parentheses of the DDL it was given. */
const bare = (text: string | null) => (text !== null && /^\(.*\)$/s.test(text) ? text.slice(1, -1) : text);

function sqlText(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  if (is(value, SQL)) return bare(dialect.sqlToQuery(value).sql);
  if (typeof value === "string") return `'${value.replaceAll("'", "''")}'`;
  return String(value);
}

const byName = <T extends { name: string | null; columns: string[] }>(a: T, b: T) => `${a.name}:${a.columns}`.localeCompare(`${b.name}:${b.columns}`);

/** What the drizzle table says. Column-level `.unique()` is an unnamed unique index, like SQLite's autoindex. */
function declared(table: SQLiteTable): Shape {
  const t = getTableConfig(table);
  const composite = t.primaryKeys[0]?.columns.map((c) => c.name);
  const primaryKey = composite ?? t.columns.filter((c) => c.primary).map((c) => c.name);
  const rowid = primaryKey.length === 1 && t.columns.find((c) => c.name === primaryKey[0])!.getSQLType() === "integer";
  return {
    columns: t.columns.map((c) => ({
      name: c.name,
      type: c.getSQLType().toUpperCase(),
      // An INTEGER PRIMARY KEY is the rowid: never null, however it is declared.
      notNull: c.notNull || (rowid && c.name === primaryKey[0]),
      default: sqlText(c.default),
    })),
    primaryKey,
    autoIncrement: t.columns.some((c) => (c as { autoIncrement?: boolean }).autoIncrement === true),
    indexes: [
      ...t.indexes.map((i) => ({ name: i.config.name, unique: i.config.unique === true, columns: i.config.columns.map((c) => (c as { name: string }).name) })),
      ...t.uniqueConstraints.map((u) => ({ name: null, unique: true, columns: u.columns.map((c) => c.name) })),
      ...t.columns.filter((c) => c.isUnique).map((c) => ({ name: null, unique: true, columns: [c.name] })),
    ].sort(byName),
    foreignKeys: t.foreignKeys
      .map((f) => {
        const r = f.reference();
        return { columns: r.columns.map((c) => c.name), table: getTableConfig(r.foreignTable).name, to: r.foreignColumns.map((c) => c.name), onDelete: (f.onDelete ?? "no action").toUpperCase() };
      })
      .sort((a, b) => `${a.columns}`.localeCompare(`${b.columns}`)),
  };
}

/** What the database file has. */
function actual(db: Database, table: string): Shape {
  const cols = db.query<{ name: string; type: string; notnull: number; dflt_value: string | null; pk: number }, []>(`PRAGMA table_xinfo("${table}")`).all();
  const primaryKey = cols.filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk).map((c) => c.name);
  const rowid = primaryKey.length === 1 && cols.find((c) => c.name === primaryKey[0])!.type.toUpperCase() === "INTEGER";
  const ddl = db.query<{ sql: string }, [string]>("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?").get(table)!.sql;
  const indexes = db
    .query<{ name: string; unique: number; origin: string }, []>(`PRAGMA index_list("${table}")`)
    .all()
    .filter((i) => i.origin !== "pk")
    .map((i) => ({
      name: i.origin === "u" ? null : i.name,
      unique: i.unique === 1,
      columns: db.query<{ name: string; seqno: number }, []>(`PRAGMA index_info("${i.name}")`).all().sort((a, b) => a.seqno - b.seqno).map((c) => c.name),
    }))
    .sort(byName);
  const fks = new Map<number, Shape["foreignKeys"][number]>();
  for (const f of db.query<{ id: number; seq: number; table: string; from: string; to: string; on_delete: string }, []>(`PRAGMA foreign_key_list("${table}")`).all().sort((a, b) => a.seq - b.seq)) {
    const fk = fks.get(f.id) ?? { columns: [], table: f.table, to: [], onDelete: f.on_delete.toUpperCase() };
    fk.columns.push(f.from);
    fk.to.push(f.to);
    fks.set(f.id, fk);
  }
  return {
    columns: cols.map((c) => ({ name: c.name, type: c.type.toUpperCase(), notNull: c.notnull === 1 || (rowid && c.name === primaryKey[0]), default: bare(c.dflt_value) })),
    primaryKey,
    autoIncrement: /\bAUTOINCREMENT\b/i.test(ddl),
    indexes,
    foreignKeys: [...fks.values()].sort((a, b) => `${a.columns}`.localeCompare(`${b.columns}`)),
  };
}

function tablesOf(module: Record<string, unknown>): SQLiteTable[] {
  return Object.values(module).filter((v): v is SQLiteTable => is(v, SQLiteTable));
}

function userTables(db: Database): string[] {
  return db
    .query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '__drizzle%' ORDER BY name")
    .all()
    .map((r) => r.name);
}

function expectSameTables(db: Database, tables: SQLiteTable[]) {
  expect(tables.map((t) => getTableConfig(t).name).sort()).toEqual(userTables(db));
  for (const table of tables) {
    const name = getTableConfig(table).name;
    expect({ table: name, ...actual(db, name) }).toEqual({ table: name, ...declared(table) });
  }
}

describe("drizzle tables match the real tables column for column", () => {
  test("a project file (PROJECT_DB_DDL) and projectSchema", () => {
    const db = new Database(":memory:");
    for (const ddl of PROJECT_DB_DDL) db.exec(ddl);
    const tables = tablesOf(projectSchema);
    expect(tables.length).toBe(24); // bot_users, bot_state, media_file_ids, project_content, the message store (bot_messages, bot_message_details, bot_chats, bot_people: docs/dialogs.md), bot_waits, bot_payments, eight analytics rollups and the backfill marker (docs/analytics.md), campaigns, campaign_recipients, campaign_album_messages and campaign_time_zones (docs/campaigns.md), send_pace
    expectSameTables(db, tables);
    db.close();
  });

  test("the platform database (embedded migrations) and schema.ts", () => {
    const db = openDatabase(":memory:");
    const tables = tablesOf(platformSchema);
    expect(tables.length).toBeGreaterThan(10);
    expectSameTables(db.$client, tables);
    db.$client.close();
  });

  test("the comparison sees a difference in a type, a null rule, a default, a key or an index", () => {
    const base =
      "CREATE TABLE media_file_ids (token_id INTEGER NOT NULL, media_url TEXT NOT NULL, file_id TEXT NOT NULL, PRIMARY KEY (token_id, media_url))";
    const variants = [
      base.replace("file_id TEXT", "file_id INTEGER"),
      base.replace("file_id TEXT NOT NULL", "file_id TEXT"),
      base.replace("file_id TEXT NOT NULL", "file_id TEXT NOT NULL DEFAULT ''"),
      base.replace("PRIMARY KEY (token_id, media_url)", "PRIMARY KEY (media_url, token_id)"),
      base.replace("file_id TEXT NOT NULL", "file_id TEXT NOT NULL UNIQUE"),
      base.replace("file_id TEXT", "file TEXT"),
    ];
    const want = declared(projectSchema.projectMediaFileIds);
    const check = (ddl: string) => {
      const db = new Database(":memory:");
      db.exec(ddl);
      const got = actual(db, "media_file_ids");
      db.close();
      return Bun.deepEquals(got, want);
    };
    expect(check(base)).toBe(true);
    expect(variants.map(check)).toEqual(variants.map(() => false));
  });
});
