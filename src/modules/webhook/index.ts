// Webhook intake (API.md "Webhook intake", DESIGN.md "Details fixed"): the messenger posts an
// update here; it is forwarded to the bot process of that token. No database work on this path.
import { Elysia } from "elysia";
import type { AppContext } from "../../context";
import { jsonError } from "../../http/errors";
import { safeEqual } from "../../lib/crypto";
import { webhookPort, webhookSecret } from "../../bots/program";

const FORWARD_TIMEOUT_MS = 10_000;
const ID = /^\d{1,9}$/;

export const webhookRoutes = (ctx: AppContext) =>
  new Elysia().post(
    "/api/webhook/:projectId/:tokenId",
    async ({ params, request }) => {
      if (!ID.test(params.projectId) || !ID.test(params.tokenId)) return jsonError(400, "VALIDATION_FAILED", "projectId and tokenId must be numbers");
      const projectId = Number(params.projectId);
      const tokenId = Number(params.tokenId);
      const given = request.headers.get("x-telegram-bot-api-secret-token") ?? "";
      if (!safeEqual(given, webhookSecret(ctx.config.sessionSecret, projectId, tokenId))) return jsonError(401, "UNAUTHORIZED", "Missing or wrong webhook secret token");
      let status = 200;
      try {
        const res = await fetch(`http://127.0.0.1:${webhookPort(tokenId)}/webhook`, {
          method: "POST",
          headers: { "content-type": "application/json", "x-telegram-bot-api-secret-token": given },
          body: await request.arrayBuffer(),
          signal: AbortSignal.timeout(FORWARD_TIMEOUT_MS),
        });
        status = res.status;
        await res.arrayBuffer();
      } catch {
        // The bot is down or slow: answer 200 so the messenger does not redeliver (API.md).
        status = 200;
      }
      return new Response(null, { status });
    },
    // The body is forwarded as bytes; Elysia must not parse it.
    { parse: "none" },
  );
