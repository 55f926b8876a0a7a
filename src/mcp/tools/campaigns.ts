// Campaign tools (docs/campaigns.md): the same service as /api/bot/tokens/{id}/campaigns, with the
// same access checks (the token's project, owner or collaborator) and the same validation.
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { badRequest } from "../../errors";
import { createSchema, messageShape, TEST_USERS_MAX } from "../../modules/campaigns/model";
import { CampaignsService } from "../../modules/campaigns/service";
import { defineTool, type ToolContext } from "../tool";

const tokenId = z.number().int().positive().describe("The bot token's id (list_tokens)");
const campaignId = z.number().int().positive().describe("The campaign's id (create_campaign)");
// Plain shapes for the tool's JSON schema; the HTTP schemas (with their date parsing) check them.
const audience = z
  .record(z.string(), z.unknown())
  .optional()
  .describe('{ filter?: "all"|"active"|"inactive", activeWithinDays?, languages?, tags?, sources?, registeredFrom?, registeredTo?, userIds? }; every given part must hold; blocked users are always left out');

/** The HTTP door's schema, its first problem in words. */
function parsed<T>(schema: z.ZodType<T>, value: unknown): T {
  const r = schema.safeParse(value);
  if (!r.success) throw badRequest(r.error.issues.map((i) => `${i.path.join(".") || "input"}: ${i.message}`)[0] ?? "invalid input");
  return r.data;
}

export function campaignTools(server: McpServer, tc: ToolContext) {
  const campaigns = new CampaignsService(tc.ctx);

  defineTool(server, tc, "create_campaign", {
    title: "Create a campaign",
    description: "A message to an audience of a token's users, stored as a draft (or scheduled with scheduledAt, an ISO 8601 date-time, read in timeZone — an IANA zone, default UTC — without an offset). The answer includes the audience's current size. Nothing is sent until start_campaign (or the schedule).",
    input: { tokenId, name: z.string().min(1).max(100), message: messageShape.describe("{ text, format?, mediaId? (one file) or mediaIds? (an album of 2..10: photos and videos, or documents only, or audio only; no buttons), buttons? }"), audience, scheduledAt: z.string().optional(), timeZone: z.string().optional().describe("IANA time zone of the schedule, e.g. Europe/Moscow; default UTC") },
  }, async (a) => {
    const body = parsed(createSchema, { name: a.name, message: a.message, audience: a.audience, scheduledAt: a.scheduledAt, timeZone: a.timeZone });
    const c = await campaigns.create(a.tokenId, tc.userId, body);
    const { size } = await campaigns.audienceSize(a.tokenId, tc.userId, body.audience ?? {});
    return { ...c, currentAudienceSize: size };
  });

  defineTool(server, tc, "test_campaign", {
    title: "Send a campaign as a test",
    description: `Sends the campaign's message, rendered for each, to at most ${TEST_USERS_MAX} users (e.g. the owner) only: they are not recipients and are not counted.`,
    input: { tokenId, campaignId, userIds: z.array(z.string().regex(/^\d{1,20}$/)).min(1).max(TEST_USERS_MAX) },
  }, (a) => campaigns.test(a.tokenId, tc.userId, a.campaignId, a.userIds));

  defineTool(server, tc, "start_campaign", {
    title: "Start a campaign",
    description: "Fixes the audience and starts sending now, at the token's pace (the bot need not run). Every recipient gets it once, also across a server restart.",
    input: { tokenId, campaignId },
  }, (a) => campaigns.start(a.tokenId, tc.userId, a.campaignId));

  defineTool(server, tc, "pause_campaign", {
    title: "Pause or resume a campaign",
    description: "pause (default): no new send starts; resume: sending goes on; cancel: the campaign ends and its pending recipients are never sent.",
    input: { tokenId, campaignId, action: z.enum(["pause", "resume", "cancel"]).optional().describe("default pause") },
  }, (a) => campaigns[a.action ?? "pause"](a.tokenId, tc.userId, a.campaignId));

  defineTool(server, tc, "campaign_status", {
    title: "A campaign's status",
    description: "Status and counts (pending, sent, failed, blocked) of one campaign, with its failed recipients (first 50); without campaignId, the token's campaigns, newest first.",
    input: { tokenId, campaignId: campaignId.optional() },
    readOnly: true,
  }, async (a) => {
    if (a.campaignId === undefined) return (await campaigns.list(a.tokenId, tc.userId, 1, 50)) as unknown as Record<string, unknown>;
    const c = await campaigns.get(a.tokenId, tc.userId, a.campaignId);
    const failed = await campaigns.recipients(a.tokenId, tc.userId, a.campaignId, "failed", 1, 50);
    return { ...c, failed: failed.items, failedTotal: failed.total };
  });
}
