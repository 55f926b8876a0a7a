// docs/api.md "Trash" and "Leaving a project": the owner's deleted projects (list, restore) and a
// collaborator's way out of a project they were added to.
import { Elysia } from "elysia";
import type { AppContext } from "../../context";
import { authPlugin } from "../../http/auth";
import { parsePositiveId } from "../../http/params";
import { jsonAnswer } from "../../http/openapi-answer";
import { trashListSchema } from "./trash";

export const projectTrashRoutes = (ctx: AppContext) => {
  const projects = ctx.projects;
  return (
    new Elysia({ prefix: "/api/projects" })
      .use(authPlugin(ctx))
      // Static segments: declared before the `/:id` routes, which the router would not prefer anyway.
      .get("/trash", ({ actor }) => {
        const items = projects.trash.list(actor.userId);
        return { items, count: items.length, retentionDays: ctx.config.projectTrashDays };
      }, {
        user: true,
        detail: {
          description: "The caller's own deleted projects (deleted by them or by a collaborator), newest first. Purged PROJECT_TRASH_DAYS after deletion.",
          ...jsonAnswer(trashListSchema),
        },
      })
      .post(
        "/trash/:id/restore",
        ({ actor, params }) => {
          const projectId = parsePositiveId(params.id, "id");
          projects.trash.restore(projectId, actor.userId);
          return projects.getItem(projectId, actor.userId);
        },
        {
          user: true,
          detail: {
            description:
              "The owner restores a project from the trash: 200 with the project's list item. Its bots stay stopped until started. 404 when it is not in the caller's trash (also for collaborators).",
          },
        },
      )
      .delete(
        "/trash/:id",
        async ({ actor, params }) => {
          await projects.purgeFromTrash(parsePositiveId(params.id, "id"), actor.userId);
          return { success: true };
        },
        {
          user: true,
          detail: {
            description:
              "The owner deletes a project in their trash for good, now: tokens, media, bot folders, the project database and the row. Cannot be undone. 404 when it is not in the caller's trash (also for collaborators).",
          },
        },
      )
      .post(
        "/:id/leave",
        ({ actor, params }) => {
          projects.leave(parsePositiveId(params.id, "id"), actor.userId);
          return { success: true };
        },
        {
          user: true,
          detail: { description: "A collaborator leaves the project (it leaves their list; no one else is affected). 409 for the owner; 403 for a non-member; 404 missing." },
        },
      )
  );
};
