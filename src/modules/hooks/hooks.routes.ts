// Inbound webhooks (docs/hooks.md, docs/api.md "Inbound webhooks"): the public POST /api/hooks/<id>,
// authenticated by the hook's secret only, and the project's list of hooks and their secrets.
import { Elysia } from "elysia";
import type { AppContext } from "../../context";
import { authPlugin } from "../../http/auth";
import { badRequest } from "../../errors";
import { jsonAnswer } from "../../http/openapi-answer";
import { parsePositiveId } from "../../http/params";
import { clientAddress } from "../../http/rate-limit";
import { hookListSchema, hookSecretAnswerSchema } from "./model";
import { HooksService, secretOf } from "./service";

/** Node ids are the scenario's own strings; a path segment of one stays short and printable. */
export function nodeIdParam(raw: string | undefined): string {
  if (!raw || raw.length > 200 || /[\u0000-\u001f]/.test(raw)) throw badRequest("nodeId is malformed");
  return raw;
}

export const hookRoutes = (ctx: AppContext) => {
  const service = new HooksService(ctx);
  return new Elysia()
    .post(
      "/api/hooks/:hookId",
      async ({ params, request, server }) => {
        const answer = await service.receive({
          hookId: params.hookId,
          secret: secretOf(request.headers),
          contentType: request.headers.get("content-type") ?? "",
          contentLength: request.headers.get("content-length"),
          address: clientAddress(server, request, ctx.config.trustedProxies),
          idempotencyKey: request.headers.get("idempotency-key"),
          body: request.body,
        });
        const headers: Record<string, string> = { "content-type": answer.contentType };
        if (answer.replayed) headers["idempotent-replayed"] = "true";
        return new Response(answer.body, { status: answer.status, headers });
      },
      // The service reads the body itself, capped at 1 MB and after the secret is checked.
      { parse: "none", detail: { summary: "Run a webhook_trigger node's flow for the user the body names (secret in X-Botloom-Secret or Authorization: Bearer; an Idempotency-Key runs the flow once a day; docs/hooks.md)" } },
    )
    .use(authPlugin(ctx))
    .get(
      "/api/projects/:id/hooks",
      async ({ actor, params }) => {
        const items = await service.list(parsePositiveId(params.id, "id"), actor.userId);
        return { items, count: items.length };
      },
      { user: true, detail: { summary: "The webhook_trigger nodes of the saved scenario and their URLs (never a secret)", ...jsonAnswer(hookListSchema) } },
    )
    .post(
      "/api/projects/:id/hooks/:nodeId/secret",
      async ({ actor, params, set }) => {
        const answer = await service.newSecret(parsePositiveId(params.id, "id"), actor.userId, nodeIdParam(params.nodeId));
        set.status = 201;
        return answer;
      },
      // The answer holds the raw secret: nothing on this path may log the response body.
      { user: true, detail: { summary: "A new secret for a webhook_trigger node (its URL is made on the first call); the old secret stops working", responses: { 201: jsonAnswer(hookSecretAnswerSchema, "Created").responses[200] } } },
    );
};
