// The per-project database file DATA_DIR/projects/<projectId>.db (docs/architecture.md#database-and-migrations): the tables a
// bot process writes (its users, chat state, file ids of media it sent) and the project's content
// mirror it reads for contentCache. The platform never hands a bot its own database; it reads
// these files for the bot-users and stats endpoints. PROJECT_DB_DDL is also written into every
// generated program, so a bot run outside the platform creates the same tables.
import { integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

export const PROJECT_DB_DDL: readonly string[] = [
  "CREATE TABLE IF NOT EXISTS bot_users (id INTEGER PRIMARY KEY AUTOINCREMENT, token_id INTEGER NOT NULL, " +
    "user_id TEXT NOT NULL, first_name TEXT, last_name TEXT, username TEXT, language_code TEXT, photo_url TEXT, " +
    "first_seen_at TEXT NOT NULL, last_seen_at TEXT NOT NULL, interaction_count INTEGER NOT NULL DEFAULT 0, " +
    "variables TEXT NOT NULL DEFAULT '{}')",
  "CREATE UNIQUE INDEX IF NOT EXISTS bot_users_token_user_idx ON bot_users (token_id, user_id)",
  "CREATE TABLE IF NOT EXISTS bot_state (token_id INTEGER NOT NULL, chat_id TEXT NOT NULL, " +
    "variables TEXT NOT NULL DEFAULT '{}', waiting TEXT, updated_at TEXT NOT NULL, PRIMARY KEY (token_id, chat_id))",
  "CREATE TABLE IF NOT EXISTS media_file_ids (token_id INTEGER NOT NULL, media_url TEXT NOT NULL, " +
    "file_id TEXT NOT NULL, PRIMARY KEY (token_id, media_url))",
  "CREATE TABLE IF NOT EXISTS project_content (id INTEGER PRIMARY KEY CHECK (id = 1), data TEXT NOT NULL, " +
    "updated_at TEXT NOT NULL)",
];

export const projectBotUsers = sqliteTable(
  "bot_users",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    tokenId: integer("token_id").notNull(),
    userId: text("user_id").notNull(),
    firstName: text("first_name"),
    lastName: text("last_name"),
    username: text("username"),
    languageCode: text("language_code"),
    photoUrl: text("photo_url"),
    firstSeenAt: text("first_seen_at").notNull(),
    lastSeenAt: text("last_seen_at").notNull(),
    interactionCount: integer("interaction_count").notNull().default(0),
    variables: text("variables").notNull().default("{}"),
  },
  (t) => [uniqueIndex("bot_users_token_user_idx").on(t.tokenId, t.userId)],
);

export const projectBotState = sqliteTable(
  "bot_state",
  {
    tokenId: integer("token_id").notNull(),
    chatId: text("chat_id").notNull(),
    variables: text("variables").notNull().default("{}"),
    waiting: text("waiting"),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.tokenId, t.chatId] })],
);

/** File ids the messenger gave a token's bot for media it uploaded, keyed by the media's public URL. */
export const projectMediaFileIds = sqliteTable(
  "media_file_ids",
  {
    tokenId: integer("token_id").notNull(),
    mediaUrl: text("media_url").notNull(),
    fileId: text("file_id").notNull(),
  },
  (t) => [primaryKey({ columns: [t.tokenId, t.mediaUrl] })],
);

/** One row: the project's scenario as the platform last saved it (contentCache bots poll updated_at). */
export const projectContent = sqliteTable("project_content", {
  id: integer("id").primaryKey(),
  data: text("data").notNull(),
  updatedAt: text("updated_at").notNull(),
});

export const projectSchema = { projectBotUsers, projectBotState, projectMediaFileIds, projectContent };
