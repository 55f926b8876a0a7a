// Users, sessions and personal access tokens in the platform database. Session ids and PATs arrive
// here already hashed (auth/service.ts): no secret is ever stored in clear.
import { and, count, desc, eq, lt, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { statements } from "../../db/prepared";
import { personalAccessTokens, sessions, usedLoginPayloads, users } from "../../db/schema";

export type UserRow = typeof users.$inferSelect;
export type UserChanges = Partial<Pick<typeof users.$inferInsert, "firstName" | "lastName" | "username" | "photoUrl" | "updatedAt">>;

export const authStatements = statements((db: Db) => ({
  // Hot path: every authenticated request runs one of these two lookups.
  session: () => db.select({ userId: sessions.userId, expiresAt: sessions.expiresAt }).from(sessions).where(eq(sessions.id, sql.placeholder("id"))).prepare(),
  pat: () => db
    .select({ id: personalAccessTokens.id, userId: personalAccessTokens.userId, scopes: personalAccessTokens.scopes, lastUsedAt: personalAccessTokens.lastUsedAt })
    .from(personalAccessTokens)
    .where(eq(personalAccessTokens.tokenHash, sql.placeholder("hash")))
    .prepare(),
  user: () => db.select().from(users).where(eq(users.id, sql.placeholder("id"))).prepare(),
  userExists: () => db.select({ id: users.id }).from(users).where(eq(users.id, sql.placeholder("id"))).prepare(),
  addUserId: () => db.insert(users).values({ id: sql`${sql.placeholder("id")}` }).onConflictDoNothing().prepare(),
  setSearchText: () => db.update(users).set({ searchText: sql`${sql.placeholder("searchText")}` }).where(eq(users.id, sql.placeholder("id"))).prepare(),
  deleteSession: () => db.delete(sessions).where(eq(sessions.id, sql.placeholder("id"))).prepare(),
  touchPat: () => db.update(personalAccessTokens).set({ lastUsedAt: sql`${sql.placeholder("at")}` }).where(eq(personalAccessTokens.id, sql.placeholder("id"))).prepare(),
}));

/** Inserts the user, or changes the given fields of the existing row. */
export function upsertUser(db: Db, values: typeof users.$inferInsert, set: UserChanges) {
  db.insert(users).values(values).onConflictDoUpdate({ target: users.id, set }).run();
}

/** Users with names but no search text (rows written before the column existed). */
export function usersWithoutSearchText(db: Db): UserRow[] {
  return db
    .select()
    .from(users)
    .where(and(eq(users.searchText, ""), sql`(${users.firstName} != '' OR ${users.lastName} IS NOT NULL OR ${users.username} IS NOT NULL)`))
    .all();
}

export function insertSession(db: Db, idHash: string, userId: number, expiresAt: string) {
  db.insert(sessions).values({ id: idHash, userId, expiresAt }).run();
}

export function insertPat(db: Db, userId: number, name: string, tokenHash: string, scopes: string) {
  return db.insert(personalAccessTokens).values({ userId, name, tokenHash, scopes }).returning().get();
}

export function countPats(db: Db, userId: number): number {
  return db.select({ n: count() }).from(personalAccessTokens).where(eq(personalAccessTokens.userId, userId)).get()?.n ?? 0;
}

/** Newest first; every user's, or one user's. */
export function listPats(db: Db, userId: number | undefined, page?: { limit: number; offset: number }) {
  const base = db.select().from(personalAccessTokens).orderBy(desc(personalAccessTokens.id));
  const q = userId === undefined ? base : base.where(eq(personalAccessTokens.userId, userId));
  return page ? q.limit(page.limit).offset(page.offset).all() : q.all();
}

/** Deletes a PAT (with `userId`, only if it is that user's); whether one was deleted. */
export function deletePat(db: Db, id: number, userId?: number): boolean {
  const where = userId === undefined ? eq(personalAccessTokens.id, id) : and(eq(personalAccessTokens.id, id), eq(personalAccessTokens.userId, userId));
  return db.delete(personalAccessTokens).where(where).returning({ id: personalAccessTokens.id }).all().length > 0;
}

/**
 * Records a Login Widget payload's hash as used (docs/security.md "Login"); false when it already
 * was. Expired entries go first: a payload past its expiry is refused for its age anyway, so the
 * table holds one day of logins.
 */
export function markPayloadUsed(db: Db, hash: string, expiresAt: string, nowIso: string): boolean {
  return db.transaction(() => {
    db.delete(usedLoginPayloads).where(lt(usedLoginPayloads.expiresAt, nowIso)).run();
    const row = db.insert(usedLoginPayloads).values({ hash, expiresAt }).onConflictDoNothing().returning({ hash: usedLoginPayloads.hash }).get();
    return row !== undefined;
  });
}
