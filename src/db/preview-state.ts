// A preview bot's own database (its bot_state table, written by the generated program): the
// preview chat reads and edits a chat's variables here. Reads go through a few kept read-only
// connections (the Studio polls the variables); the schema is checked again whenever the file's
// schema cookie moved. Writes open the file per call. A kept connection never stops the preview's
// folder from being deleted; the next read of a path whose file is gone or new closes it.
import { Database } from "bun:sqlite";
import { existsSync, statSync } from "node:fs";
import { schemaIsSound } from "./project-schema-check";
import { closeNow } from "../lib/shared-runtime";

/** Read-only connections kept, most recently used last (a preview per user, a few users at once). */
const MAX_READERS = 16;
const readers = new Map<string, { d: Database; ino: number; schemaVersion: number }>();

function opened(path: string, readonly: boolean): Database {
  const d = new Database(path, readonly ? { readonly: true } : {});
  d.exec("PRAGMA busy_timeout = 2000");
  d.exec("PRAGMA trusted_schema = OFF");
  return d;
}

const schemaVersion = (d: Database) => d.query<{ schema_version: number }, []>("PRAGMA schema_version").get()?.schema_version ?? -1;

function forget(path: string) {
  const r = readers.get(path);
  if (r) closeNow(r.d);
  readers.delete(path);
}

/**
 * A kept read-only connection to the file, or null when it is missing or its schema is not exactly
 * Botloom's: a generated column on bot_state or a trigger would run its code here, in the server
 * (project-schema-check.ts).
 */
function reader(path: string): Database | null {
  const ino = statSync(path, { throwIfNoEntry: false })?.ino;
  // A file made anew at the same path (the preview restarted its bot) is another file.
  if (ino === undefined || readers.get(path)?.ino !== ino) forget(path);
  if (ino === undefined) return null;
  let r = readers.get(path);
  readers.delete(path);
  if (!r) r = { d: opened(path, true), ino, schemaVersion: Number.NaN };
  readers.set(path, r);
  while (readers.size > MAX_READERS) forget(readers.keys().next().value!);
  const version = schemaVersion(r.d);
  if (version !== r.schemaVersion) {
    if (!schemaIsSound(r.d)) return null;
    r.schemaVersion = version;
  }
  return r.d;
}

function withWriter<T>(path: string, use: (d: Database) => T): T | null {
  if (!existsSync(path)) return null;
  const d = opened(path, false);
  try {
    return schemaIsSound(d) ? use(d) : null;
  } finally {
    closeNow(d);
  }
}

/** The chat's variables, or {} when the bot has not stored any yet. */
export function readChatVariables(path: string, chatId: number): Record<string, unknown> {
  const row = reader(path)?.query<{ variables: string }, [string]>("SELECT variables FROM bot_state WHERE token_id = 0 AND chat_id = ?").get(String(chatId));
  if (!row) return {};
  try {
    const v = JSON.parse(row.variables);
    return v && typeof v === "object" && !Array.isArray(v) ? v : {};
  } catch {
    return {};
  }
}

/** Replaces the chat's variables, keeping what the bot waits for. False when the bot has no database yet. */
export function writeChatVariables(path: string, chatId: number, vars: Record<string, unknown>): boolean {
  const done = withWriter(path, (d) => {
    d.query(
      "INSERT INTO bot_state (token_id, chat_id, variables, waiting, updated_at) VALUES (0, ?, ?, NULL, ?) " +
        "ON CONFLICT (token_id, chat_id) DO UPDATE SET variables = excluded.variables, updated_at = excluded.updated_at",
    ).run(String(chatId), JSON.stringify(vars), new Date().toISOString());
    return true;
  });
  return done === true;
}
