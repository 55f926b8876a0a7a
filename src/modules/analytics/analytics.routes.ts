// The analytics routes (docs/analytics.md, docs/api.md "Analytics"). Actor rules of /api/bot/*
// apply: session, PAT, or a bot_manager PAT with messenger_id; project members only.
import { Elysia } from "elysia";
import { z } from "zod";
import type { AppContext } from "../../context";
import { authPlugin } from "../../http/auth";
import { jsonAnswer } from "../../http/openapi-answer";
import { parseEnumQuery, parseTokenId } from "../../http/params";
import { analyticsSchema, BUCKETS, DEFAULT_DAYS, MAX_DAYS, MAX_HOURS, nodeAnalyticsSchema, NODES_MAX_DAYS } from "./model";
import { AnalyticsService } from "./service";

const text = z.string().optional();
const from = text.describe(`first day, YYYY-MM-DD (UTC); default ${DEFAULT_DAYS - 1} days before \`to\``);
const to = text.describe("last day, YYYY-MM-DD (UTC), included; default today");
const hours = text.describe(`a rolling window of the last 1..${MAX_HOURS} hours, the current one included, instead of from/to (by hour); figures kept only per day cover the days it touches (range.from..range.to)`);
const figuresQuery = z.looseObject({
  from,
  to,
  hours,
  bucket: text.describe(`${BUCKETS.join(" | ")} (default day); at most ${MAX_DAYS.hour} days by hour, ${MAX_DAYS.day} by day, longer ranges keep their most recent days (range.clamped)`),
});
const nodesQuery = z.looseObject({ from, to: to.describe(`last day, YYYY-MM-DD (UTC), included; default today; at most ${NODES_MAX_DAYS} days`), hours: hours.describe("the days a rolling window of this many hours touches (the funnel is kept per day)") });

export const analyticsRoutes = (ctx: AppContext) => {
  const service = new AnalyticsService(ctx);
  const str = (v: unknown) => (typeof v === "string" ? v : undefined);
  return new Elysia({ prefix: "/api/bot/tokens/:tokenId/analytics" })
    .use(authPlugin(ctx))
    .get(
      "",
      ({ actor, params, query }) =>
        service.figures(parseTokenId(params.tokenId), actor.userId, { from: str(query.from), to: str(query.to), bucket: parseEnumQuery(query.bucket, BUCKETS, "bucket"), hours: str(query.hours) }),
      { botActor: true, query: figuresQuery, detail: { summary: "A bot's figures over a range of days: series per bucket, totals, sources, languages, commands, buttons", ...jsonAnswer(analyticsSchema) } },
    )
    .get(
      "/nodes",
      ({ actor, params, query }) => service.nodes(parseTokenId(params.tokenId), actor.userId, { from: str(query.from), to: str(query.to), hours: str(query.hours) }),
      { botActor: true, query: nodesQuery, detail: { summary: "The funnel: distinct users and visits per node, distinct users per transition, over a range of days", ...jsonAnswer(nodeAnalyticsSchema) } },
    );
};
