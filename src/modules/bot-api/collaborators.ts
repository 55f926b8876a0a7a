// docs/api.md#bot-manager-api-apibot. Any member of a project (owner or collaborator) manages the
// team, the same trust docs/api.md gives collaborators for deleting the project itself.
import type { AppContext } from "../../context";
import { notFound } from "../../errors";
import type { Collaborator } from "./model";
import { collaboratorStatements } from "./queries";

export class CollaboratorsService {
  private readonly q;

  constructor(private readonly ctx: AppContext) {
    this.q = collaboratorStatements(ctx.db);
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
    const owner = this.q.owner.get({ projectId });
    if (!owner || owner.ownerId === userId) return;
    this.ctx.auth.ensureUser(userId);
    const added = this.q.add.all({ projectId, userId, invitedBy: actorId });
    // The invited user's open project list picks the project up.
    if (added.length > 0) this.ctx.events.emit("projects-changed", { kind: "updated", projectId, recipients: [userId] });
  }

  /** 404 when `userId` is not a collaborator of the project (the owner is not one). */
  remove(projectId: number, actorId: number, userId: number) {
    this.ctx.access.require(projectId, actorId);
    const removed = this.q.remove.all({ projectId, userId });
    if (removed.length === 0) throw notFound("Collaborator not found");
    this.ctx.events.emit("projects-changed", { kind: "updated", projectId, recipients: [userId] });
  }
}
