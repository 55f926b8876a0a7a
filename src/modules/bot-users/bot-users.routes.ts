// docs/api.md#bot-manager-api-apibot with docs/api.md#limits paging. Actor rules of /api/bot/* apply.
import { Elysia } from "elysia";
import { z } from "zod";
import type { AppContext } from "../../context";
import { authPlugin } from "../../http/auth";
import { badRequest } from "../../errors";
import { parseIntQuery, parseTokenId } from "../../http/params";
import { DAILY_DAYS_DEFAULT, DAILY_DAYS_MAX, USERS_LIMIT_DEFAULT, USERS_LIMIT_MAX } from "./model";
import { BotUsersService } from "./service";


/** A messenger user id, bare or as `user_<id>` (the callback form bot-manager clients send). */
export function botUserIdParam(raw: string | undefined): string {
  const s = raw?.startsWith("user_") ? raw.slice(5) : raw;
  if (s === undefined || !/^\d{1,20}$/.test(s) || /^0+$/.test(s)) throw badRequest("userId must be a messenger user id or user_<id>");
  return s.replace(/^0+/, "");
}

// Query documentation for OpenAPI; values are parsed by parseIntQuery (clean 400s), and other
// parameters (messenger_id, telegram_id) pass through to the actor rules.
const text = z.string().optional();
const usersQuery = z.looseObject({
  limit: text.describe(`page size, 1..${USERS_LIMIT_MAX} (larger is clamped), default ${USERS_LIMIT_DEFAULT}`),
  offset: text.describe("users to skip, default 0"),
  search: text.describe("a name or @username substring, or the exact user id"),
});
const dailyQuery = z.looseObject({ days: text.describe(`days back from today, 1..${DAILY_DAYS_MAX} (larger is clamped), default ${DAILY_DAYS_DEFAULT}`) });

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
      {
        botActor: true,
        detail: {
          summary: "Users of a bot, newest first (docs/api.md paging); `search` narrows to a name or @username substring or the exact id",
        },
        query: usersQuery,
      },
    )
    .get(
      "/tokens/:tokenId/stats/daily",
      ({ actor, params, query }) => {
        const days = parseIntQuery(query.days, "days", { default: DAILY_DAYS_DEFAULT, min: 1, max: DAILY_DAYS_MAX, clamp: true });
        return service.daily(parseTokenId(params.tokenId), actor.userId, days);
      },
      {
        botActor: true,
        detail: {
          summary: "New users of a bot per UTC day, oldest first: { items: [{ date: YYYY-MM-DD, newUsers }], count }",
        },
        query: dailyQuery,
      },
    )
    .get("/tokens/:tokenId/users/:userId", ({ actor, params }) => service.detail(parseTokenId(params.tokenId), actor.userId, botUserIdParam(params.userId)), {
      botActor: true,
    });
};
