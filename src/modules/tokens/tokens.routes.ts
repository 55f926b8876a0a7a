// docs/api.md#bot-manager-api-apibot plus docs/api.md's token PATCH. Actor rules of /api/bot/* apply.
import { Elysia } from "elysia";
import type { AppContext } from "../../context";
import { authPlugin } from "../../http/auth";
import { parseProjectId, parseTokenId } from "../../http/params";
import { jsonAnswer } from "../../http/openapi-answer";
import { botStatusSchema, tokenCreateSchema, tokenListItemSchema, tokenPatchSchema } from "./model";
import { z } from "zod";


export const tokenRoutes = (ctx: AppContext) => {
  const service = ctx.tokens;
  return new Elysia({ prefix: "/api/bot" })
    .use(authPlugin(ctx))
    .get(
      "/projects/:id/tokens",
      ({ actor, params }) => {
        const items = service.list(parseProjectId(params.id), actor.userId);
        return { items, count: items.length };
      },
      { botActor: true, detail: jsonAnswer(z.object({ items: z.array(tokenListItemSchema), count: z.number().int() })) },
    )
    .post("/projects/:id/tokens", ({ actor, params, body }) => service.add(parseProjectId(params.id), actor.userId, body), {
      botActor: true,
      body: tokenCreateSchema,
    })
    .patch("/tokens/:tokenId", ({ actor, params, body }) => service.update(parseTokenId(params.tokenId), actor.userId, body), {
      botActor: true,
      body: tokenPatchSchema,
    })
    .delete(
      "/tokens/:tokenId",
      async ({ actor, params }) => {
        await service.remove(parseTokenId(params.tokenId), actor.userId);
        return { success: true };
      },
      { botActor: true },
    )
    .get("/tokens/:tokenId/photo", ({ actor, params }) => service.photo(parseTokenId(params.tokenId), actor.userId), { botActor: true })
    .get("/tokens/:tokenId/stats", ({ actor, params }) => service.stats(parseTokenId(params.tokenId), actor.userId), { botActor: true })
    .get("/tokens/:tokenId/status", ({ actor, params }) => service.status(parseTokenId(params.tokenId), actor.userId), { botActor: true, detail: jsonAnswer(botStatusSchema) });
};
