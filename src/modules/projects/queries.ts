// Prepared statements of the projects module. Every read is "as seen by a user": the per-user
// position (project_order, falling back to projects.sort_order) and the per-user archive flag.
import { and, asc, count, desc, eq, inArray, lt, sql } from "drizzle-orm";
import { aliasedTable } from "drizzle-orm";
import type { Db } from "../../db/client";
import { aliased, prepareRows } from "../../db/rows";
import { projectArchives, projectCollaborators, projectOrder, projects, projectTrash, users } from "../../db/schema";
import type { ProjectListItem } from "./model";

const uid = sql.placeholder("userId");

const archivedFor = sql<number>`exists(select 1 from ${projectArchives} where ${projectArchives.projectId} = ${projects.id} and ${projectArchives.userId} = ${uid})`;
const memberOf = sql`(${projects.ownerId} = ${uid} or exists(select 1 from ${projectCollaborators} where ${projectCollaborators.projectId} = ${projects.id} and ${projectCollaborators.userId} = ${uid}))`;
/** A project in the trash is nobody's to see or use (docs/api.md "Trash"), except the owner's trash list. */
const notTrashed = sql`not exists(select 1 from ${projectTrash} where ${projectTrash.projectId} = ${projects.id})`;
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

/** Row of the hot list query: ProjectListItem with the archive flag still 0/1. */
export type ListRow = Omit<ProjectListItem, "isArchivedForMe"> & { isArchivedForMe: number | boolean };

/**
 * A user's projects (owned or shared), in the user's order, archived or not. Membership is an
 * index-driven id list (owner index ∪ collaborator index), never a scan of every project.
 */
function userList<T extends Record<string, unknown>>(db: Db, columns: T) {
  const memberIds = db
    .select({ id: projects.id })
    .from(projects)
    .where(eq(projects.ownerId, uid))
    .union(db.select({ id: projectCollaborators.projectId }).from(projectCollaborators).where(eq(projectCollaborators.userId, uid)));
  const isArchived = sql`(${projectArchives.userId} is not null)`;
  return db
    .select(aliased({ ...(columns as Record<string, never>), isArchivedForMe: isArchived }))
    .from(projects)
    .leftJoin(projectOrder, ownOrder)
    .leftJoin(projectArchives, and(eq(projectArchives.projectId, projects.id), eq(projectArchives.userId, uid)))
    .where(and(inArray(projects.id, memberIds), sql`${isArchived} = ${sql.placeholder("archived")}`, notTrashed))
    .orderBy(position, projects.id);
}

export function prepareProjectQueries(db: Db) {
  const { archived: _a, ...itemColumns } = listColumns;
  const { archived: _b, ...fullRecordColumns } = fullColumns;
  return {
    listItems: prepareRows<ListRow>(db, userList(db, itemColumns)),
    listFull: prepareRows<Record<string, unknown> & { data: unknown; isArchivedForMe: number | boolean }>(db, userList(db, fullRecordColumns)),
    /** One page of listFull (opt-in paging of GET /api/projects). */
    listFullPage: prepareRows<Record<string, unknown> & { data: unknown; isArchivedForMe: number | boolean }>(
      db,
      userList(db, fullRecordColumns).limit(sql.placeholder("limit")).offset(sql.placeholder("offset")),
    ),
    /** Projects a user owns (the per-user cap), those in the trash too: they still take their room until purged. */
    ownedCount: db.select({ n: count() }).from(projects).where(eq(projects.ownerId, sql.placeholder("ownerId"))).prepare(),
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
    insert: db
      .insert(projects)
      .values({
        ownerId: sql.placeholder("ownerId"),
        name: sql.placeholder("name"),
        description: sql.placeholder("description"),
        data: sql.placeholder("data"),
        nodeCount: sql.placeholder("nodeCount"),
        sheetsCount: sql.placeholder("sheetsCount"),
        userDatabaseEnabled: sql.placeholder("userDatabaseEnabled"),
        sortOrder: sql.placeholder("sortOrder"),
        adminIds: sql.placeholder("adminIds"),
      })
      .returning({ id: projects.id })
      .prepare(),
    /** Last position in the user's list (new projects go to the end). */
    maxPosition: db
      .select({ max: sql<number | null>`max(${position})` })
      .from(projects)
      .leftJoin(projectOrder, ownOrder)
      .where(memberOf)
      .prepare(),
    stored: db
      .select({ id: projects.id, ownerId: projects.ownerId, name: projects.name, data: projects.data, adminIds: projects.adminIds, updatedAt: projects.updatedAt })
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

/** The trash (docs/api.md "Trash") and leaving a project. */
export function prepareTrashQueries(db: Db) {
  const deleter = aliasedTable(users, "deleter");
  return {
    /** A user's own projects in the trash, most recently deleted first, with who deleted them. */
    listOwned: db
      .select({
        id: projects.id,
        name: projects.name,
        description: projects.description,
        nodeCount: projects.nodeCount,
        updatedAt: projects.updatedAt,
        deletedAt: projectTrash.deletedAt,
        deletedBy: projectTrash.deletedBy,
        deletedByFirstName: deleter.firstName,
        deletedByLastName: deleter.lastName,
        deletedByUsername: deleter.username,
      })
      .from(projectTrash)
      .innerJoin(projects, eq(projects.id, projectTrash.projectId))
      .leftJoin(deleter, eq(deleter.id, projectTrash.deletedBy))
      .where(eq(projects.ownerId, uid))
      .orderBy(desc(projectTrash.deletedAt), desc(projects.id))
      .prepare(),
    /** The owner of a project in the trash; undefined when it is not there. */
    trashedOwner: db
      .select({ ownerId: projects.ownerId })
      .from(projectTrash)
      .innerJoin(projects, eq(projects.id, projectTrash.projectId))
      .where(eq(projectTrash.projectId, sql.placeholder("projectId")))
      .prepare(),
    put: db.insert(projectTrash).values({ projectId: sql.placeholder("projectId"), deletedBy: sql.placeholder("deletedBy") }).onConflictDoNothing().prepare(),
    take: db.delete(projectTrash).where(eq(projectTrash.projectId, sql.placeholder("projectId"))).returning({ projectId: projectTrash.projectId }).prepare(),
    /** Deleted before the cutoff (ISO time): due for purging, oldest first. */
    expired: db
      .select({ projectId: projectTrash.projectId })
      .from(projectTrash)
      .where(lt(projectTrash.deletedAt, sql.placeholder("cutoff")))
      .orderBy(asc(projectTrash.deletedAt))
      .prepare(),
    leave: db
      .delete(projectCollaborators)
      .where(and(eq(projectCollaborators.projectId, sql.placeholder("projectId")), eq(projectCollaborators.userId, uid)))
      .returning({ userId: projectCollaborators.userId })
      .prepare(),
    /** The leaver's own view of the project (archive flag, position) goes with them. */
    forgetArchive: db.delete(projectArchives).where(and(eq(projectArchives.projectId, sql.placeholder("projectId")), eq(projectArchives.userId, uid))).prepare(),
    forgetOrder: db.delete(projectOrder).where(and(eq(projectOrder.projectId, sql.placeholder("projectId")), eq(projectOrder.userId, uid))).prepare(),
  };
}

export type TrashQueries = ReturnType<typeof prepareTrashQueries>;
