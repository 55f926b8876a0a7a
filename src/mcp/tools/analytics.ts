// Analytics tools (docs/analytics.md): the same service as /api/bot/tokens/{id}/analytics and
// /analytics/nodes, with the same range rules and access checks.
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { BUCKETS, DEFAULT_DAYS, MAX_DAYS, MAX_HOURS, NODES_MAX_DAYS } from "../../modules/analytics/model";
import { AnalyticsService } from "../../modules/analytics/service";
import { defineTool, type ToolContext } from "../tool";

const tokenId = z.number().int().positive().describe("The bot token's id (list_tokens)");
const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
const from = day.optional().describe(`First day, YYYY-MM-DD (UTC); default ${DEFAULT_DAYS - 1} days before \`to\``);
const to = day.optional().describe("Last day, YYYY-MM-DD (UTC), included; default today");
const hours = z.number().int().min(1).max(MAX_HOURS).optional()
  .describe("Instead of from/to: the last this many hours, the current one included, by hour (24 = a true 24 hours); figures kept only per day cover the days it touches (range.from..range.to)");

export function analyticsTools(server: McpServer, tc: ToolContext) {
  const analytics = new AnalyticsService(tc.ctx);

  defineTool(server, tc, "bot_analytics", {
    title: "A bot's figures",
    description:
      `New and active users, messages in and out and blocks per hour or day over a range of days (at most ${MAX_DAYS.hour} by hour, ${MAX_DAYS.day} by day; ` +
      "longer ranges keep their most recent days and say range.clamped), the range's totals, and the top deep-link sources, languages, commands and buttons.",
    input: { tokenId, from, to, hours, bucket: z.enum(BUCKETS).optional().describe("hour or day (default day)") },
    readOnly: true,
  }, async (a) => (await analytics.figures(a.tokenId, tc.userId, { from: a.from, to: a.to, bucket: a.bucket, hours: a.hours?.toString() })) as unknown as Record<string, unknown>);

  defineTool(server, tc, "node_funnel", {
    title: "A bot's funnel",
    description:
      `Per node of the scenario: distinct users who reached it and visits, with its sheet; per transition (from → to): distinct users who followed it; over a range of days (at most ${NODES_MAX_DAYS}). ` +
      "A node's users minus the users of its outgoing transitions is where people stopped.",
    input: { tokenId, from, to, hours },
    readOnly: true,
  }, async (a) => (await analytics.nodes(a.tokenId, tc.userId, { from: a.from, to: a.to, hours: a.hours?.toString() })) as unknown as Record<string, unknown>);
}
