// API.md "Bot API: bot users" with DESIGN.md §4 paging. Actor rules of /api/bot/* apply.
import { Elysia } from "elysia";
import type { AppContext } from "../../context";
import { authPlugin } from "../../http/auth";
import { badRequest } from "../../http/errors";
import { parseIntQuery, parseTokenId } from "../../http/params";
import { DAILY_DAYS_DEFAULT, DAILY_DAYS_MAX, USERS_LIMIT_DEFAULT, USERS_LIMIT_MAX } from "./model";
import { BotUsersService } from "./service";


/** A messenger user id, bare or as `user_<id>` (the callback form bot-manager clients send). */
export function botUserIdParam(raw: string | undefined): string {
  const s = raw?.startsWith("user_") ? raw.slice(5) : raw;
  if (s === undefined || !/^\d{1,20}$/.test(s) || /^0+$/.test(s)) throw badRequest("userId must be a messenger user id or user_<id>");
  return s.replace(/^0+/, "");
}

export const botUserRoutes = (ctx: AppContext) => {
  const service = new BotUsersService(ctx);
  return new Elysia({ prefix: "/api/bot" })
    .use(authPlugin(ctx))
    .get(
      "/tokens/:tokenId/users",
      ({ actor, params, query }) => {
        const tokenId = parseTokenId(params.tokenId);
        const limit = parseIntQuery(query.limit, "limit", { default: USERS_LIMIT_DEFAULT, min: 1, max: USERS_LIMIT_MAX, clamp: true });
        const offset = parseIntQuery(query.offset, "offset", { default: 0, min: 0 });
        const search = typeof query.search === "string" ? query.search.slice(0, 100) : "";
        return service.list(tokenId, actor.userId, limit, offset, search);
      },
      { botActor: true },
    )
    .get(
      "/tokens/:tokenId/stats/daily",
      ({ actor, params, query }) => {
        const days = parseIntQuery(query.days, "days", { default: DAILY_DAYS_DEFAULT, min: 1, max: DAILY_DAYS_MAX, clamp: true });
        return service.daily(parseTokenId(params.tokenId), actor.userId, days);
      },
      { botActor: true, detail: { summary: "New users of a bot per UTC day (Studio chart)" } },
    )
    .get("/tokens/:tokenId/users/:userId", ({ actor, params }) => service.detail(parseTokenId(params.tokenId), actor.userId, botUserIdParam(params.userId)), {
      botActor: true,
    });
};
