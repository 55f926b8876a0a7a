// docs/api.md#bot-manager-api-apibot with docs/api.md#limits paging. Actor rules of /api/bot/* apply.
import { Elysia } from "elysia";
import { z } from "zod";
import type { AppContext } from "../../context";
import { authPlugin } from "../../http/auth";
import { badRequest } from "../../errors";
import { jsonAnswer } from "../../http/openapi-answer";
import { parseEnumQuery, parseIntQuery, parseTokenId } from "../../http/params";
import { botUserFullSchema, botUserPageSchema, DAILY_DAYS_DEFAULT, DAILY_DAYS_MAX, PAYMENTS_LIMIT_DEFAULT, PAYMENTS_LIMIT_MAX, paymentsPageSchema, USERS_LIMIT_DEFAULT, USERS_LIMIT_MAX } from "./model";
import { BotUsersService } from "./service";
import { FACETS_TOP, facetsSchema, PEOPLE_FILTERS, PEOPLE_SORTS, type PeopleFilter } from "./model";
import { PeopleService } from "./people";


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
  filter: text.describe(PEOPLE_FILTERS.join(" | ") + " (docs/dialogs.md)"),
  language: text.describe("language code, e.g. en"),
  tag: text.describe("one tag"),
  source: text.describe("the /start parameter of the user's first start"),
  sort: text.describe(PEOPLE_SORTS.join(" | ") + " (default: newest sign-ups first)"),
});

const tagsBody = z.strictObject({
  tags: z.array(z.string().trim().min(1, "a tag is 1..32 characters").max(32, "a tag is 1..32 characters"), { error: "tags must be an array of strings" }).max(20, "at most 20 tags"),
});


const short = (raw: unknown) => (typeof raw === "string" && raw !== "" ? raw.slice(0, 64) : undefined);

/** The people filters of the list and the export (docs/dialogs.md). */
function peopleFilter(query: Record<string, unknown>): PeopleFilter {
  return {
    search: typeof query.search === "string" ? query.search.slice(0, 100) : "",
    filter: parseEnumQuery(query.filter, PEOPLE_FILTERS, "filter"),
    language: short(query.language),
    tag: short(query.tag),
    source: short(query.source),
    sort: parseEnumQuery(query.sort, PEOPLE_SORTS, "sort"),
  };
}
const paymentsQuery = z.looseObject({ limit: text.describe(`how many, newest first, 1..${PAYMENTS_LIMIT_MAX} (larger is clamped), default ${PAYMENTS_LIMIT_DEFAULT}`) });
const dailyQuery = z.looseObject({ days: text.describe(`days back from today, 1..${DAILY_DAYS_MAX} (larger is clamped), default ${DAILY_DAYS_DEFAULT}`) });

export const botUserRoutes = (ctx: AppContext) => {
  const service = new BotUsersService(ctx);
  const people = new PeopleService(ctx);
  return new Elysia({ prefix: "/api/bot" })
    .use(authPlugin(ctx))
    .get(
      "/tokens/:tokenId/users",
      ({ actor, params, query }) => {
        const tokenId = parseTokenId(params.tokenId);
        const limit = parseIntQuery(query.limit, "limit", { default: USERS_LIMIT_DEFAULT, min: 1, max: USERS_LIMIT_MAX, clamp: true });
        const offset = parseIntQuery(query.offset, "offset", { default: 0, min: 0 });
        const f = peopleFilter(query);
        if (f.filter || f.language || f.tag || f.source || f.sort) return people.list(tokenId, actor.userId, f, limit, offset);
        return service.list(tokenId, actor.userId, limit, offset, f.search);
      },
      {
        botActor: true,
        detail: {
          summary: "Users of a bot, newest first (docs/api.md paging); `search` narrows to a name or @username substring or the exact id",
          ...jsonAnswer(botUserPageSchema),
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
    .get(
      "/tokens/:tokenId/users/export",
      ({ actor, params, query, set }) => {
        const csv = people.csv(parseTokenId(params.tokenId), actor.userId, peopleFilter(query));
        set.headers["content-type"] = "text/csv; charset=utf-8";
        set.headers["content-disposition"] = `attachment; filename="users-${parseTokenId(params.tokenId)}.csv"`;
        return csv;
      },
      { botActor: true, query: usersQuery, detail: { summary: "The users as CSV (the list's filters): fixed columns, then one per variable" } },
    )
    .get(
      "/tokens/:tokenId/users/facets",
      ({ actor, params }) => people.facets(parseTokenId(params.tokenId), actor.userId),
      {
        botActor: true,
        detail: {
          summary: `The tags, languages and sources of a bot's users with how many carry each (blocked users left out), most first, at most ${FACETS_TOP} of each`,
          ...jsonAnswer(facetsSchema),
        },
      },
    )
    .get(
      "/tokens/:tokenId/users/:userId",
      async ({ actor, params }) => {
        const tokenId = parseTokenId(params.tokenId);
        const userId = botUserIdParam(params.userId);
        const detail = await service.detail(tokenId, actor.userId, userId);
        return { ...detail, ...people.fields(tokenId, actor.userId, userId) };
      },
      { botActor: true, detail: { summary: "A user of a bot: the detail plus language, premium, blocked, source, referrer, tags, seen times, message counts, takeover", ...jsonAnswer(botUserFullSchema) } },
    )
    .get(
      "/tokens/:tokenId/users/:userId/payments",
      ({ actor, params, query }) => {
        const limit = parseIntQuery(query.limit, "limit", { default: PAYMENTS_LIMIT_DEFAULT, min: 1, max: PAYMENTS_LIMIT_MAX, clamp: true });
        return people.payments(parseTokenId(params.tokenId), actor.userId, botUserIdParam(params.userId), limit);
      },
      { botActor: true, query: paymentsQuery, detail: { summary: "A user's Stars payments, newest first: charge ids, amount, payload, paid or refunded", ...jsonAnswer(paymentsPageSchema) } },
    )
    .put(
      "/tokens/:tokenId/users/:userId/tags",
      ({ actor, params, body }) => people.tags(parseTokenId(params.tokenId), actor.userId, botUserIdParam(params.userId), body.tags),
      { botActor: true, body: tagsBody, detail: { summary: "Replace a user's tags", ...jsonAnswer(z.object({ userId: z.string(), tags: z.array(z.string()) })) } },
    )
    .delete(
      "/tokens/:tokenId/users/:userId",
      ({ actor, params }) => people.remove(parseTokenId(params.tokenId), actor.userId, botUserIdParam(params.userId)),
      { botActor: true, detail: { summary: "Remove a user: the record, variables, state, person, chat and messages", ...jsonAnswer(z.object({ success: z.literal(true) })) } },
    );
};
