// The analytics rollups of a project's file (docs/analytics.md), as drizzle tables: what
// PROJECT_DB_DDL (project-schema.ts) creates for them, held equal by test/foundation/schema-match.test.ts.
import { integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";

/** Per token and hour (docs/analytics.md): new and active users, messages in and out, users who blocked the bot. */
export const projectAnalyticsHours = sqliteTable(
  "analytics_hours",
  {
    tokenId: integer("token_id").notNull(),
    hour: text("hour").notNull(),
    newUsers: integer("new_users").notNull().default(0),
    activeUsers: integer("active_users").notNull().default(0),
    messagesIn: integer("messages_in").notNull().default(0),
    messagesOut: integer("messages_out").notNull().default(0),
    blocked: integer("blocked").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.tokenId, t.hour] })],
);

/** Per token and day, counts by name: `source` (new users by deep link), `command`, `button` (with its node). */
export const projectAnalyticsTallies = sqliteTable(
  "analytics_tallies",
  {
    tokenId: integer("token_id").notNull(),
    day: text("day").notNull(),
    kind: text("kind").$type<"source" | "command" | "button">().notNull(),
    name: text("name").notNull(),
    nodeId: text("node_id").notNull().default(""),
    count: integer("count").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.tokenId, t.kind, t.day, t.name, t.nodeId] })],
);

/** A user's latest two days of activity, each with the day before it (the bot's write side). */
export const projectAnalyticsUserDays = sqliteTable(
  "analytics_user_days",
  {
    tokenId: integer("token_id").notNull(),
    userId: text("user_id").notNull(),
    day: text("day").notNull(),
    prevDay: text("prev_day"),
    lastHour: text("last_hour").notNull(),
    activeHours: integer("active_hours").notNull().default(1),
  },
  (t) => [primaryKey({ columns: [t.tokenId, t.userId, t.day] })],
);

/** Users active on a day, by their previous active day ('' for none) and language: distinct users of any range. */
export const projectAnalyticsActive = sqliteTable(
  "analytics_active",
  {
    tokenId: integer("token_id").notNull(),
    day: text("day").notNull(),
    prevDay: text("prev_day").notNull(),
    language: text("language").notNull(),
    users: integer("users").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.tokenId, t.day, t.prevDay, t.language] })],
);

/** The latest two days a user reached a node, each with the day before it. */
export const projectAnalyticsNodeDays = sqliteTable(
  "analytics_node_days",
  {
    tokenId: integer("token_id").notNull(),
    nodeId: text("node_id").notNull(),
    userId: text("user_id").notNull(),
    day: text("day").notNull(),
    prevDay: text("prev_day"),
  },
  (t) => [primaryKey({ columns: [t.tokenId, t.userId, t.nodeId, t.day] })],
);

/** Users who reached a node on a day, by their previous day there ('' for none), and the day's visits. */
export const projectAnalyticsNodeReach = sqliteTable(
  "analytics_node_reach",
  {
    tokenId: integer("token_id").notNull(),
    day: text("day").notNull(),
    nodeId: text("node_id").notNull(),
    prevDay: text("prev_day").notNull(),
    users: integer("users").notNull().default(0),
    visits: integer("visits").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.tokenId, t.day, t.nodeId, t.prevDay] })],
);

/** The latest two days a user followed a transition (from → to), each with the day before it. */
export const projectAnalyticsEdgeDays = sqliteTable(
  "analytics_edge_days",
  {
    tokenId: integer("token_id").notNull(),
    fromNode: text("from_node").notNull(),
    toNode: text("to_node").notNull(),
    userId: text("user_id").notNull(),
    day: text("day").notNull(),
    prevDay: text("prev_day"),
  },
  (t) => [primaryKey({ columns: [t.tokenId, t.userId, t.fromNode, t.toNode, t.day] })],
);

/** Users who followed a transition on a day, by their previous day on it ('' for none). */
export const projectAnalyticsEdgeReach = sqliteTable(
  "analytics_edge_reach",
  {
    tokenId: integer("token_id").notNull(),
    day: text("day").notNull(),
    fromNode: text("from_node").notNull(),
    toNode: text("to_node").notNull(),
    prevDay: text("prev_day").notNull(),
    users: integer("users").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.tokenId, t.day, t.fromNode, t.toNode, t.prevDay] })],
);

/**
 * The one-time backfill of new users recorded before counting began (docs/analytics.md
 * "Backfill"): the moment counting began, how far the bot has come (`cursor`), and whether it is done.
 */
export const projectAnalyticsBackfill = sqliteTable("analytics_backfill", {
  tokenId: integer("token_id").primaryKey(),
  before: text("before").notNull(),
  cursor: text("cursor").notNull().default(""),
  done: integer("done").notNull().default(0),
});

/** The analytics rollups (docs/analytics.md): a deleted token's go with its other rows. */
export const projectAnalyticsTables = [
  projectAnalyticsBackfill,
  projectAnalyticsHours,
  projectAnalyticsTallies,
  projectAnalyticsUserDays,
  projectAnalyticsActive,
  projectAnalyticsNodeDays,
  projectAnalyticsNodeReach,
  projectAnalyticsEdgeDays,
  projectAnalyticsEdgeReach,
] as const;
