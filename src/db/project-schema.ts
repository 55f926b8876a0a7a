// The per-project database file DATA_DIR/projects/<projectId>.db (docs/architecture.md#database-and-migrations): the tables a
// bot process writes (its users, chat state, file ids of media it sent) and the project's content
// mirror it reads for contentCache. The platform never hands a bot its own database; it reads
// these files for the bot-users and stats endpoints. PROJECT_DB_DDL is also written into every
// generated program, so a bot run outside the platform creates the same tables.
import { sql } from "drizzle-orm";
import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { projectAnalyticsActive, projectAnalyticsBackfill, projectAnalyticsEdgeDays, projectAnalyticsEdgeReach, projectAnalyticsHours, projectAnalyticsNodeDays, projectAnalyticsNodeReach, projectAnalyticsTallies, projectAnalyticsUserDays } from "./project-analytics-schema";

export * from "./project-analytics-schema";

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
  "CREATE TABLE IF NOT EXISTS bot_waits (id INTEGER PRIMARY KEY AUTOINCREMENT, token_id INTEGER NOT NULL, " +
    "chat_id TEXT NOT NULL, node TEXT NOT NULL, due_at INTEGER NOT NULL, turn TEXT NOT NULL DEFAULT '{}')",
  "CREATE INDEX IF NOT EXISTS bot_waits_due_idx ON bot_waits (token_id, due_at)",
  // The message store and the people of a bot (docs/dialogs.md): new tables, never new columns of
  // the ones above, so a file an older version wrote gains them by these statements alone.
  "CREATE TABLE IF NOT EXISTS bot_messages (id INTEGER PRIMARY KEY AUTOINCREMENT, token_id INTEGER NOT NULL, " +
    "chat_id TEXT NOT NULL, direction TEXT NOT NULL, sent_by TEXT NOT NULL, operator_id INTEGER, kind TEXT NOT NULL, " +
    "text TEXT NOT NULL DEFAULT '', buttons TEXT, callback_data TEXT, node_id TEXT, messenger_message_id INTEGER, " +
    "created_at TEXT NOT NULL, edited_at TEXT, deleted_at TEXT)",
  "CREATE INDEX IF NOT EXISTS bot_messages_chat_idx ON bot_messages (token_id, chat_id, id)",
  "CREATE INDEX IF NOT EXISTS bot_messages_mid_idx ON bot_messages (token_id, chat_id, messenger_message_id)",
  "CREATE INDEX IF NOT EXISTS bot_messages_age_idx ON bot_messages (token_id, created_at)",
  "CREATE TABLE IF NOT EXISTS bot_chats (token_id INTEGER NOT NULL, chat_id TEXT NOT NULL, kind TEXT NOT NULL DEFAULT 'private', " +
    "title TEXT, user_id TEXT, first_name TEXT, username TEXT, last_message_at TEXT, last_message_text TEXT, " +
    "unread INTEGER NOT NULL DEFAULT 0, takeover INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (token_id, chat_id))",
  // chat_id too: the list's order (newest first, then chat id) is read off the index, paging included
  "CREATE INDEX IF NOT EXISTS bot_chats_recent_idx ON bot_chats (token_id, last_message_at, chat_id)",
  // the unread and takeover filters count and page only the chats they name
  "CREATE INDEX IF NOT EXISTS bot_chats_unread_idx ON bot_chats (token_id, last_message_at, chat_id) WHERE unread > 0",
  "CREATE INDEX IF NOT EXISTS bot_chats_takeover_idx ON bot_chats (token_id, last_message_at, chat_id) WHERE takeover = 1",
  "CREATE TABLE IF NOT EXISTS bot_people (token_id INTEGER NOT NULL, user_id TEXT NOT NULL, is_premium INTEGER NOT NULL DEFAULT 0, " +
    "language_code TEXT, source TEXT, referrer_id TEXT, tags TEXT NOT NULL DEFAULT '[]', first_seen_at TEXT NOT NULL, " +
    "last_seen_at TEXT NOT NULL, messages_in INTEGER NOT NULL DEFAULT 0, messages_out INTEGER NOT NULL DEFAULT 0, " +
    "blocked INTEGER NOT NULL DEFAULT 0, blocked_at TEXT, PRIMARY KEY (token_id, user_id))",
  // Analytics rollups (docs/analytics.md), counted in the bot's record batch. Hours are
  // "YYYY-MM-DDTHH", days "YYYY-MM-DD" (UTC). A *_days table holds a user's latest two days (the
  // write side: is this user new to this day, and which day did they last come); the matching
  // reach table counts those rows per day and previous day ('' for none), so the distinct users
  // of any range of days are the reach rows in it whose previous day lies before it. The write
  // side's keys begin with the user: one user's rows of a walk share a page of the batch.
  "CREATE TABLE IF NOT EXISTS analytics_hours (token_id INTEGER NOT NULL, hour TEXT NOT NULL, new_users INTEGER NOT NULL DEFAULT 0, " +
    "active_users INTEGER NOT NULL DEFAULT 0, messages_in INTEGER NOT NULL DEFAULT 0, messages_out INTEGER NOT NULL DEFAULT 0, " +
    "blocked INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (token_id, hour))",
  "CREATE TABLE IF NOT EXISTS analytics_tallies (token_id INTEGER NOT NULL, day TEXT NOT NULL, kind TEXT NOT NULL, name TEXT NOT NULL, " +
    "node_id TEXT NOT NULL DEFAULT '', count INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (token_id, kind, day, name, node_id))",
  "CREATE TABLE IF NOT EXISTS analytics_user_days (token_id INTEGER NOT NULL, user_id TEXT NOT NULL, day TEXT NOT NULL, prev_day TEXT, " +
    "last_hour TEXT NOT NULL, active_hours INTEGER NOT NULL DEFAULT 1, PRIMARY KEY (token_id, user_id, day))",
  "CREATE TABLE IF NOT EXISTS analytics_active (token_id INTEGER NOT NULL, day TEXT NOT NULL, prev_day TEXT NOT NULL, language TEXT NOT NULL, " +
    "users INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (token_id, day, prev_day, language))",
  "CREATE TABLE IF NOT EXISTS analytics_node_days (token_id INTEGER NOT NULL, node_id TEXT NOT NULL, user_id TEXT NOT NULL, day TEXT NOT NULL, " +
    "prev_day TEXT, PRIMARY KEY (token_id, user_id, node_id, day))",
  "CREATE TABLE IF NOT EXISTS analytics_node_reach (token_id INTEGER NOT NULL, day TEXT NOT NULL, node_id TEXT NOT NULL, prev_day TEXT NOT NULL, " +
    "users INTEGER NOT NULL DEFAULT 0, visits INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (token_id, day, node_id, prev_day))",
  "CREATE TABLE IF NOT EXISTS analytics_edge_days (token_id INTEGER NOT NULL, from_node TEXT NOT NULL, to_node TEXT NOT NULL, " +
    "user_id TEXT NOT NULL, day TEXT NOT NULL, prev_day TEXT, PRIMARY KEY (token_id, user_id, from_node, to_node, day))",
  "CREATE TABLE IF NOT EXISTS analytics_edge_reach (token_id INTEGER NOT NULL, day TEXT NOT NULL, from_node TEXT NOT NULL, to_node TEXT NOT NULL, " +
    "prev_day TEXT NOT NULL, users INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (token_id, day, from_node, to_node, prev_day))",
  "CREATE TABLE IF NOT EXISTS analytics_backfill (token_id INTEGER PRIMARY KEY, before TEXT NOT NULL, cursor TEXT NOT NULL DEFAULT '', " +
    "done INTEGER NOT NULL DEFAULT 0)",
  // Campaigns (docs/campaigns.md): the platform's sender and a bot's broadcast node write them.
  "CREATE TABLE IF NOT EXISTS campaigns (id INTEGER PRIMARY KEY AUTOINCREMENT, token_id INTEGER NOT NULL, name TEXT NOT NULL, " +
    "status TEXT NOT NULL, message TEXT NOT NULL, audience TEXT NOT NULL DEFAULT '{}', audience_size INTEGER, scheduled_at TEXT, " +
    "started_at TEXT, finished_at TEXT, sent_deleted_at TEXT, created_by INTEGER, created_at TEXT NOT NULL, " +
    "source TEXT NOT NULL DEFAULT 'api', node_id TEXT)",
  "CREATE INDEX IF NOT EXISTS campaigns_token_idx ON campaigns (token_id, id)",
  // the sender's start-up finds campaigns to resume or schedule without reading finished ones
  "CREATE INDEX IF NOT EXISTS campaigns_status_idx ON campaigns (status)",
  "CREATE TABLE IF NOT EXISTS campaign_recipients (id INTEGER PRIMARY KEY AUTOINCREMENT, campaign_id INTEGER NOT NULL, " +
    "user_id TEXT NOT NULL, status TEXT NOT NULL DEFAULT 'pending', error TEXT, messenger_message_id INTEGER, sent_at TEXT, " +
    "deleted_at TEXT)",
  "CREATE UNIQUE INDEX IF NOT EXISTS campaign_recipients_user_idx ON campaign_recipients (campaign_id, user_id)",
  // paging by status and "next pending" (in id order), and the counts, off one index
  "CREATE INDEX IF NOT EXISTS campaign_recipients_status_idx ON campaign_recipients (campaign_id, status, id)",
  // an album's messages after the first (the recipient row holds the first): delete-sent deletes them all
  "CREATE TABLE IF NOT EXISTS campaign_album_messages (recipient_id INTEGER NOT NULL, messenger_message_id INTEGER NOT NULL, " +
    "PRIMARY KEY (recipient_id, messenger_message_id))",
  // the IANA zone a campaign's schedule is typed and shown in; none is UTC (a table of its own: no new columns)
  "CREATE TABLE IF NOT EXISTS campaign_time_zones (campaign_id INTEGER PRIMARY KEY, time_zone TEXT NOT NULL)",
  // the token's one send pace, shared by the server and its bot (runtime/pace.ts): when the next send time is free
  "CREATE TABLE IF NOT EXISTS send_pace (token_id INTEGER PRIMARY KEY, next_at REAL NOT NULL, per_second REAL NOT NULL)",
  // How a recorded message is formatted and which file it carries (its id is the bot_messages row's): a table of its own, as
  // the comment above says, so files written before it gain it by this statement.
  "CREATE TABLE IF NOT EXISTS bot_message_details (id INTEGER PRIMARY KEY, token_id INTEGER NOT NULL, format TEXT, entities TEXT, " +
    "file_id TEXT, media_id INTEGER)",
  "CREATE INDEX IF NOT EXISTS bot_message_details_token_idx ON bot_message_details (token_id)",
  // Stars payments (docs/nodes/payments.md): a row per charge, refunded in place.
  "CREATE TABLE IF NOT EXISTS bot_payments (id INTEGER PRIMARY KEY AUTOINCREMENT, token_id INTEGER NOT NULL, " +
    "user_id TEXT NOT NULL, charge_id TEXT NOT NULL, provider_charge_id TEXT, amount INTEGER NOT NULL, currency TEXT NOT NULL, " +
    "payload TEXT NOT NULL, status TEXT NOT NULL DEFAULT 'paid', paid_at TEXT NOT NULL, refunded_at TEXT)",
  "CREATE UNIQUE INDEX IF NOT EXISTS bot_payments_charge_idx ON bot_payments (token_id, charge_id)",
  "CREATE INDEX IF NOT EXISTS bot_payments_user_idx ON bot_payments (token_id, user_id, id)",
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

