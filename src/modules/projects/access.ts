// Project access: the owner or an invited collaborator. One prepared query on the hot path.
import type { Db } from "../../db/client";
import { forbidden, notFound } from "../../errors";
import { projectStatements } from "./queries";

export type ProjectRole = "owner" | "collaborator";

export class ProjectAccess {
  private readonly q;

  constructor(db: Db) {
    this.q = projectStatements(db);
  }

  /** undefined: no such project (or it is in the trash: docs/api.md "Trash"); null: exists but the user has no access. */
  roleOf(projectId: number, userId: number): ProjectRole | null | undefined {
    const row = this.q.role.get({ projectId, userId });
    if (!row || row.trashed) return undefined;
    if (row.ownerId === userId) return "owner";
    return row.collaborator ? "collaborator" : null;
  }

  /**
   * Throws 404 for a missing project and, for no access, 403 — or 404 when `hideForbidden`
   * (docs/api.md: GET /api/projects/{id} answers 404 for "not found or no access"). `notFound` is
   * the 404's message: a token's audience paths answer as for a token that does not exist.
   */
  require(projectId: number, userId: number, opts: { ownerOnly?: boolean; hideForbidden?: boolean; notFound?: string } = {}): ProjectRole {
    const role = this.roleOf(projectId, userId);
    if (role === undefined) throw notFound(opts.notFound ?? "Project not found");
    if (role === null) throw opts.hideForbidden ? notFound(opts.notFound ?? "Project not found") : forbidden("You do not have access to this project");
    if (opts.ownerOnly && role !== "owner") throw forbidden("Only the project owner can do this");
    return role;
  }
}
