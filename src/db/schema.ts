// The whole product's schema. Timestamps are ISO 8601 strings (UTC); flags are integers 0/1,
// because that is how docs/api.md shows them and SQLite stores them.
import { sql } from "drizzle-orm";
import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

const now = sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`;
const createdAt = () => text("created_at").notNull().default(now);
const updatedAt = () => text("updated_at").notNull().default(now);

/** Platform accounts. id = messenger user id. */
export const users = sqliteTable("users", {
  id: integer("id").primaryKey({ autoIncrement: false }),
  firstName: text("first_name").notNull().default(""),
  lastName: text("last_name"),
  username: text("username"),
  photoUrl: text("photo_url"),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
  /**
   * Lower-cased "first last username" for the admin search. SQLite folds case only for ASCII, so
   * the folding is done in code (toLocaleLowerCase) whenever the names change.
   */
  searchText: text("search_text").notNull().default(""),
});

/** Server-side sessions behind the signed `connect.sid` cookie. `id` is SHA-256 of the cookie's opaque id. */
export const sessions = sqliteTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    userId: integer("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
    expiresAt: text("expires_at").notNull(),
  },
  (t) => [index("sessions_user_idx").on(t.userId)],
);

/** Personal access tokens (`mcp_…`), stored only as SHA-256. scopes: JSON array of strings. */
export const personalAccessTokens = sqliteTable(
  "personal_access_tokens",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id").notNull(),
    name: text("name").notNull(),
    tokenHash: text("token_hash").notNull(),
    scopes: text("scopes").notNull().default("[]"),
    createdAt: createdAt(),
    lastUsedAt: text("last_used_at"),
  },
  (t) => [uniqueIndex("pat_hash_idx").on(t.tokenHash), index("pat_user_idx").on(t.userId)],
);

/** Platform settings, one JSON value per section (`auth`, `messenger`). */
export const appSettings = sqliteTable("app_settings", {
  key: text("key").primaryKey(),
  value: text("value").notNull(),
  updatedAt: updatedAt(),
});

export const projects = sqliteTable(
  "projects",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    ownerId: integer("owner_id").notNull(),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    /** The scenario document, stored as given (JSON text). */
    data: text("data").notNull(),
    /** Cached counts over all sheets so list endpoints never parse `data`. */
    nodeCount: integer("node_count").notNull().default(0),
    sheetsCount: integer("sheets_count").notNull().default(0),
    botToken: text("bot_token"),
    sessionId: text("session_id"),
    userDatabaseEnabled: integer("user_database_enabled").notNull().default(1),
    restartOnUpdate: integer("restart_on_update").notNull().default(0),
    sortOrder: integer("sort_order").notNull().default(0),
    adminIds: text("admin_ids"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("projects_owner_idx").on(t.ownerId)],
);

export const projectCollaborators = sqliteTable(
  "project_collaborators",
  {
    projectId: integer("project_id").notNull().references(() => projects.id, { onDelete: "cascade" }),
    userId: integer("user_id").notNull(),
    invitedBy: integer("invited_by").notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.userId] }), index("collab_user_idx").on(t.userId)],
);

/** Per-user archive flag: a row means "archived for this user". */
export const projectArchives = sqliteTable(
  "project_archives",
  {
    projectId: integer("project_id").notNull().references(() => projects.id, { onDelete: "cascade" }),
    userId: integer("user_id").notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.userId] })],
);

/** Per-user position of a project in that user's list (reorder). */
export const projectOrder = sqliteTable(
  "project_order",
  {
    projectId: integer("project_id").notNull().references(() => projects.id, { onDelete: "cascade" }),
    userId: integer("user_id").notNull(),
    sortOrder: integer("sort_order").notNull(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.userId] })],
);

export const projectVersions = sqliteTable(
  "project_versions",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    projectId: integer("project_id").notNull().references(() => projects.id, { onDelete: "cascade" }),
    data: text("data").notNull(),
    nodesCount: integer("nodes_count").notNull().default(0),
    commitMessage: text("commit_message"),
    authorId: integer("author_id"),
    agentEdit: integer("agent_edit").notNull().default(0),
    agentSessionId: text("agent_session_id"),
    agentDisplayName: text("agent_display_name"),
    createdAt: createdAt(),
  },
  (t) => [index("versions_project_idx").on(t.projectId, t.id)],
);

export const botTokens = sqliteTable(
  "bot_tokens",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    projectId: integer("project_id").notNull().references(() => projects.id, { onDelete: "cascade" }),
    /** The raw bot credential. Never returned by list endpoints, never logged. */
    token: text("token").notNull(),
    name: text("name").notNull(),
    botId: integer("bot_id"),
    botUsername: text("bot_username"),
    botFirstName: text("bot_first_name"),
    photoPath: text("photo_path"),
    photoCheckedAt: text("photo_checked_at"),
    launchMode: text("launch_mode", { enum: ["polling", "webhook"] }).notNull().default("polling"),
    catchAllHandlers: integer("catch_all_handlers").notNull().default(0),
    protectContent: integer("protect_content").notNull().default(0),
    contentCache: integer("content_cache").notNull().default(0),
    /** What the operator asked for; `running` bots are started again on the next server start. */
    desiredState: text("desired_state", { enum: ["running", "stopped"] }).notNull().default("stopped"),
    /** Last known runtime status: stopped | running | error. */
    status: text("status").notNull().default("stopped"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    /** days the bot keeps its chats' messages (docs/dialogs.md); 0 keeps none (last: a migration added it) */
    messageRetentionDays: integer("message_retention_days").notNull().default(30),
    /** the token's one send pace for campaigns and operators (docs/campaigns.md#one-pace-per-token; a migration added it) */
    sendsPerSecond: integer("sends_per_second").notNull().default(25),
  },
  (t) => [index("tokens_project_idx").on(t.projectId), uniqueIndex("tokens_project_token_idx").on(t.projectId, t.token)],
);

export const tokenEnvVars = sqliteTable(
  "token_env_vars",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    tokenId: integer("token_id").notNull().references(() => botTokens.id, { onDelete: "cascade" }),
    key: text("key").notNull(),
    value: text("value").notNull().default(""),
    isSecret: integer("is_secret").notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("env_token_key_idx").on(t.tokenId, t.key)],
);

/**
 * Where older versions kept the users of every bot. Bots now write to their project's own file
 * (project-schema.ts); rows found here at start are moved there (project-migrate.ts), so this table
 * stays empty and only exists for that move.
 */
export const legacyBotUsers = sqliteTable(
  "bot_users",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    projectId: integer("project_id").notNull().references(() => projects.id, { onDelete: "cascade" }),
    tokenId: integer("token_id").notNull().references(() => botTokens.id, { onDelete: "cascade" }),
    userId: text("user_id").notNull(),
    firstName: text("first_name"),
    lastName: text("last_name"),
    username: text("username"),
    languageCode: text("language_code"),
    photoUrl: text("photo_url"),
    firstSeenAt: text("first_seen_at").notNull().default(now),
    lastSeenAt: text("last_seen_at").notNull().default(now),
    interactionCount: integer("interaction_count").notNull().default(0),
    variables: text("variables").notNull().default("{}"),
  },
  (t) => [
    uniqueIndex("bot_users_token_user_idx").on(t.tokenId, t.userId),
    index("bot_users_project_idx").on(t.projectId),
  ],
);

/** Where older versions kept chat state; moved into the project files at start like legacyBotUsers. */
export const legacyBotState = sqliteTable(
  "bot_state",
  {
    tokenId: integer("token_id").notNull().references(() => botTokens.id, { onDelete: "cascade" }),
    chatId: text("chat_id").notNull(),
    variables: text("variables").notNull().default("{}"),
    waiting: text("waiting"),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.tokenId, t.chatId] })],
);

export const botLaunches = sqliteTable(
  "bot_launches",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    projectId: integer("project_id").notNull().references(() => projects.id, { onDelete: "cascade" }),
    tokenId: integer("token_id").notNull(),
    status: text("status").notNull(),
    pid: integer("pid"),
    startedAt: text("started_at").notNull().default(now),
    stoppedAt: text("stopped_at"),
    errorMessage: text("error_message"),
  },
  (t) => [index("launches_project_idx").on(t.projectId, t.startedAt), index("launches_token_idx").on(t.tokenId)],
);

export const botLogs = sqliteTable(
  "bot_logs",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    projectId: integer("project_id").notNull().references(() => projects.id, { onDelete: "cascade" }),
    tokenId: integer("token_id").notNull(),
    level: text("level").notNull(),
    message: text("message").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("logs_project_idx").on(t.projectId, t.id), index("logs_token_idx").on(t.tokenId, t.id)],
);

export const templates = sqliteTable(
  "templates",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    ownerId: integer("owner_id"),
    /** File name of a built-in template (null for user templates); re-seeded when `contentHash` changes. */
    systemKey: text("system_key"),
    contentHash: text("content_hash"),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    data: text("data").notNull(),
    category: text("category").notNull().default("custom"),
    tags: text("tags").notNull().default("[]"),
    isPublic: integer("is_public").notNull().default(0),
    difficulty: text("difficulty").notNull().default("easy"),
    authorName: text("author_name"),
    useCount: integer("use_count").notNull().default(0),
    rating: real("rating").notNull().default(0),
    ratingCount: integer("rating_count").notNull().default(0),
    featured: integer("featured").notNull().default(0),
    language: text("language").notNull().default("ru"),
    complexity: integer("complexity").notNull().default(1),
    estimatedTime: integer("estimated_time").notNull().default(5),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("templates_system_key_idx").on(t.systemKey), index("templates_owner_idx").on(t.ownerId)],
);

export const templateRatings = sqliteTable(
  "template_ratings",
  {
    templateId: integer("template_id").notNull().references(() => templates.id, { onDelete: "cascade" }),
    userId: integer("user_id").notNull(),
    rating: integer("rating").notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.templateId, t.userId] })],
);

export const storageConfigs = sqliteTable("storage_configs", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  backend: text("backend", { enum: ["local", "objstore"] }).notNull(),
  /** Non-secret parameters as JSON. */
  config: text("config").notNull().default("{}"),
  isActive: integer("is_active").notNull().default(0),
  readOnly: integer("read_only").notNull().default(0),
  /** AES-256-GCM sealed JSON of the credential pair; null when none. */
  secrets: text("secrets"),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const mediaFiles = sqliteTable(
  "media_files",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    projectId: integer("project_id").notNull().references(() => projects.id, { onDelete: "cascade" }),
    /** null = the built-in local folder UPLOADS_DIR. */
    storageConfigId: text("storage_config_id"),
    objectKey: text("object_key").notNull(),
    kind: text("kind").notNull(),
    fileName: text("file_name").notNull(),
    mimeType: text("mime_type").notNull(),
    size: integer("size").notNull(),
    /** Older versions' file-id cache; moved at start into the project file's media_file_ids. */
    messengerFileId: text("messenger_file_id"),
    createdAt: createdAt(),
  },
  (t) => [index("media_project_idx").on(t.projectId), index("media_storage_idx").on(t.storageConfigId), uniqueIndex("media_key_idx").on(t.storageConfigId, t.objectKey)],
);

/**
 * Deleted projects awaiting purge (docs/api.md "Trash"). A row hides its project from everyone;
 * the owner may restore it until PROJECT_TRASH_DAYS after `deleted_at`, then it is purged.
 */
export const projectTrash = sqliteTable(
  "project_trash",
  {
    projectId: integer("project_id").primaryKey({ autoIncrement: false }).references(() => projects.id, { onDelete: "cascade" }),
    deletedBy: integer("deleted_by").notNull(),
    deletedAt: text("deleted_at").notNull().default(now),
  },
  (t) => [index("project_trash_deleted_idx").on(t.deletedAt)],
);

/** Login Widget payloads already used (docs/security.md "Login"): each logs in once, kept until it would expire anyway. */
export const usedLoginPayloads = sqliteTable(
  "used_login_payloads",
  {
    hash: text("hash").primaryKey(),
    expiresAt: text("expires_at").notNull(),
  },
  (t) => [index("used_login_expires_idx").on(t.expiresAt)],
);

/**
 * Inbound webhooks (docs/hooks.md): the public id of a webhook_trigger node's URL, so a request
 * finds its project without opening every project, and its secret as SHA-256 (shown once).
 */
export const hooks = sqliteTable(
  "hooks",
  {
    id: text("id").primaryKey(),
    projectId: integer("project_id").notNull().references(() => projects.id, { onDelete: "cascade" }),
    nodeId: text("node_id").notNull(),
    secretHash: text("secret_hash").notNull(),
    createdAt: createdAt(),
    rotatedAt: text("rotated_at"),
  },
  (t) => [uniqueIndex("hooks_project_node_idx").on(t.projectId, t.nodeId)],
);

/**
 * Deliveries of inbound webhooks that carried an `Idempotency-Key` (docs/hooks.md "Retries"): a
 * key seen for a hook within a day runs its flow once, however often the caller sends it again.
 */
export const hookDeliveries = sqliteTable(
  "hook_deliveries",
  {
    hookId: text("hook_id").notNull().references(() => hooks.id, { onDelete: "cascade" }),
    key: text("key").notNull(),
    expiresAt: text("expires_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.hookId, t.key] }), index("hook_deliveries_expires_idx").on(t.expiresAt)],
);