/** Every message a token's bot received or sent, an operator's included (docs/dialogs.md). */
export const projectBotMessages = sqliteTable(
  "bot_messages",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    tokenId: integer("token_id").notNull(),
    chatId: text("chat_id").notNull(),
    direction: text("direction").$type<"in" | "out">().notNull(),
    sentBy: text("sent_by").$type<"user" | "bot" | "operator" | "campaign">().notNull(),
    operatorId: integer("operator_id"),
    kind: text("kind").notNull(),
    text: text("text").notNull().default(""),
    buttons: text("buttons"),
    callbackData: text("callback_data"),
    nodeId: text("node_id"),
    messengerMessageId: integer("messenger_message_id"),
    createdAt: text("created_at").notNull(),
    editedAt: text("edited_at"),
    deletedAt: text("deleted_at"),
  },
  (t) => [
    index("bot_messages_chat_idx").on(t.tokenId, t.chatId, t.id),
    index("bot_messages_mid_idx").on(t.tokenId, t.chatId, t.messengerMessageId),
    index("bot_messages_age_idx").on(t.tokenId, t.createdAt),
  ],
);

/** One row per chat a token's bot has talked in: the Dialogs list and the operator's takeover. */
export const projectBotChats = sqliteTable(
  "bot_chats",
  {
    tokenId: integer("token_id").notNull(),
    chatId: text("chat_id").notNull(),
    kind: text("kind").notNull().default("private"),
    title: text("title"),
    userId: text("user_id"),
    firstName: text("first_name"),
    username: text("username"),
    lastMessageAt: text("last_message_at"),
    lastMessageText: text("last_message_text"),
    unread: integer("unread").notNull().default(0),
    takeover: integer("takeover").notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.tokenId, t.chatId] }),
    index("bot_chats_recent_idx").on(t.tokenId, t.lastMessageAt, t.chatId),
    index("bot_chats_unread_idx").on(t.tokenId, t.lastMessageAt, t.chatId).where(sql`unread > 0`),
    index("bot_chats_takeover_idx").on(t.tokenId, t.lastMessageAt, t.chatId).where(sql`takeover = 1`),
  ],
);

