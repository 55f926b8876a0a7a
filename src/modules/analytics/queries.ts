// SQL of the analytics: reads of the rollups the bot counts in its project's file
// (runtime/analytics.ts, docs/analytics.md). Never a scan of bot_messages nor of the per-user
// rows: each read is a range of one rollup's primary key, rows per hour or per day.
import { and, between, desc, eq, sql } from "drizzle-orm";
import type { ProjectDb } from "../../db/project-db";
import {
  projectAnalyticsActive as active,
  projectAnalyticsEdgeReach as edgeReach,
  projectAnalyticsHours as hours,
  projectAnalyticsNodeReach as nodeReach,
  projectAnalyticsTallies as tallies,
} from "../../db/project-schema";

export interface BucketRow {
  key: string;
  newUsers: number;
  activeUsers: number;
  messagesIn: number;
  messagesOut: number;
  blocked: number;
}

/** Sums of the hours between two hour keys ("YYYY-MM-DDTHH"), per hour or per day (the first 10 characters). */
function hourSums(db: ProjectDb, tokenId: number, fromHour: string, toHour: string, perDay: boolean): BucketRow[] {
  const key = perDay ? sql<string>`substr(${hours.hour}, 1, 10)` : sql<string>`${hours.hour}`;
  return db
    .select({
      key,
      newUsers: sql<number>`sum(${hours.newUsers})`,
      activeUsers: sql<number>`sum(${hours.activeUsers})`,
      messagesIn: sql<number>`sum(${hours.messagesIn})`,
      messagesOut: sql<number>`sum(${hours.messagesOut})`,
      blocked: sql<number>`sum(${hours.blocked})`,
    })
    .from(hours)
    .where(and(eq(hours.tokenId, tokenId), between(hours.hour, fromHour, toHour)))
    .groupBy(key)
    .all();
}

/** Distinct active users per day (a day's are not the sum of its hours'). */
function activeDays(db: ProjectDb, tokenId: number, fromDay: string, toDay: string): { day: string; activeUsers: number }[] {
  return db
    .select({ day: active.day, activeUsers: sql<number>`sum(${active.users})` })
    .from(active)
    .where(and(eq(active.tokenId, tokenId), between(active.day, fromDay, toDay)))
    .groupBy(active.day)
    .all();
}

/** Users counted as new up to an hour key, included. */
function usersUpTo(db: ProjectDb, tokenId: number, toHour: string): number {
  return db.select({ n: sql<number>`coalesce(sum(${hours.newUsers}), 0)` }).from(hours).where(and(eq(hours.tokenId, tokenId), sql`${hours.hour} <= ${toHour}`)).get()?.n ?? 0;
}

/**
 * Distinct users active between two days, by language: a user counts once, on their first active
 * day in the range (the one whose previous active day lies before it; '' sorts before every day).
 */
function activeByLanguage(db: ProjectDb, tokenId: number, fromDay: string, toDay: string): { language: string; users: number }[] {
  return db
    .select({ language: active.language, users: sql<number>`sum(${active.users})` })
    .from(active)
    .where(and(eq(active.tokenId, tokenId), between(active.day, fromDay, toDay), sql`${active.prevDay} < ${fromDay}`))
    .groupBy(active.language)
    .all();
}

/** The largest counts of one kind of tally between two days. */
function topTallies(db: ProjectDb, tokenId: number, kind: "source" | "command" | "button", fromDay: string, toDay: string, limit: number): { name: string; nodeId: string; count: number }[] {
  const total = sql<number>`sum(${tallies.count})`;
  return db
    .select({ name: tallies.name, nodeId: tallies.nodeId, count: total })
    .from(tallies)
    .where(and(eq(tallies.tokenId, tokenId), eq(tallies.kind, kind), between(tallies.day, fromDay, toDay)))
    .groupBy(tallies.name, tallies.nodeId)
    .orderBy(desc(total), tallies.name, tallies.nodeId)
    .limit(limit)
    .all();
}

/** Distinct users and visits per node between two days (first day of each user in the range, as above). */
function nodeCounts(db: ProjectDb, tokenId: number, fromDay: string, toDay: string): { nodeId: string; users: number; visits: number }[] {
  return db
    .select({
      nodeId: nodeReach.nodeId,
      users: sql<number>`sum(CASE WHEN ${nodeReach.prevDay} < ${fromDay} THEN ${nodeReach.users} ELSE 0 END)`,
      visits: sql<number>`sum(${nodeReach.visits})`,
    })
    .from(nodeReach)
    .where(and(eq(nodeReach.tokenId, tokenId), between(nodeReach.day, fromDay, toDay)))
    .groupBy(nodeReach.nodeId)
    .all();
}

/**
 * `read`'s reads in one snapshot of the file: the bot commits its counts meanwhile, and reads apart
 * could fall on either side of a commit (a transition from a node the funnel does not list, more
 * users than the series' new users add up to). Deferred: a read takes no lock, so a bot's write
 * never waits for it (db/drizzle.ts makes transactions IMMEDIATE otherwise).
 */
function inOneSnapshot<T>(db: ProjectDb, read: () => T): T {
  return db.transaction(read, { behavior: "deferred" });
}

/** What the summary (`/analytics`) reads: the hours' sums and every count beside them, in one snapshot. */
export function summaryCounts(db: ProjectDb, tokenId: number, r: { fromHour: string; toHour: string; fromDay: string; toDay: string; perDay: boolean }, top: number) {
  return inOneSnapshot(db, () => ({
    sums: hourSums(db, tokenId, r.fromHour, r.toHour, r.perDay),
    active: r.perDay ? activeDays(db, tokenId, r.fromDay, r.toDay) : [],
    users: usersUpTo(db, tokenId, r.toHour),
    languages: activeByLanguage(db, tokenId, r.fromDay, r.toDay),
    source: topTallies(db, tokenId, "source", r.fromDay, r.toDay, top),
    command: topTallies(db, tokenId, "command", r.fromDay, r.toDay, top),
    button: topTallies(db, tokenId, "button", r.fromDay, r.toDay, top),
  }));
}

/** The funnel's nodes and transitions, in one snapshot. */
export function funnelCounts(db: ProjectDb, tokenId: number, fromDay: string, toDay: string) {
  return inOneSnapshot(db, () => ({ nodes: nodeCounts(db, tokenId, fromDay, toDay), edges: edgeCounts(db, tokenId, fromDay, toDay) }));
}

/** Distinct users per transition between two days. */
function edgeCounts(db: ProjectDb, tokenId: number, fromDay: string, toDay: string): { from: string; to: string; users: number }[] {
  return db
    .select({ from: edgeReach.fromNode, to: edgeReach.toNode, users: sql<number>`sum(${edgeReach.users})` })
    .from(edgeReach)
    .where(and(eq(edgeReach.tokenId, tokenId), between(edgeReach.day, fromDay, toDay), sql`${edgeReach.prevDay} < ${fromDay}`))
    .groupBy(edgeReach.fromNode, edgeReach.toNode)
    .all();
}
