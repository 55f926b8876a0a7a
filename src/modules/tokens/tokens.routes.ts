// API.md "Bot API: tokens" plus EXTENSIONS.md's token PATCH. Actor rules of /api/bot/* apply.
import { Elysia } from "elysia";
import type { AppContext } from "../../context";
import { authPlugin } from "../../http/auth";
import { parseProjectId, parseTokenId } from "../../http/params";
import { tokenCreateSchema, tokenPatchSchema } from "./model";


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
      { botActor: true },
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
    .get("/tokens/:tokenId/status", ({ actor, params }) => service.status(parseTokenId(params.tokenId), actor.userId), { botActor: true });
};