/** What a bot knows of each person beyond bot_users: premium, deep-link source, tags, counts, blocked. */
export const projectBotPeople = sqliteTable(
  "bot_people",
  {
    tokenId: integer("token_id").notNull(),
    userId: text("user_id").notNull(),
    isPremium: integer("is_premium").notNull().default(0),
    languageCode: text("language_code"),
    source: text("source"),
    referrerId: text("referrer_id"),
    tags: text("tags").notNull().default("[]"),
    firstSeenAt: text("first_seen_at").notNull(),
    lastSeenAt: text("last_seen_at").notNull(),
    messagesIn: integer("messages_in").notNull().default(0),
    messagesOut: integer("messages_out").notNull().default(0),
    blocked: integer("blocked").notNull().default(0),
    blockedAt: text("blocked_at"),
  },
  (t) => [primaryKey({ columns: [t.tokenId, t.userId] })],
);

/**
 * Pending waits of a token's bot (delay nodes): the node to continue at, when (ms since the epoch),
 * and what the continuation needs of its update (docs/nodes/messaging.md, "Waiting").
 */
export const projectBotWaits = sqliteTable(
  "bot_waits",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    tokenId: integer("token_id").notNull(),
    chatId: text("chat_id").notNull(),
    node: text("node").notNull(),
    dueAt: integer("due_at").notNull(),
    turn: text("turn").notNull().default("{}"),
  },
  (t) => [index("bot_waits_due_idx").on(t.tokenId, t.dueAt)],
);

