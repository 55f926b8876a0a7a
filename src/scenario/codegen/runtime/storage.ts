// Runtime source, part 2: environment, database, per-chat state and the bot user record.
// (Part of every generated bot; see types.ts.)
import { Database } from "bun:sqlite";
import { OPTIONS, PROJECT_DB_DDL } from "./program-data";
import { CONNECTION_CACHE_KIB, lazyStatements } from "./connection";
import { capPages } from "./scenario-file";
import type { ChatState, NodeRef, Sender, Turn, Vars } from "./types";

// ─── Environment (the only source of the token and settings) ─────────────────

export const env = process.env;
export const BOT_TOKEN = env.BOT_TOKEN ?? "";
export const API_ROOT = env.MESSENGER_API_ROOT || "https://api.telegram.org";
export const ADMIN_IDS = new Set((env.ADMIN_IDS ?? "").split(",").map((s) => s.trim()).filter(Boolean));
export const PROJECT_ID = Number(env.PROJECT_ID) || 0;
export const TOKEN_ID = Number(env.TOKEN_ID) || 0;
export const LAUNCH_MODE = env.LAUNCH_MODE === "webhook" ? "webhook" : "polling";
export const PORT = Number(env.PORT) || 0;
export const WEBHOOK_SECRET = env.WEBHOOK_SECRET || undefined;

if (!BOT_TOKEN) {
  console.error("BOT_TOKEN is not set: nothing to run.");
  process.exit(1);
}

// ─── Database (optional: without DATABASE_PATH everything stays in memory) ────
// DATABASE_PATH is the project's own file: this bot's users, chat state and media file ids.

/**
 * The largest the project's file may grow through this bot (BOTLOOM_DB_MAX_MB, 1 GiB by default; a
 * token env variable cannot set BOTLOOM_* names). The disk is shared with every other project and
 * the platform, and one psql_query INSERT of a recursive query writes as much as it asks for. The
 * cap is this connection's max_page_count: scenario SQL may not run PRAGMA, so it cannot lift it.
 */
export const DB_MAX_MB = Number(env.BOTLOOM_DB_MAX_MB) > 0 ? Number(env.BOTLOOM_DB_MAX_MB) : 1024;

export const db = openDatabase(env.DATABASE_PATH);

export function openDatabase(path: string | undefined): Database | null {
  if (!path) return null;
  const d = new Database(path, { create: true });
  d.exec("PRAGMA busy_timeout = 5000");
  d.exec("PRAGMA journal_mode = WAL");
  // In WAL mode NORMAL loses no commit when the bot is killed (only on a power loss), and spares the
  // fsync of every chat's state and every wait: FULL made 10,000 due waits take a minute.
  d.exec("PRAGMA synchronous = NORMAL");
  capPages(d, "main", DB_MAX_MB);
  d.exec("PRAGMA cache_size = -" + CONNECTION_CACHE_KIB);
  for (const ddl of PROJECT_DB_DDL) d.exec(ddl);
  d.exec("PRAGMA shrink_memory");
  return d;
}

export const sql = db && lazyStatements({
  loadState: () => db!.prepare<{ variables: string; waiting: string | null }, [number, string]>(
    "SELECT variables, waiting FROM bot_state WHERE token_id = ? AND chat_id = ?",
  ),
  saveState: () => db!.prepare<unknown, [number, string, string, string | null, string]>(
    "INSERT INTO bot_state (token_id, chat_id, variables, waiting, updated_at) VALUES (?, ?, ?, ?, ?) " +
      "ON CONFLICT (token_id, chat_id) DO UPDATE SET variables = excluded.variables, " +
      "waiting = excluded.waiting, updated_at = excluded.updated_at",
  ),
  touchUser: () => db!.prepare<unknown, [number, string, string, string | null, string | null, string | null, string, string, string]>(
    "INSERT INTO bot_users (token_id, user_id, first_name, last_name, username, language_code, " +
      "first_seen_at, last_seen_at, interaction_count, variables) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 1, ?) " +
      "ON CONFLICT (token_id, user_id) DO UPDATE SET first_name = excluded.first_name, " +
      "last_name = excluded.last_name, username = excluded.username, language_code = excluded.language_code, " +
      "last_seen_at = excluded.last_seen_at, interaction_count = bot_users.interaction_count + 1",
  ),
  userVariables: () => db!.prepare<unknown, [string, number, string]>(
    "UPDATE bot_users SET variables = ? WHERE token_id = ? AND user_id = ?",
  ),
  dropState: () => db!.prepare<unknown, [number, string]>("DELETE FROM bot_state WHERE token_id = ? AND chat_id = ?"),
});

