// Statements of the projects module. A list or record read is "as seen by a user": the per-user
// position (project_order, falling back to projects.sort_order) and the per-user archive flag.
import { aliasedTable, and, asc, count, desc, eq, inArray, lt, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { statements } from "../../db/prepared";
import { aliased, prepareRows } from "../../db/rows";
import { botLaunches, botLogs, botTokens, projectArchives, projectCollaborators, projectOrder, projects, projectTrash, projectVersions, users } from "../../db/schema";
import type { ProjectListItem } from "./model";

export type ProjectChanges = Partial<typeof projects.$inferInsert>;

const uid = sql.placeholder("userId");
const pid = sql.placeholder("projectId");

const archivedFor = sql<number>`exists(select 1 from ${projectArchives} where ${projectArchives.projectId} = ${projects.id} and ${projectArchives.userId} = ${uid})`;
const memberOf = sql`(${projects.ownerId} = ${uid} or exists(select 1 from ${projectCollaborators} where ${projectCollaborators.projectId} = ${projects.id} and ${projectCollaborators.userId} = ${uid}))`;
/** A project in the trash is nobody's to see or use (docs/api.md "Trash"), except in the owner's trash list. */
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

const { archived: _a, ...itemColumns } = listColumns;
const { archived: _b, ...fullRecordColumns } = fullColumns;
type FullRow = Record<string, unknown> & { data: unknown; isArchivedForMe: number | boolean };

export const projectStatements = statements((db: Db) => ({
    listItems: () => prepareRows<ListRow>(db, userList(db, itemColumns)),
    listFull: () => prepareRows<FullRow>(db, userList(db, fullRecordColumns)),
    /** One page of listFull (opt-in paging of GET /api/projects). */
    listFullPage: () => prepareRows<FullRow>(
      db,
      userList(db, fullRecordColumns).limit(sql.placeholder("limit")).offset(sql.placeholder("offset")),
    ),
    /** Projects a user owns (the per-user cap), those in the trash too: they still take their room until purged. */
    ownedCount: () => db.select({ n: count() }).from(projects).where(eq(projects.ownerId, sql.placeholder("ownerId"))).prepare(),
    full: () => db
      .select(fullColumns)
      .from(projects)
      .leftJoin(projectOrder, ownOrder)
      .where(eq(projects.id, sql.placeholder("projectId")))
      .prepare(),
    item: () => db
      .select(listColumns)
      .from(projects)
      .leftJoin(projectOrder, ownOrder)
      .where(eq(projects.id, sql.placeholder("projectId")))
      .prepare(),
    insert: () => db
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
    maxPosition: () => db
      .select({ max: sql<number | null>`max(${position})` })
      .from(projects)
      .leftJoin(projectOrder, ownOrder)
      .where(memberOf)
      .prepare(),
    stored: () => db
      .select({ id: projects.id, ownerId: projects.ownerId, name: projects.name, data: projects.data, adminIds: projects.adminIds, updatedAt: projects.updatedAt })
      .from(projects)
      .where(eq(projects.id, sql.placeholder("projectId")))
      .prepare(),
    /** Owner first, then collaborators in invitation order; names from the users table. */
    team: () => db
      .select({ userId: projects.ownerId, firstName: users.firstName, lastName: users.lastName, username: users.username, photoUrl: users.photoUrl })
      .from(projects)
      .leftJoin(users, eq(users.id, projects.ownerId))
      .where(eq(projects.id, sql.placeholder("projectId")))
      .prepare(),
    collaborators: () => db
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
    /** The stored scenario and its time, for the copy in the project's own database file. */
    content: () => db.select({ data: projects.data, updatedAt: projects.updatedAt }).from(projects).where(eq(projects.id, pid)).prepare(),
    remove: () => db.delete(projects).where(eq(projects.id, pid)).prepare(),
    archive: () => db.insert(projectArchives).values({ projectId: sql`${pid}`, userId: sql`${uid}` }).onConflictDoNothing().prepare(),
    unarchive: () => db.delete(projectArchives).where(and(eq(projectArchives.projectId, pid), eq(projectArchives.userId, uid))).prepare(),
    setPosition: () => db
      .insert(projectOrder)
      .values({ projectId: sql`${pid}`, userId: sql`${uid}`, sortOrder: sql`${sql.placeholder("sortOrder")}` })
      .onConflictDoUpdate({ target: [projectOrder.projectId, projectOrder.userId], set: { sortOrder: sql`${sql.placeholder("sortOrder")}` } })
      .prepare(),
    /** What generate, export and a preview read of a project besides its document (stored-texts.ts keeps that). */
    forCode: () => db
      // Only columns before `data` in the row, and octet_length, which reads the record's header:
      // a later column (updated_at, user_database_enabled) makes SQLite walk the document's pages.
      .select({ name: projects.name, bytes: sql<number>`octet_length(${projects.data})` })
      .from(projects)
      .where(eq(projects.id, pid))
      .prepare(),
    /** The document itself, with what else generate needs of the row (stored-texts.ts keeps both). */
    document: () => db.select({ text: projects.data, userDatabaseEnabled: projects.userDatabaseEnabled }).from(projects).where(eq(projects.id, pid)).prepare(),
    adminIds: () => db.select({ adminIds: projects.adminIds }).from(projects).where(eq(projects.id, pid)).prepare(),
    tokenIds: () => db.select({ id: botTokens.id }).from(botTokens).where(eq(botTokens.projectId, pid)).orderBy(botTokens.id).prepare(),
    /** The hot path of every project-scoped request (projects/access.ts). */
    role: () => db
      .select({
        ownerId: projects.ownerId,
        collaborator: sql<number>`exists(select 1 from ${projectCollaborators} where ${projectCollaborators.projectId} = ${projects.id} and ${projectCollaborators.userId} = ${uid})`,
        trashed: sql<number>`exists(select 1 from ${projectTrash} where ${projectTrash.projectId} = ${projects.id})`,
      })
      .from(projects)
      .where(eq(projects.id, pid))
      .prepare(),
}));

export type ProjectQueries = ReturnType<typeof projectStatements>;

// --- the trash and leaving a project (projects/trash.ts, docs/api.md "Trash") --------------------

const deleter = aliasedTable(users, "deleter");

export const trashStatements = statements((db: Db) => ({
  /** A user's own projects in the trash, most recently deleted first, with who deleted them. */
  listOwned: () => db
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
  trashedOwner: () => db
    .select({ ownerId: projects.ownerId })
    .from(projectTrash)
    .innerJoin(projects, eq(projects.id, projectTrash.projectId))
    .where(eq(projectTrash.projectId, pid))
    .prepare(),
  put: () => db.insert(projectTrash).values({ projectId: sql`${pid}`, deletedBy: sql`${sql.placeholder("deletedBy")}` }).onConflictDoNothing().prepare(),
  take: () => db.delete(projectTrash).where(eq(projectTrash.projectId, pid)).returning({ projectId: projectTrash.projectId }).prepare(),
  /** Deleted before the cutoff (ISO time): due for purging, oldest first. */
  expired: () => db
    .select({ projectId: projectTrash.projectId })
    .from(projectTrash)
    .where(lt(projectTrash.deletedAt, sql.placeholder("cutoff")))
    .orderBy(asc(projectTrash.deletedAt))
    .prepare(),
  leave: () => db
    .delete(projectCollaborators)
    .where(and(eq(projectCollaborators.projectId, pid), eq(projectCollaborators.userId, uid)))
    .returning({ userId: projectCollaborators.userId })
    .prepare(),
  /** The leaver's own position of the project goes with them (their archive flag: projectStatements.unarchive). */
  forgetOrder: () => db.delete(projectOrder).where(and(eq(projectOrder.projectId, pid), eq(projectOrder.userId, uid))).prepare(),
}));

export type TrashQueries = ReturnType<typeof trashStatements>;

export function updateProject(db: Db, projectId: number, set: ProjectChanges) {
  db.update(projects).set(set).where(eq(projects.id, projectId)).run();
}

// --- versions (projects/versions.ts) ---------------------------------------------------------

/** A version has a name when its commit message says something; autosaves have none. */
const named = sql`(${projectVersions.commitMessage} is not null and trim(${projectVersions.commitMessage}) <> '')`;

const versionItemColumns = {
  id: projectVersions.id,
  createdAt: projectVersions.createdAt,
  commitMessage: projectVersions.commitMessage,
  authorId: projectVersions.authorId,
  // the author's name as the platform knows it (first and last name, else @username)
  authorName: sql<string | null>`(select coalesce(nullif(trim(${users.firstName} || ' ' || coalesce(${users.lastName}, '')), ''), '@' || ${users.username}) from ${users} where ${users.id} = ${projectVersions.authorId})`,
  agentEdit: projectVersions.agentEdit,
  agentDisplayName: projectVersions.agentDisplayName,
  nodesCount: projectVersions.nodesCount,
};

/** The id of a project's n-th newest version (none when it has fewer). */
const nthNewestVersion = (db: Db, n: number) =>
  db.select({ id: projectVersions.id }).from(projectVersions).where(eq(projectVersions.projectId, pid)).orderBy(desc(projectVersions.id)).limit(1).offset(n - 1).prepare();

/**
 * `keep`: how many of the newest versions are kept whatever they are; `keepNamed`: how far back
 * named versions are kept (the project's first version always stays).
 */
export const versionStatements = (keep: number, keepNamed: number) =>
  statements((db: Db) => ({
    list: () => db.select(versionItemColumns).from(projectVersions).where(eq(projectVersions.projectId, pid)).orderBy(desc(projectVersions.id)).limit(sql.placeholder("limit")).prepare(),
    get: () => db
      .select({ ...versionItemColumns, data: projectVersions.data })
      .from(projectVersions)
      .where(and(eq(projectVersions.projectId, pid), eq(projectVersions.id, sql.placeholder("id"))))
      .prepare(),
    newest: () => db
      .select({ id: projectVersions.id, createdAt: projectVersions.createdAt, commitMessage: projectVersions.commitMessage, authorId: projectVersions.authorId, agentEdit: projectVersions.agentEdit, data: projectVersions.data })
      .from(projectVersions)
      .where(eq(projectVersions.projectId, pid))
      .orderBy(desc(projectVersions.id))
      .limit(1)
      .prepare(),
    /** an autosave taken over by the next autosave of the same window */
    replaceData: () => db
      .update(projectVersions)
      .set({ data: sql.placeholder("data") as never, nodesCount: sql.placeholder("nodesCount") as never })
      .where(eq(projectVersions.id, sql.placeholder("id")))
      .prepare(),
    /** an explicit save of what an autosave already stored names that version */
    rename: () => db.update(projectVersions).set({ commitMessage: sql.placeholder("commitMessage") as never }).where(eq(projectVersions.id, sql.placeholder("id"))).prepare(),
    // id of the oldest version still kept; everything unnamed below it goes
    keepFrom: () => nthNewestVersion(db, keep),
    // below this one even named versions go (but never the first)
    keepNamedFrom: () => nthNewestVersion(db, keepNamed),
    insert: () => db
      .insert(projectVersions)
      .values({
        projectId: pid,
        data: sql.placeholder("data"),
        nodesCount: sql.placeholder("nodesCount"),
        commitMessage: sql.placeholder("commitMessage"),
        authorId: sql.placeholder("authorId"),
        agentEdit: sql.placeholder("agentEdit"),
        agentSessionId: sql.placeholder("agentSessionId"),
        agentDisplayName: sql.placeholder("agentDisplayName"),
      })
      .prepare(),
    pruneUnnamed: () => db
      .delete(projectVersions)
      .where(and(eq(projectVersions.projectId, pid), lt(projectVersions.id, sql.placeholder("keepFrom")), sql`not ${named}`))
      .prepare(),
    pruneNamed: () => db
      .delete(projectVersions)
      .where(and(
        eq(projectVersions.projectId, pid),
        lt(projectVersions.id, sql.placeholder("keepFrom")),
        sql`${projectVersions.id} <> (select min(v.id) from ${projectVersions} v where v.project_id = ${pid})`,
      ))
      .prepare(),
  }));

// --- launch history and logs (projects/activity.ts) --------------------------------------------

/** Texts are cut in SQL so long messages never leave the database. */
export const activityStatements = (limits: { launches: number; errorMessage: number; logMessage: number }) => {
  const logColumns = {
    level: botLogs.level,
    message: sql<string>`substr(${botLogs.message}, 1, ${limits.logMessage})`,
    createdAt: botLogs.createdAt,
  };
  return statements((db: Db) => ({
    launches: () => db
      .select({
        status: botLaunches.status,
        startedAt: botLaunches.startedAt,
        stoppedAt: botLaunches.stoppedAt,
        errorMessage: sql<string | null>`substr(${botLaunches.errorMessage}, 1, ${limits.errorMessage})`,
      })
      .from(botLaunches)
      .where(eq(botLaunches.projectId, pid))
      .orderBy(desc(botLaunches.startedAt), desc(botLaunches.id))
      .limit(limits.launches)
      .prepare(),
    logs: () => db.select(logColumns).from(botLogs).where(eq(botLogs.projectId, pid)).orderBy(desc(botLogs.id)).limit(sql.placeholder("limit")).prepare(),
    tokenLogs: () => db
      .select(logColumns)
      .from(botLogs)
      .where(and(eq(botLogs.projectId, pid), eq(botLogs.tokenId, sql.placeholder("tokenId"))))
      .orderBy(desc(botLogs.id))
      .limit(sql.placeholder("limit"))
      .prepare(),
  }));
};
