// A preview bot's own database (its bot_state table, written by the generated program): the
// preview chat reads and edits a chat's variables here. Opened per call and closed again, so the
// file can be deleted as soon as the preview ends.
import { Database } from "bun:sqlite";
import { existsSync } from "node:fs";
import { schemaIsSound } from "./project-schema-check";

function withDb<T>(path: string, readonly: boolean, use: (d: Database) => T): T | null {
  if (!existsSync(path)) return null;
  const d = new Database(path, readonly ? { readonly: true } : {});
  try {
    d.exec("PRAGMA busy_timeout = 2000");
    d.exec("PRAGMA trusted_schema = OFF");
    // A file whose schema is not exactly Botloom's (a generated column on bot_state, a trigger)
    // would run that code here, in the server: it counts as no database (project-schema-check.ts).
    return schemaIsSound(d) ? use(d) : null;
  } finally {
    d.close();
  }
}

/** The chat's variables, or {} when the bot has not stored any yet. */
export function readChatVariables(path: string, chatId: number): Record<string, unknown> {
  const row = withDb(path, true, (d) =>
    d.query<{ variables: string }, [string]>("SELECT variables FROM bot_state WHERE token_id = 0 AND chat_id = ?").get(String(chatId)),
  );
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
  const done = withDb(path, false, (d) => {
    d.query(
      "INSERT INTO bot_state (token_id, chat_id, variables, waiting, updated_at) VALUES (0, ?, ?, NULL, ?) " +
        "ON CONFLICT (token_id, chat_id) DO UPDATE SET variables = excluded.variables, updated_at = excluded.updated_at",
    ).run(String(chatId), JSON.stringify(vars), new Date().toISOString());
    return true;
  });
  return done === true;
}