export type CampaignStatus = "draft" | "scheduled" | "sending" | "paused" | "done" | "cancelled";
export type RecipientStatus = "pending" | "sending" | "sent" | "failed";

/** A campaign of a token (docs/campaigns.md): message and audience as JSON, sizes fixed at its start. */
export const projectCampaigns = sqliteTable(
  "campaigns",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    tokenId: integer("token_id").notNull(),
    name: text("name").notNull(),
    status: text("status").$type<CampaignStatus>().notNull(),
    message: text("message").notNull(),
    audience: text("audience").notNull().default("{}"),
    audienceSize: integer("audience_size"),
    scheduledAt: text("scheduled_at"),
    startedAt: text("started_at"),
    finishedAt: text("finished_at"),
    sentDeletedAt: text("sent_deleted_at"),
    createdBy: integer("created_by"),
    createdAt: text("created_at").notNull(),
    source: text("source").$type<"api" | "scenario">().notNull().default("api"),
    nodeId: text("node_id"),
  },
  (t) => [index("campaigns_token_idx").on(t.tokenId, t.id), index("campaigns_status_idx").on(t.status)],
);

/** One row per recipient of a started campaign: `sending` is written before the messenger is called. */
export const projectCampaignRecipients = sqliteTable(
  "campaign_recipients",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    campaignId: integer("campaign_id").notNull(),
    userId: text("user_id").notNull(),
    status: text("status").$type<RecipientStatus>().notNull().default("pending"),
    error: text("error"),
    messengerMessageId: integer("messenger_message_id"),
    sentAt: text("sent_at"),
    deletedAt: text("deleted_at"),
  },
  (t) => [uniqueIndex("campaign_recipients_user_idx").on(t.campaignId, t.userId), index("campaign_recipients_status_idx").on(t.campaignId, t.status, t.id)],
);

