// docs/api.md#projects, per-project features: team, admin ids (rule 7), per-user archive (rule 5),
// duplicate (rule 4), program code (rule 6).
import { Elysia } from "elysia";
import type { AppContext } from "../../context";
import { authPlugin } from "../../http/auth";
import { parsePositiveId } from "../../http/params";
import { adminIdRemoveSchema, adminIdsSchema, duplicateSchema, generateResponseSchema, generateSchema } from "./model";
import { ProjectCode } from "./code";
import { acceptsGzip } from "../../lib/accept-encoding";
import { memberProjectId } from "./member";
import { normalizeAdminIds, parseAdminIdToRemove, splitAdminIds } from "./admin-ids";

const adminIdsView = (list: string) => {
  const items = splitAdminIds(list).map((id) => ({ id }));
  return { adminIds: list, items, count: items.length };
};

export const projectExtraRoutes = (ctx: AppContext) => {
  const projects = ctx.projects;
  const code = new ProjectCode(ctx);
  const member = (raw: string, userId: number, name = "id") => memberProjectId(ctx, raw, userId, name);

  return new Elysia({ prefix: "/api/projects" })
    .use(authPlugin(ctx))
    // docs/api.md names this parameter {projectId}; the router needs one name per position.
    .get("/:id/collaborators", ({ actor, params }) => projects.team.entries(member(params.id, actor.userId, "projectId")), { user: true })
    .get("/:id/admin-ids", ({ actor, params }) => adminIdsView(projects.adminIds.read(member(params.id, actor.userId))), { user: true })
    .put(
      "/:id/admin-ids",
      ({ actor, params, body }) => {
        const projectId = member(params.id, actor.userId);
        // One write path for admin ids: the row, the bot folders and the "updated" event.
        const list = normalizeAdminIds(body.adminIds);
        projects.update(projectId, actor.userId, { adminIds: list });
        return { success: true, adminIds: list };
      },
      { user: true, body: adminIdsSchema },
    )
    .post(
      "/:id/admin-ids/remove",
      ({ actor, params, body }) => {
        const projectId = member(params.id, actor.userId);
        const list = projects.adminIds.without(projectId, parseAdminIdToRemove(body.adminId));
        projects.update(projectId, actor.userId, { adminIds: list });
        return { success: true, adminIds: list };
      },
      { user: true, body: adminIdRemoveSchema },
    )
    .post(
      "/:id/archive",
      ({ actor, params }) => {
        projects.setArchived(parsePositiveId(params.id, "id"), actor.userId, true);
        return { success: true };
      },
      { user: true },
    )
    .post(
      "/:id/unarchive",
      ({ actor, params }) => {
        projects.setArchived(parsePositiveId(params.id, "id"), actor.userId, false);
        return { success: true };
      },
      { user: true },
    )
    .post(
      "/:id/duplicate",
      ({ actor, params, body, set }) => {
        const copy = projects.duplicate(parsePositiveId(params.id, "id"), actor.userId, body?.name);
        set.status = 201;
        return copy;
      },
      { user: true, body: duplicateSchema },
    )
    .post("/:id/export", ({ actor, params }) => code.export(member(params.id, actor.userId)), { user: true })
    .post("/:id/generate", ({ actor, params, body, request }) => code.generateAnswer(member(params.id, actor.userId), body ?? {}, acceptsGzip(request)), {
      user: true,
      body: generateSchema,
      response: { 200: generateResponseSchema },
      detail: {
        summary: "Generate the bot program",
        description: "The program a start would run, with the warnings of validation and generation (node, sheet, code, message; the generator's own also a detail with the key and slot values of the message).",
      },
    });
};
