// docs/api.md#projects: the project records themselves (list, create, read, update, delete, reorder).
// Team, admin ids, archive, duplicate, code, activity and versions live in the route files below.
import { Elysia } from "elysia";
import type { AppContext } from "../../context";
import { authPlugin } from "../../http/auth";
import { parseBoolQuery, parsePaging, parsePositiveId } from "../../http/params";
import { JsonCache } from "../../http/json-cache";
import { jsonAnswer } from "../../http/openapi-answer";
import { createProjectSchema, projectListItemSchema, reorderSchema, updateProjectSchema } from "./model";
import { z } from "zod";
import { projectExtraRoutes } from "./features.routes";
import { projectHistoryRoutes } from "./history.routes";
import { projectHttpTestRoutes } from "./http-test.routes";
import { projectTrashRoutes } from "./trash.routes";

export const projectsRoutes = (ctx: AppContext) =>
  new Elysia().use(projectTrashRoutes(ctx)).use(projectRecordRoutes(ctx)).use(projectExtraRoutes(ctx)).use(projectHistoryRoutes(ctx)).use(projectHttpTestRoutes(ctx));

/** `If-Match: "<updatedAt>"` (quotes optional, `*` means any) as the body's baseUpdatedAt; the body field wins. */
function withIfMatch<B extends { baseUpdatedAt?: string }>(body: B, ifMatch: string | undefined): B {
  if (body.baseUpdatedAt !== undefined || !ifMatch) return body;
  const tag = ifMatch.trim().replace(/^W\//, "").replace(/^"(.*)"$/, "$1");
  return tag === "" || tag === "*" ? body : { ...body, baseUpdatedAt: tag };
}

const projectRecordRoutes = (ctx: AppContext) => {
  const projects = ctx.projects;
  // The editor's list is read far more often than anything changes (bench/projects-list.ts).
  const lists = new JsonCache(projects.changeStamp());
  return (
    new Elysia({ prefix: "/api/projects" })
      .use(authPlugin(ctx))
      // docs/api.md fixes an array here: paging is opt-in (page/perPage) and then answers { items, total, page, perPage }.
      .get(
        "/",
        ({ actor, query }) => {
          const archived = parseBoolQuery(query.archived, "archived");
          const paging = parsePaging(query);
          if (!paging) return projects.listFull(actor.userId, archived);
          return { items: projects.listFull(actor.userId, archived, paging), total: projects.listItems(actor.userId, archived).length, page: paging.page, perPage: paging.perPage };
        },
        {
          user: true,
          detail: {
            description:
              "Full project records. Query: archived (true/false); optional paging page (from 1) and perPage (1-200, default 50): without them the answer is the array of docs/api.md, with them { items, total, page, perPage }.",
          },
        },
      )
      .get(
        "/list",
        ({ actor, query }) => {
          const archived = parseBoolQuery(query.archived, "archived");
          return lists.respond(`${actor.userId}:${archived}`, () => projects.listItems(actor.userId, archived));
        },
        { user: true, detail: jsonAnswer(z.array(projectListItemSchema)) },
      )
      .post(
        "/",
        ({ actor, body, set }) => {
          const project = projects.create(actor.userId, body);
          set.status = 201;
          return project;
        },
        { user: true, body: createProjectSchema },
      )
      // Declared before the `/:id` routes; the router also prefers static segments.
      .put(
        "/reorder",
        ({ actor, body }) => {
          projects.reorder(actor.userId, body.projectIds);
          return { success: true };
        },
        { user: true, body: reorderSchema },
      )
      .get("/:id", ({ actor, params }) => projects.getFull(parsePositiveId(params.id, "id"), actor.userId), { user: true })
      .put("/:id", ({ actor, params, body, headers }) => projects.update(parsePositiveId(params.id, "id"), actor.userId, withIfMatch(body, headers["if-match"])), {
        user: true,
        body: updateProjectSchema,
        detail: {
          description:
            "Partial update. Optimistic concurrency: send `baseUpdatedAt` (or the header `If-Match: \"<updatedAt>\"`) with the `updatedAt` you read; " +
            "when the project was saved since, the answer is 409 `{ error: \"CONFLICT\", message, current }` with the current record. Without either, the last write wins.",
        },
      })
      .delete(
        "/:id",
        async ({ actor, params }) => {
          await projects.delete(parsePositiveId(params.id, "id"), actor.userId);
          return { message: "Project deleted" };
        },
        { user: true, detail: { description: "The owner only (403 otherwise). The project goes to the owner's trash (GET /api/projects/trash) and can be restored for PROJECT_TRASH_DAYS; its bots are stopped." } },
      )
  );
};