/** A campaign album's messages after the first, per recipient (docs/campaigns.md#albums). */
export const projectCampaignAlbumMessages = sqliteTable(
  "campaign_album_messages",
  {
    recipientId: integer("recipient_id").notNull(),
    messengerMessageId: integer("messenger_message_id").notNull(),
  },
  (t) => [primaryKey({ columns: [t.recipientId, t.messengerMessageId] })],
);

/** The time zone of a campaign's schedule (docs/campaigns.md#schedules); a campaign without a row is in UTC. */
export const projectCampaignTimeZones = sqliteTable("campaign_time_zones", {
  campaignId: integer("campaign_id").primaryKey(),
  timeZone: text("time_zone").notNull(),
});

/** The token's send time reserved so far, shared by the server and its bot (docs/campaigns.md#one-pace-per-token). */
export const projectSendPace = sqliteTable("send_pace", {
  tokenId: integer("token_id").primaryKey(),
  /** epoch ms: the first instant no process has reserved */
  nextAt: real("next_at").notNull(),
  perSecond: real("per_second").notNull(),
});

/**
 * The formatting and the file of a recorded message (docs/dialogs.md "What is recorded"): `format` the parse mode
 * it was sent with (html, markdown, markdownv2; its text is then the marked-up text), `entities`
 * the messenger's entities over its plain text (JSON), for messages that carry them.
 */
export const projectBotMessageDetails = sqliteTable(
  "bot_message_details",
  {
    id: integer("id").primaryKey(),
    tokenId: integer("token_id").notNull(),
    format: text("format"),
    entities: text("entities"),
    /** the messenger's file id of the message's media (docs/dialogs.md "Media") */
    fileId: text("file_id"),
    /** the project's media file an operator sent */
    mediaId: integer("media_id"),
  },
  (t) => [index("bot_message_details_token_idx").on(t.tokenId)],
);

/**
 * A Stars payment of a token's bot (docs/nodes/payments.md "Payments on the user's card"): the
 * charge ids Telegram gave, the amount in Stars, the invoice payload; `status` paid or refunded.
 */
export const projectBotPayments = sqliteTable(
  "bot_payments",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    tokenId: integer("token_id").notNull(),
    userId: text("user_id").notNull(),
    chargeId: text("charge_id").notNull(),
    providerChargeId: text("provider_charge_id"),
    amount: integer("amount").notNull(),
    currency: text("currency").notNull(),
    payload: text("payload").notNull(),
    status: text("status").$type<"paid" | "refunded">().notNull().default("paid"),
    paidAt: text("paid_at").notNull(),
    refundedAt: text("refunded_at"),
  },
  (t) => [uniqueIndex("bot_payments_charge_idx").on(t.tokenId, t.chargeId), index("bot_payments_user_idx").on(t.tokenId, t.userId, t.id)],
);

export const projectSchema = { projectBotUsers, projectBotState, projectMediaFileIds, projectContent, projectBotMessages, projectBotChats, projectBotPeople, projectBotWaits,
  projectBotMessageDetails, projectBotPayments, projectAnalyticsHours, projectAnalyticsTallies, projectAnalyticsUserDays, projectAnalyticsActive,
  projectAnalyticsNodeDays, projectAnalyticsNodeReach, projectAnalyticsEdgeDays, projectAnalyticsEdgeReach, projectAnalyticsBackfill, projectCampaigns, projectCampaignRecipients,
  projectCampaignAlbumMessages, projectCampaignTimeZones, projectSendPace };
