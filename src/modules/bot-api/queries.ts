// A project's collaborators in the platform database (docs/api.md#bot-manager-api-apibot).
import { and, asc, eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { statements } from "../../db/prepared";
import { projectCollaborators, projects } from "../../db/schema";

const projectId = sql.placeholder("projectId");
const userId = sql.placeholder("userId");

export const collaboratorStatements = statements((db: Db) => ({
  list: () => db
    .select({ projectId: projectCollaborators.projectId, userId: projectCollaborators.userId, invitedBy: projectCollaborators.invitedBy })
    .from(projectCollaborators)
    .where(eq(projectCollaborators.projectId, projectId))
    .orderBy(asc(projectCollaborators.createdAt), asc(projectCollaborators.userId))
    .prepare(),
  owner: () => db.select({ ownerId: projects.ownerId }).from(projects).where(eq(projects.id, projectId)).prepare(),
  add: () => db
    .insert(projectCollaborators)
    .values({ projectId: sql`${projectId}`, userId: sql`${userId}`, invitedBy: sql`${sql.placeholder("invitedBy")}` })
    .onConflictDoNothing()
    .returning()
    .prepare(),
  remove: () => db
    .delete(projectCollaborators)
    .where(and(eq(projectCollaborators.projectId, projectId), eq(projectCollaborators.userId, userId)))
    .returning()
    .prepare(),
}));
