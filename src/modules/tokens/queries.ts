// Bot tokens in the platform database, and the per-token counts of users in a project's own file.
import { and, asc, eq, gte, isNotNull, sql, type SQL } from "drizzle-orm";
import type { Db } from "../../db/client";
import type { ProjectDb } from "../../db/project-db";
import { projectBotUsers as botUsers } from "../../db/project-schema";
import { statements } from "../../db/prepared";
import { botTokens } from "../../db/schema";

export type TokenRow = typeof botTokens.$inferSelect;
export type TokenInsert = typeof botTokens.$inferInsert;
export type TokenChanges = Partial<TokenInsert>;

const projectId = sql.placeholder("projectId");

export const tokenStatements = statements((db: Db) => ({
  // Token-scoped endpoints all start here (tokens/access.ts).
  byId: () => db.select().from(botTokens).where(eq(botTokens.id, sql.placeholder("id"))).prepare(),
  list: () => db.select().from(botTokens).where(eq(botTokens.projectId, projectId)).orderBy(asc(botTokens.id)).prepare(),
  /** The project's first token (the lowest id): what a project-level start or export means. */
  first: () => db.select().from(botTokens).where(eq(botTokens.projectId, projectId)).orderBy(asc(botTokens.id)).limit(1).prepare(),
  byValue: () => db
    .select()
    .from(botTokens)
    .where(and(eq(botTokens.projectId, projectId), eq(botTokens.token, sql.placeholder("token"))))
    .prepare(),
  remove: () => db.delete(botTokens).where(eq(botTokens.id, sql.placeholder("id"))).prepare(),
}));

/** The new row, or undefined when the same credential was added meanwhile. */
export function insertToken(db: Db, values: TokenInsert): TokenRow | undefined {
  return db.insert(botTokens).values(values).onConflictDoNothing().returning().get();
}

export function updateToken(db: Db, tokenId: number, set: TokenChanges) {
  db.update(botTokens).set(set).where(eq(botTokens.id, tokenId)).run();
}

/** Rows where `condition` holds (summing a comparison is SQLite's; a CASE is every dialect's). */
const countWhere = (condition: SQL) => sql<number>`coalesce(sum(case when ${condition} then 1 else 0 end), 0)`;

export const botUserCountStatements = statements((db: ProjectDb) => ({
  // ISO 8601 UTC strings compare in time order, so the windows are plain string comparisons.
  stats: () => db
    .select({
      total: sql<number>`count(*)`,
      active24h: countWhere(gte(botUsers.lastSeenAt, sql.placeholder("since24h"))),
      active7d: countWhere(gte(botUsers.lastSeenAt, sql.placeholder("since7d"))),
      newToday: countWhere(gte(botUsers.firstSeenAt, sql.placeholder("today"))),
    })
    .from(botUsers)
    .where(eq(botUsers.tokenId, sql.placeholder("tokenId")))
    .prepare(),
}));

/** Avatars the platform downloaded for a token's users (deleted with the token). */
export function userAvatarsOf(db: ProjectDb, tokenId: number): string[] {
  return db
    .select({ url: botUsers.photoUrl })
    .from(botUsers)
    .where(and(eq(botUsers.tokenId, tokenId), isNotNull(botUsers.photoUrl)))
    .all()
    .map((r) => r.url!);
}