/** Forgets a chat's state, in memory and in the file (its user was deleted on the platform). */
export function dropState(chatId: number) {
  states.delete(chatId);
  sql?.dropState.run(TOKEN_ID, String(chatId));
}

export function parseJson<T>(text: string | null | undefined, fallback: T): T {
  if (!text) return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

// ─── Per-chat state: variables, awaited answer, shown reply keyboard ───────────

export const states = new Map<number, ChatState>();

export function loadState(chatId: number): ChatState {
  let state = states.get(chatId);
  if (state) return state;
  // No prototype: a variable named "__proto__" (scenario data or a stored answer) stays a plain key.
  state = { vars: Object.create(null) as Vars };
  if (sql) {
    const row = sql.loadState.get(TOKEN_ID, String(chatId));
    if (row) {
      state.vars = Object.assign(Object.create(null) as Vars, parseJson<Vars>(row.variables, {}));
      const extra = parseJson<({ input?: NodeRef & { since?: number } } & Omit<ChatState, "vars" | "waiting">) | null>(row.waiting, null);
      state.waiting = extra?.input;
      state.keyboard = extra?.keyboard;
      state.mediaKinds = extra?.mediaKinds;
      state.callbacks = extra?.callbacks;
      state.nextCallback = extra?.nextCallback;
      state.selections = extra?.selections;
      state.lastBot = extra?.lastBot;
      state.ai = extra?.ai;
    }
  }
  states.set(chatId, state);
  return state;
}

/** Writes the chat's state through to the database (variables survive restarts). */
export function saveState(turn: Turn) {
  if (!sql) return;
  const s = turn.state;
  const extra = s.waiting || s.keyboard || s.mediaKinds || s.callbacks || s.selections || s.lastBot || s.ai
    ? JSON.stringify({ input: s.waiting, keyboard: s.keyboard, mediaKinds: s.mediaKinds, callbacks: s.callbacks, nextCallback: s.nextCallback, selections: s.selections, lastBot: s.lastBot, ai: s.ai })
    : null;
  const vars = JSON.stringify(s.vars);
  try {
    sql.saveState.run(TOKEN_ID, String(turn.chatId), vars, extra, new Date().toISOString());
    // The bot user's variables mirror those of the private chat with them.
    if (OPTIONS.userDatabase && turn.from && turn.from.id === turn.chatId) {
      sql.userVariables.run(vars, TOKEN_ID, String(turn.from.id));
    }
  } catch (err) {
    console.error("could not save the state of chat " + turn.chatId + ":", err);
  }
}

/** Records the user who wrote (only when the project keeps a user database). */
export function touchUser(from: Sender | undefined, state: ChatState) {
  if (!sql || !OPTIONS.userDatabase || !from || from.is_bot) return;
  const now = new Date().toISOString();
  try {
    sql.touchUser.run(
      TOKEN_ID, String(from.id), from.first_name, from.last_name ?? null,
      from.username ?? null, from.language_code ?? null, now, now, JSON.stringify(state.vars),
    );
  } catch (err) {
    console.error("could not record user " + from.id + ":", err);
  }
}
