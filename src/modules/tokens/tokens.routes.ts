// docs/api.md#bot-manager-api-apibot plus docs/api.md's token PATCH. Actor rules of /api/bot/* apply.
import { Elysia } from "elysia";
import type { AppContext } from "../../context";
import { authPlugin } from "../../http/auth";
import { parseProjectId, parseTokenId } from "../../http/params";
import { jsonAnswer } from "../../http/openapi-answer";
import { botProfileAnswerSchema, botProfileSchema, botStatusSchema, tokenCreateSchema, tokenListItemSchema, tokenPatchSchema } from "./model";
import { setBotPhoto, setBotProfile } from "./profile";
import { badRequest } from "../../errors";

/** The `file` part of the photo upload. */
async function photoPart(request: Request): Promise<File> {
  if (!/^multipart\/form-data\b/i.test(request.headers.get("content-type") ?? "")) throw badRequest("Send the photo as multipart/form-data in the field `file`");
  const form = await request.formData().catch(() => null);
  const file = form?.get("file");
  if (!(file instanceof File)) throw badRequest("The multipart field `file` must carry the photo");
  return file;
}
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
    .put("/tokens/:tokenId/profile", ({ actor, params, body }) => setBotProfile(ctx, parseTokenId(params.tokenId), actor.userId, body), {
      botActor: true,
      body: botProfileSchema,
      detail: jsonAnswer(botProfileAnswerSchema),
    })
    .put("/tokens/:tokenId/profile/photo", ({ actor, params, request }) => setBotPhoto(ctx, parseTokenId(params.tokenId), actor.userId, () => photoPart(request)), { botActor: true, parse: "none" })
    .delete("/tokens/:tokenId/profile/photo", ({ actor, params }) => setBotPhoto(ctx, parseTokenId(params.tokenId), actor.userId, null), { botActor: true })
    .get("/tokens/:tokenId/photo", ({ actor, params }) => service.photo(parseTokenId(params.tokenId), actor.userId), { botActor: true })
    .get("/tokens/:tokenId/stats", ({ actor, params }) => service.stats(parseTokenId(params.tokenId), actor.userId), { botActor: true })
    .get("/tokens/:tokenId/status", ({ actor, params }) => service.status(parseTokenId(params.tokenId), actor.userId), { botActor: true, detail: jsonAnswer(botStatusSchema) });
};
