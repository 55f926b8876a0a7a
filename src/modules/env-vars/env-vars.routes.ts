// docs/api.md#bot-manager-api-apibot. Actor rules of /api/bot/* apply.
import { Elysia } from "elysia";
import type { AppContext } from "../../context";
import { authPlugin } from "../../http/auth";
import { parsePositiveId, parseTokenId } from "../../http/params";
import { envCreateSchema, envPatchSchema } from "./model";
import { EnvVarsService } from "./service";

const envIdParam = (raw: string | undefined) => parsePositiveId(raw, "id");

export const envVarRoutes = (ctx: AppContext) => {
  const service = new EnvVarsService(ctx);
  return new Elysia({ prefix: "/api/bot" })
    .use(authPlugin(ctx))
    .get(
      "/tokens/:tokenId/env",
      ({ actor, params }) => {
        const items = service.list(parseTokenId(params.tokenId), actor.userId);
        return { items, count: items.length };
      },
      { botActor: true },
    )
    .post(
      "/tokens/:tokenId/env",
      ({ actor, params, body, set }) => {
        const created = service.create(parseTokenId(params.tokenId), actor.userId, body);
        set.status = 201;
        return created;
      },
      { botActor: true, body: envCreateSchema },
    )
    .patch("/env/:id", ({ actor, params, body }) => service.update(envIdParam(params.id), actor.userId, body), { botActor: true, body: envPatchSchema })
    .delete(
      "/env/:id",
      ({ actor, params }) => {
        service.remove(envIdParam(params.id), actor.userId);
        return { success: true };
      },
      { botActor: true },
    )
    // The answer holds a raw secret: nothing on this path may log the response body.
    .get("/env/:id/reveal", ({ actor, params }) => service.reveal(envIdParam(params.id), actor.userId), { botActor: true });
};
