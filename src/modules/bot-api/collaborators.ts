// API.md "Bot API: collaborators". Any member of a project (owner or collaborator) manages the
// team, the same trust API.md gives collaborators for deleting the project itself.
import { and, asc, eq, sql } from "drizzle-orm";
import type { AppContext } from "../../context";
import { projectCollaborators, projects } from "../../db/schema";
import { notFound } from "../../errors";
import type { Collaborator } from "./model";
import { preparedOnFirstUse } from "../../db/prepared";

export class CollaboratorsService {
  private readonly q;

  constructor(private readonly ctx: AppContext) {
    this.q = preparedOnFirstUse({
      list: () => ctx.db
        .select({ projectId: projectCollaborators.projectId, userId: projectCollaborators.userId, invitedBy: projectCollaborators.invitedBy })
        .from(projectCollaborators)
        .where(eq(projectCollaborators.projectId, sql.placeholder("projectId")))
        .orderBy(asc(projectCollaborators.createdAt), asc(projectCollaborators.userId))
        .prepare(),
    });
  }

  list(projectId: number, actorId: number): Collaborator[] {
    this.ctx.access.require(projectId, actorId);
    return this.q.list.all({ projectId });
  }

  /**
   * Invites `userId` (the user row is created when the platform has not seen them yet). Adding the
   * owner or an existing collaborator changes nothing and still succeeds: the result is the same.
   */
  add(projectId: number, actorId: number, userId: number) {
    this.ctx.access.require(projectId, actorId);
    const owner = this.ctx.db.select({ ownerId: projects.ownerId }).from(projects).where(eq(projects.id, projectId)).get();
    if (!owner || owner.ownerId === userId) return;
    this.ctx.auth.ensureUser(userId);
    const added = this.ctx.db.insert(projectCollaborators).values({ projectId, userId, invitedBy: actorId }).onConflictDoNothing().returning().all();
    // The invited user's open project list picks the project up.
    if (added.length > 0) this.ctx.events.emit("projects-changed", { kind: "updated", projectId, recipients: [userId] });
  }

  /** 404 when `userId` is not a collaborator of the project (the owner is not one). */
  remove(projectId: number, actorId: number, userId: number) {
    this.ctx.access.require(projectId, actorId);
    const removed = this.ctx.db
      .delete(projectCollaborators)
      .where(and(eq(projectCollaborators.projectId, projectId), eq(projectCollaborators.userId, userId)))
      .returning()
      .all();
    if (removed.length === 0) throw notFound("Collaborator not found");
    this.ctx.events.emit("projects-changed", { kind: "updated", projectId, recipients: [userId] });
  }
}
