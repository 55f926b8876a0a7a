// Shapes of the analytics answers (docs/analytics.md, docs/api.md "Analytics") and the rules of a
// range: dates in UTC, the last 30 days by default, long ranges cut to the most recent allowed.
import { z } from "zod";

export const BUCKETS = ["hour", "day"] as const;
export type Bucket = (typeof BUCKETS)[number];

/** Days a range spans by default (today included). */
export const DEFAULT_DAYS = 30;
/** The longest range per bucket; a longer one is cut to its most recent days and answered with `range.clamped`. */
export const MAX_DAYS: Record<Bucket, number> = { hour: 31, day: 366 };
/** The funnel has no buckets: a year at most, like the day series. */
export const NODES_MAX_DAYS = 366;
/** The longest rolling window, in hours (`hours`): as long as the longest range by hour. */
export const MAX_HOURS = MAX_DAYS.hour * 24;
/** The earliest date a range may name. */
export const EARLIEST_DATE = "2000-01-01";
/** Rows of each ranked table (sources, languages, commands, buttons), the largest first. */
export const TOP_ROWS = 100;

export const rangeSchema = z.object({
  from: z.string().describe("first day, YYYY-MM-DD (UTC); with `hours`, the first day the window touches: figures kept only per day (distinct active users of the totals, languages, sources, commands, buttons, the funnel) cover from..to"),
  to: z.string().describe("last day, YYYY-MM-DD (UTC), included"),
  clamped: z.boolean().describe("true when the asked range was longer than allowed and was cut to its most recent days"),
  hours: z.number().int().optional().describe("a rolling window of this many hours was asked for (`?hours=`)"),
  since: z.string().optional().describe("with `hours`: start of the window's first hour, ISO 8601 UTC; the series and the hourly totals cover since..until exactly"),
  until: z.string().optional().describe("with `hours`: end of the window (the end of the current hour), ISO 8601 UTC, excluded"),
});
export type Range = z.infer<typeof rangeSchema>;

const count = z.number().int().min(0);

export const seriesPointSchema = z.object({
  at: z.string().describe("start of the bucket, ISO 8601 UTC"),
  newUsers: count,
  activeUsers: count.describe("distinct users who wrote or pressed a button in the bucket"),
  messagesIn: count,
  messagesOut: count,
  blocked: count.describe("users who blocked the bot in the bucket"),
});

export const analyticsSchema = z.object({
  series: z.array(seriesPointSchema).describe("one entry per bucket of the range, empty ones included"),
  totals: z.object({
    users: count.describe("users the bot counted as new up to the end of the range"),
    activeUsers: count.describe("distinct users active in the range"),
    newUsers: count,
    messagesIn: count,
    messagesOut: count,
    blocked: count,
  }),
  sources: z.array(z.object({ source: z.string(), users: count })).describe("new users by the deep-link parameter of their first /start"),
  languages: z.array(z.object({ language: z.string().describe('"" when the messenger did not say'), users: count })).describe("active users by language"),
  commands: z.array(z.object({ command: z.string(), count })),
  buttons: z.array(z.object({ text: z.string(), nodeId: z.string(), count })),
  range: rangeSchema.extend({ bucket: z.enum(BUCKETS) }),
});
export type Analytics = z.infer<typeof analyticsSchema>;

export const nodeAnalyticsSchema = z.object({
  items: z.array(z.object({
    nodeId: z.string(),
    sheetId: z.string().nullable().describe("the sheet holding the node now; null for a node no longer in the scenario"),
    users: count.describe("distinct users who reached the node in the range"),
    visits: count,
  })),
  edges: z.array(z.object({ from: z.string(), to: z.string(), users: count.describe("distinct users who followed the transition in the range") })),
  range: rangeSchema,
});
export type NodeAnalytics = z.infer<typeof nodeAnalyticsSchema>;
