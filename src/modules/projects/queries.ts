// Prepared statements of the projects module. Every read is "as seen by a user": the per-user
// position (project_order, falling back to projects.sort_order) and the per-user archive flag.
import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { projectArchives, projectCollaborators, projectOrder, projects, users } from "../../db/schema";

const uid = sql.placeholder("userId");

const archivedFor = sql<number>`exists(select 1 from ${projectArchives} where ${projectArchives.projectId} = ${projects.id} and ${projectArchives.userId} = ${uid})`;
const memberOf = sql`(${projects.ownerId} = ${uid} or exists(select 1 from ${projectCollaborators} where ${projectCollaborators.projectId} = ${projects.id} and ${projectCollaborators.userId} = ${uid}))`;
const position = sql<number>`coalesce(${projectOrder.sortOrder}, ${projects.sortOrder})`;
const ownOrder = and(eq(projectOrder.projectId, projects.id), eq(projectOrder.userId, uid));

export const listColumns = {
  id: projects.id,
  ownerId: projects.ownerId,
  name: projects.name,
  description: projects.description,
  userDatabaseEnabled: projects.userDatabaseEnabled,
  sortOrder: position,
  adminIds: projects.adminIds,
  createdAt: projects.createdAt,
  updatedAt: projects.updatedAt,
  nodeCount: projects.nodeCount,
  sheetsCount: projects.sheetsCount,
  archived: archivedFor,
};

const fullColumns = {
  id: projects.id,
  ownerId: projects.ownerId,
  name: projects.name,
  description: projects.description,
  data: projects.data,
  botToken: projects.botToken,
  sessionId: projects.sessionId,
  userDatabaseEnabled: projects.userDatabaseEnabled,
  sortOrder: position,
  adminIds: projects.adminIds,
  createdAt: projects.createdAt,
  updatedAt: projects.updatedAt,
  archived: archivedFor,
};

export function prepareProjectQueries(db: Db) {
  const archivedIs = sql`${archivedFor} = ${sql.placeholder("archived")}`;
  return {
    listItems: db
      .select(listColumns)
      .from(projects)
      .leftJoin(projectOrder, ownOrder)
      .where(and(memberOf, archivedIs))
      .orderBy(position, projects.id)
      .prepare(),
    listFull: db
      .select(fullColumns)
      .from(projects)
      .leftJoin(projectOrder, ownOrder)
      .where(and(memberOf, archivedIs))
      .orderBy(position, projects.id)
      .prepare(),
    full: db
      .select(fullColumns)
      .from(projects)
      .leftJoin(projectOrder, ownOrder)
      .where(eq(projects.id, sql.placeholder("projectId")))
      .prepare(),
    item: db
      .select(listColumns)
      .from(projects)
      .leftJoin(projectOrder, ownOrder)
      .where(eq(projects.id, sql.placeholder("projectId")))
      .prepare(),
    /** Last position in the user's list (new projects go to the end). */
    maxPosition: db
      .select({ max: sql<number | null>`max(${position})` })
      .from(projects)
      .leftJoin(projectOrder, ownOrder)
      .where(memberOf)
      .prepare(),
    stored: db
      .select({ id: projects.id, ownerId: projects.ownerId, name: projects.name, data: projects.data, adminIds: projects.adminIds })
      .from(projects)
      .where(eq(projects.id, sql.placeholder("projectId")))
      .prepare(),
    /** Owner first, then collaborators in invitation order; names from the users table. */
    team: db
      .select({ userId: projects.ownerId, firstName: users.firstName, lastName: users.lastName, username: users.username, photoUrl: users.photoUrl })
      .from(projects)
      .leftJoin(users, eq(users.id, projects.ownerId))
      .where(eq(projects.id, sql.placeholder("projectId")))
      .prepare(),
    collaborators: db
      .select({
        userId: projectCollaborators.userId,
        firstName: users.firstName,
        lastName: users.lastName,
        username: users.username,
        photoUrl: users.photoUrl,
      })
      .from(projectCollaborators)
      .leftJoin(users, eq(users.id, projectCollaborators.userId))
      .where(eq(projectCollaborators.projectId, sql.placeholder("projectId")))
      .orderBy(projectCollaborators.createdAt, projectCollaborators.userId)
      .prepare(),
  };
}

export type ProjectQueries = ReturnType<typeof prepareProjectQueries>;
