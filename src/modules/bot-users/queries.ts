// Reads and writes of bot_users in a project's own database file (src/db/project-schema.ts).
// Newest first (first_seen_at, then row id, both descending) so that a bot-manager client shows
// recent sign-ups on its first page.
import { and, desc, eq, gte, or, sql } from "drizzle-orm";
import { containsText } from "../../db/like";
import type { ProjectDb } from "../../db/project-db";
import { projectBotUsers as botUsers } from "../../db/project-schema";
import { statements } from "../../db/prepared";

export type BotUserRow = typeof botUsers.$inferSelect;

const byToken = eq(botUsers.tokenId, sql.placeholder("tokenId"));
const listColumns = { userId: botUsers.userId, firstName: botUsers.firstName, username: botUsers.username };
const newestFirst = [desc(botUsers.firstSeenAt), desc(botUsers.id)];

export const botUserStatements = statements((db: ProjectDb) => ({
  count: () => db.select({ n: sql<number>`count(*)` }).from(botUsers).where(byToken).prepare(),
  page: () => db.select(listColumns).from(botUsers).where(byToken).orderBy(...newestFirst).limit(sql.placeholder("limit")).offset(sql.placeholder("offset")).prepare(),
  one: () => db.select().from(botUsers).where(and(byToken, eq(botUsers.userId, sql.placeholder("userId")))).prepare(),
  setPhoto: () => db.update(botUsers).set({ photoUrl: sql`${sql.placeholder("photoUrl")}` }).where(eq(botUsers.id, sql.placeholder("id"))).prepare(),
}));

/** A name or @username substring (case folded in every alphabet, wildcards literal), or the exact id. */
function matching(tokenId: number, term: string) {
  return and(
    eq(botUsers.tokenId, tokenId),
    or(containsText(botUsers.firstName, term), containsText(botUsers.lastName, term), containsText(botUsers.username, term), eq(botUsers.userId, term)),
  );
}

/** The Studio's search: rarer than paging, so not prepared. */
export function searchBotUsers(db: ProjectDb, tokenId: number, term: string, limit: number, offset: number) {
  const where = matching(tokenId, term);
  const count = db.select({ n: sql<number>`count(*)` }).from(botUsers).where(where).get()?.n ?? 0;
  const rows = db.select(listColumns).from(botUsers).where(where).orderBy(...newestFirst).limit(limit).offset(offset).all();
  return { count, rows };
}

/** New users of a token per UTC day (YYYY-MM-DD) since `since`. */
export function newUsersPerDay(db: ProjectDb, tokenId: number, since: string): { day: string; n: number }[] {
  return db
    .select({ day: sql<string>`substr(${botUsers.firstSeenAt}, 1, 10)`, n: sql<number>`count(*)` })
    .from(botUsers)
    .where(and(eq(botUsers.tokenId, tokenId), gte(botUsers.firstSeenAt, since)))
    .groupBy(sql`1`)
    .all();
}
