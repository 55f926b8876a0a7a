// docs/api.md#running-bots: start/stop/restart a token's bot, and the older platform's
// project-level spellings that bot-manager clients still call.
import { Elysia } from "elysia";
import { z } from "zod";
import type { AppContext } from "../../context";
import { authPlugin } from "../../http/auth";
import { badRequest, notFound, toAppError } from "../../errors";
import { parseTokenId } from "../../http/params";
import { memberProjectId } from "../projects/member";

type Action = "start" | "stop" | "restart";

const compatBody = z.object({ tokenId: z.union([z.number().int().positive(), z.string().regex(/^(token_)?\d{1,9}$/)]).optional() }).loose().optional();

const MESSAGES: Record<Action, string> = { start: "Bot started", stop: "Bot stopped", restart: "Bot restarted" };

export const botLifecycleRoutes = (ctx: AppContext) => {
  const tokens = ctx.tokens;
  // the runtime's refusals (BotError) reach the error handler, which answers them (src/errors.ts)
  const run = (action: Action, tokenId: number) =>
    action === "start" ? ctx.bots.start(tokenId) : action === "stop" ? ctx.bots.stop(tokenId) : ctx.bots.restart(tokenId);

  const tokenAction = (action: Action) => async ({ actor, params }: { actor: { userId: number }; params: { tokenId: string } }) => {
    const tokenId = parseTokenId(params.tokenId);
    tokens.access.require(tokenId, actor.userId);
    await run(action, tokenId);
    return tokens.status(tokenId, actor.userId);
  };

  const projectAction =
    (action: Action) =>
    async ({ actor, params, body }: { actor: { userId: number }; params: { id: string }; body: z.infer<typeof compatBody> }) => {
      const projectId = memberProjectId(ctx, params.id, actor.userId);
      let tokenId: number;
      if (body?.tokenId !== undefined) {
        tokenId = parseTokenId(String(body.tokenId));
        const t = tokens.access.find(tokenId);
        if (!t || t.projectId !== projectId) throw notFound("This project has no such token");
      } else {
        tokenId = tokens.requireFirst(projectId).id;
      }
      try {
        const state = await run(action, tokenId);
        return { message: MESSAGES[action], tokenId, status: state.status };
      } catch (e) {
        // Those clients expect 400, not 409, for "already running".
        if (toAppError(e)?.status === 409) throw badRequest(toAppError(e)!.message);
        throw e;
      }
    };

  const app = new Elysia().use(authPlugin(ctx));
  for (const action of ["start", "stop", "restart"] as const) {
    app.post(`/api/bot/tokens/:tokenId/${action}`, tokenAction(action), { botActor: true });
    // These spellings come from bot-manager clients, so the bot API's actor rules apply (messenger_id / telegram_id).
    app.post(`/api/projects/:id/bot/${action}`, projectAction(action), { botActor: true, body: compatBody });
  }
  return app;
};
