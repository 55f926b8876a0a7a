// Platform accounts for the admin (docs/api.md#admin-rules rule 6: users list and card): only
// ids, names and dates are read here, never project data, tokens or session ids.
import { asc, count, desc, eq, or, sql, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import type { Db } from "../../db/client";
import { containsText } from "../../db/like";
import { projectCollaborators, projects, users } from "../../db/schema";

// Qualified by hand: inside a one-table select drizzle prints bare column names, and a bare "id"
// in the subquery would bind to the subquery's own table.
const col = (table: typeof projects | typeof projectCollaborators | typeof users, name: string) => sql`${table}.${sql.identifier(name)}`;
const ownedCount = sql<number>`(select count(*) from ${projects} where ${col(projects, projects.ownerId.name)} = ${col(users, users.id.name)})`;
const sharedCount = sql<number>`(select count(*) from ${projectCollaborators} where ${col(projectCollaborators, projectCollaborators.userId.name)} = ${col(users, users.id.name)})`;

const userColumns = { id: users.id, firstName: users.firstName, lastName: users.lastName, username: users.username, photoUrl: users.photoUrl, createdAt: users.createdAt, updatedAt: users.updatedAt };

/** The WHERE clause of the admin search (docs/api.md#admin-rules rule 6), or undefined for "everyone". */
function searchFilter(search: string): SQL | undefined {
  const text = search.trim();
  if (text === "") return undefined;
  // Matched against the names' search column ("first last username", schema.ts `users.searchText`).
  const conditions: SQL[] = [containsText(users.searchText, text)];
  if (text.startsWith("@") && text.length > 1) conditions.push(containsText(users.searchText, text.slice(1)));
  if (/^\d{1,16}$/.test(text) && Number.isSafeInteger(Number(text))) conditions.push(eq(users.id, Number(text)));
  return or(...conditions);
}

/** Newest accounts first (createdAt, then id, both descending). */
export function userPage(db: Db, search: string, limit: number, offset: number) {
  const where = searchFilter(search);
  const total = db.select({ n: count() }).from(users).where(where).get()?.n ?? 0;
  const items = db
    .select({ ...userColumns, ownedCount, sharedCount })
    .from(users)
    .where(where)
    .orderBy(desc(users.createdAt), desc(users.id))
    .limit(limit)
    .offset(offset)
    .all();
  return { items, total };
}

export function userById(db: Db, id: number) {
  return db.select(userColumns).from(users).where(eq(users.id, id)).get();
}

export function projectsOwnedBy(db: Db, userId: number) {
  return db
    .select({ id: projects.id, name: projects.name, createdAt: projects.createdAt, updatedAt: projects.updatedAt })
    .from(projects)
    .where(eq(projects.ownerId, userId))
    .orderBy(asc(projects.id))
    .all();
}

/** Projects the user was invited to, with their owner's names. */
export function projectsSharedWith(db: Db, userId: number) {
  const owner = alias(users, "owner");
  return db
    .select({
      id: projects.id,
      name: projects.name,
      createdAt: projects.createdAt,
      updatedAt: projects.updatedAt,
      ownerId: projects.ownerId,
      ownerFirstName: owner.firstName,
      ownerLastName: owner.lastName,
      ownerUsername: owner.username,
    })
    .from(projectCollaborators)
    .innerJoin(projects, eq(projects.id, projectCollaborators.projectId))
    .leftJoin(owner, eq(owner.id, projects.ownerId))
    .where(eq(projectCollaborators.userId, userId))
    .orderBy(asc(projects.id))
    .all();
}

export function projectExists(db: Db, projectId: number): boolean {
  return db.select({ id: projects.id }).from(projects).where(eq(projects.id, projectId)).get() !== undefined;
}
