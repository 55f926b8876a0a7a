// The server's connections to the scenario tables files (docs/tables.md): one kept per file and
// thread, the most recently used last, with what it knows of the file (its tables, their row
// counts, their page marks) for as long as no other connection commits (PRAGMA data_version).
import { Database } from "bun:sqlite";
import { statSync } from "node:fs";
import { closeNow } from "../../../lib/shared-runtime";
import type { TableInfo } from "./schema";

/** Connections kept open, most recently used last (each is three file descriptors). */
const MAX_OPEN = 16;
/** A bot's write transaction is short; longer than this and the answer is a 503, not a hang. */
export const BUSY_MS = 5000;
/**
 * Pages are read from the file mapped in memory, not copied by a read() each: stepping over the
 * rows before a page jumped to, or counting a table, is then several times faster (docs/tables.md
 * "Reading: paging, sort, search, counts"). Files larger than this are mapped for their first part.
 */
const MMAP_BYTES = 1 << 30;

/** `_id`s every MARK_STEP rows from each end of a table: where a page jumped to starts reading. */
export interface Marks {
  /** head[i]: the `_id` at ascending position i × MARK_STEP */
  head: (number | bigint)[];
  /** tail[i]: the `_id` at descending position i × MARK_STEP */
  tail: (number | bigint)[];
}

export interface Kept {
  d: Database;
  ino: number;
  /** PRAGMA data_version when the counts and marks were taken */
  version: number;
  /** PRAGMA schema_version when the tables were described */
  schema: number;
  tables: Map<string, TableInfo> | null;
  counts: Map<string, number>;
  marks: Map<string, Marks>;
}
const open_ = new Map<string, Kept>();

export const quote = (name: string) => '"' + name.replaceAll('"', '""') + '"';

/** A connection that never creates the file (only a bot does, with its size caps) nor runs the schema's functions. */
export function openFile(path: string, readonly: boolean): Database {
  const d = readonly ? new Database(path, { readonly: true, strict: true }) : new Database(path, { readwrite: true, create: false, strict: true });
  d.exec("PRAGMA busy_timeout = " + BUSY_MS);
  // Functions with side effects never run from the schema (a scenario wrote it).
  d.exec("PRAGMA trusted_schema = OFF");
  d.exec("PRAGMA mmap_size = " + MMAP_BYTES);
  return d;
}

function close(path: string) {
  const open = open_.get(path);
  if (open) closeNow(open.d);
  open_.delete(path);
}

/**
 * The kept connection to a tables file, or null when the file does not exist (a project whose
 * scenario never made a table). A file made anew at the same path (the project was deleted) is
 * another file: its inode tells. Inside a read transaction the versions are those of its snapshot.
 */
export function conn(path: string): Kept | null {
  const ino = statSync(path, { throwIfNoEntry: false })?.ino;
  const kept = open_.get(path);
  if (kept && kept.ino !== ino) close(path);
  if (ino === undefined) return null;
  let c = open_.get(path);
  open_.delete(path);
  c ??= { d: openFile(path, false), ino, version: Number.NaN, schema: Number.NaN, tables: null, counts: new Map(), marks: new Map() };
  open_.set(path, c);
  while (open_.size > MAX_OPEN) close(open_.keys().next().value!);
  // data_version moves when another connection (a bot) commits: counts and marks are then taken again.
  const version = c.d.query<{ data_version: number }, []>("PRAGMA data_version").get()!.data_version;
  const schema = c.d.query<{ schema_version: number }, []>("PRAGMA schema_version").get()!.schema_version;
  if (version !== c.version || schema !== c.schema) {
    c.counts.clear();
    c.marks.clear();
  }
  if (schema !== c.schema) c.tables = null;
  c.schema = schema;
  c.version = version;
  return c;
}

export function db(path: string): Database {
  const c = conn(path);
  if (!c) throw new Error("the tables file is gone");
  return c.d;
}

/**
 * Runs `read` in one read transaction of the kept connection: its count, its marks and its rows
 * come from one snapshot of the file, whatever a bot commits meanwhile.
 */
export function inSnapshot<T>(path: string, read: () => T): T {
  const c = conn(path);
  if (!c || c.d.inTransaction) return read();
  c.d.exec("BEGIN");
  try {
    // the snapshot starts here; the versions read now are its own
    conn(path);
    return read();
  } finally {
    // a read ends its transaction; the connection is closed only when its file was replaced meanwhile
    if (open_.get(path) === c) c.d.exec("COMMIT");
  }
}

/** After this connection's own write: data_version moves only for other connections' commits. */
export function forget(path: string, table: string) {
  open_.get(path)?.counts.delete(table);
  open_.get(path)?.marks.delete(table);
}

/** Closes every kept connection (tests, a deleted project). */
export function closeTablesFiles() {
  for (const path of [...open_.keys()]) close(path);
}
