// Webhook intake (docs/api.md#webhook-intake, docs/bots.md#running-bots): the messenger posts an
// update here; it is forwarded to the bot process of that token. No database work on this path.
import { Elysia } from "elysia";
import type { AppContext } from "../../context";
import { jsonError } from "../../http/errors";
import { safeEqual } from "../../lib/crypto";
import { webhookPort, webhookSecret } from "../../bots/program";

const FORWARD_TIMEOUT_MS = 10_000;
/** How long an update waits for a bot that is (re)starting, e.g. right after a server restart. */
const STARTING_WAIT_MS = 10_000;
const ID = /^\d{1,9}$/;

async function forward(tokenId: number, secret: string, body: ArrayBuffer): Promise<number> {
  const res = await fetch(`http://127.0.0.1:${webhookPort(tokenId)}/webhook`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-telegram-bot-api-secret-token": secret },
    body,
    signal: AbortSignal.timeout(FORWARD_TIMEOUT_MS),
  });
  await res.arrayBuffer();
  return res.status;
}

export const webhookRoutes = (ctx: AppContext) => {
  /** Waits (bounded) while the token's bot counts as starting; true once it runs. */
  const runningSoon = async (tokenId: number) => {
    // Right after a restart the bots to resume are not marked starting yet (src/main.ts).
    await ctx.state.resumeBegun;
    const deadline = Date.now() + STARTING_WAIT_MS;
    while (ctx.bots.state(tokenId).status === "starting" && Date.now() < deadline) await Bun.sleep(100);
    return ctx.bots.state(tokenId).status === "running";
  };

  return new Elysia().post(
    "/api/webhook/:projectId/:tokenId",
    async ({ params, request }) => {
      if (!ID.test(params.projectId) || !ID.test(params.tokenId)) return jsonError(400, "VALIDATION_FAILED", "projectId and tokenId must be numbers");
      const projectId = Number(params.projectId);
      const tokenId = Number(params.tokenId);
      const given = request.headers.get("x-telegram-bot-api-secret-token") ?? "";
      if (!safeEqual(given, webhookSecret(ctx.config.sessionSecret, projectId, tokenId))) return jsonError(401, "UNAUTHORIZED", "Missing or wrong webhook secret token");
      const body = await request.arrayBuffer();
      let status = 200;
      try {
        status = await forward(tokenId, given, body);
      } catch {
        // A bot that is coming back (server restart, crash restart) gets the update once it runs.
        try {
          if (await runningSoon(tokenId)) status = await forward(tokenId, given, body);
        } catch {}
        // Otherwise the bot is down or slow: 200 so the messenger does not redeliver (docs/api.md).
      }
      return new Response(null, { status });
    },
    // The body is forwarded as bytes; Elysia must not parse it.
    { parse: "none" },
  );
};
