// docs/api.md#bot-manager-api-apibot. Actor rules of /api/bot/* apply.
// Create, import and data replace read their body as text: the bot-manager client posts a
// downloaded project.json as `text/plain`, and JSON bodies are parsed the same way.
import { Elysia } from "elysia";
import type { AppContext } from "../../context";
import { authPlugin } from "../../http/auth";
import { JsonCache } from "../../http/json-cache";
import { parsePositiveId, parseProjectId } from "../../http/params";
import { collaboratorAddSchema, renameSchema } from "./model";
import { BotProjectsService } from "./service";
import { CollaboratorsService } from "./collaborators";


export const botApiRoutes = (ctx: AppContext) => {
  const projects = new BotProjectsService(ctx);
  const team = new CollaboratorsService(ctx);
  const lists = new JsonCache(ctx.projects.changeStamp());
  return (
    new Elysia({ prefix: "/api/bot/projects" })
      .use(authPlugin(ctx))
      .get(
        "/",
        ({ actor }) =>
          lists.respond(String(actor.userId), () => {
            const items = projects.list(actor.userId);
            return { items, count: items.length };
          }),
        { botActor: true },
      )
      .post("/", ({ actor, body }) => projects.create(actor.userId, body), { botActor: true, parse: "text" })
      // Static segment: declared before `/:id` for readers; the router prefers it anyway.
      .post("/import", ({ actor, body }) => projects.import(actor.userId, body), { botActor: true, parse: "text" })
      .get("/:id", ({ actor, params }) => projects.get(parseProjectId(params.id), actor.userId), { botActor: true })
      .patch("/:id", ({ actor, params, body }) => projects.rename(parseProjectId(params.id), actor.userId, body.name), { botActor: true, body: renameSchema })
      .delete(
        "/:id",
        async ({ actor, params }) => {
          await projects.remove(parseProjectId(params.id), actor.userId);
          return { success: true };
        },
        { botActor: true, detail: { description: "Owner or collaborator. The project goes to the owner's trash (GET /api/projects/trash), restorable by the owner for PROJECT_TRASH_DAYS; its bots are stopped." } },
      )
      .put("/:id/data", ({ actor, params, body }) => projects.replaceData(parseProjectId(params.id), actor.userId, body), { botActor: true, parse: "text" })
      .get("/:id/export", ({ actor, params }) => projects.export(parseProjectId(params.id), actor.userId), { botActor: true })
      .get(
        "/:id/collaborators",
        ({ actor, params }) => {
          const items = team.list(parseProjectId(params.id), actor.userId);
          return { items, count: items.length };
        },
        { botActor: true },
      )
      .post(
        "/:id/collaborators",
        ({ actor, params, body }) => {
          team.add(parseProjectId(params.id), actor.userId, body.user_id);
          return { success: true };
        },
        { botActor: true, body: collaboratorAddSchema },
      )
      .delete(
        "/:id/collaborators/:userId",
        ({ actor, params }) => {
          team.remove(parseProjectId(params.id), actor.userId, parsePositiveId(params.userId, "userId"));
          return { success: true };
        },
        { botActor: true },
      )
  );
};
