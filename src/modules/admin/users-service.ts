// Platform accounts for the admin (API.md "Admin area": users list and card, admin rule 6).
// Only ids, names and dates leave this file: never project data, tokens or session ids.
import { asc, count, desc, eq, or, sql, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import type { Db } from "../../db/client";
import { likeContains } from "../../db/like";
import { projectCollaborators, projects, users } from "../../db/schema";
import { notFound } from "../../errors";

export interface UserListQuery {
  search: string;
  page: number;
  perPage: number;
}

// Qualified by hand: inside a one-table select drizzle prints bare column names, and a bare "id"
// in the subquery would bind to the subquery's own table.
const col = (table: typeof projects | typeof projectCollaborators | typeof users, name: string) => sql`${table}.${sql.identifier(name)}`;
const ownedCount = sql<number>`(select count(*) from ${projects} where ${col(projects, projects.ownerId.name)} = ${col(users, users.id.name)})`;
const sharedCount = sql<number>`(select count(*) from ${projectCollaborators} where ${col(projectCollaborators, projectCollaborators.userId.name)} = ${col(users, users.id.name)})`;

/** The WHERE clause of the admin search (DESIGN.md "Admin users"), or undefined for "everyone". */
function searchFilter(search: string): SQL | undefined {
  const text = search.trim();
  if (text === "") return undefined;
  // Names are matched against the lower-cased search column, so case folds in every alphabet.
  const conditions: SQL[] = [likeContains(users.searchText, text.toLocaleLowerCase())];
  if (text.startsWith("@") && text.length > 1) conditions.push(likeContains(users.searchText, text.slice(1).toLocaleLowerCase()));
  if (/^\d{1,16}$/.test(text) && Number.isSafeInteger(Number(text))) conditions.push(eq(users.id, Number(text)));
  return or(...conditions);
}

export class AdminUsersService {
  constructor(private readonly db: Db) {}

  /** Newest accounts first (createdAt, then id, both descending). */
  list(q: UserListQuery) {
    const where = searchFilter(q.search);
    const total = this.db.select({ n: count() }).from(users).where(where).get()?.n ?? 0;
    const items = this.db
      .select({
        id: users.id,
        firstName: users.firstName,
        lastName: users.lastName,
        username: users.username,
        photoUrl: users.photoUrl,
        createdAt: users.createdAt,
        updatedAt: users.updatedAt,
        ownedCount,
        sharedCount,
      })
      .from(users)
      .where(where)
      .orderBy(desc(users.createdAt), desc(users.id))
      .limit(q.perPage)
      .offset((q.page - 1) * q.perPage)
      .all();
    return { items, total, page: q.page, perPage: q.perPage };
  }

  card(id: number) {
    const user = this.db
      .select({ id: users.id, firstName: users.firstName, lastName: users.lastName, username: users.username, photoUrl: users.photoUrl, createdAt: users.createdAt, updatedAt: users.updatedAt })
      .from(users)
      .where(eq(users.id, id))
      .get();
    if (!user) throw notFound("User not found");
    const ownedProjects = this.db
      .select({ id: projects.id, name: projects.name, createdAt: projects.createdAt, updatedAt: projects.updatedAt })
      .from(projects)
      .where(eq(projects.ownerId, id))
      .orderBy(asc(projects.id))
      .all();
    const owner = alias(users, "owner");
    const shared = this.db
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
      .where(eq(projectCollaborators.userId, id))
      .orderBy(asc(projects.id))
      .all();
    const sharedProjects = shared.map(({ ownerFirstName, ownerLastName, ownerUsername, ...p }) => ({
      ...p,
      ownerDisplayName: displayName(p.ownerId, ownerFirstName, ownerLastName, ownerUsername),
    }));
    return { user, ownedProjects, sharedProjects };
  }
}

/** "First Last", else "@username", else "User <id>" (an owner who never logged in has no names). */
export function displayName(id: number, first: string | null, last: string | null, username: string | null): string {
  const name = [first, last].map((s) => (s ?? "").trim()).filter(Boolean).join(" ");
  if (name) return name;
  if (username) return `@${username}`;
  return `User ${id}`;
}
