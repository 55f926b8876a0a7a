// Shapes of the campaign endpoints (docs/campaigns.md, docs/api.md "Campaigns"). A campaign's
// message is what an operator sends in Dialogs (same fields, same limits), so its schema is that one.
import { z } from "zod";
import type { CampaignStatus, RecipientStatus } from "../../db/project-schema";
import { sendSchema } from "../dialogs/model";
import { isTimeZone, wallToInstant } from "../../lib/zoned-time";
import type { CampaignRow, NamedRecipient } from "./queries";

export const CAMPAIGN_STATUSES = ["draft", "scheduled", "sending", "paused", "done", "cancelled"] as const satisfies readonly CampaignStatus[];
/** What the recipients list filters on: `sending` (in flight) is listed with `pending`. */
export const RECIPIENT_FILTERS = ["pending", "sent", "failed"] as const satisfies readonly RecipientStatus[];
export const TEST_USERS_MAX = 10;
export const NAME_MAX = 100;
/** Lists in an audience: enough for a hand-picked segment, bounded for one statement's parameters. */
export const AUDIENCE_LIST_MAX = 100;
export const USER_IDS_MAX = 10_000;

const userId = z.string().regex(/^\d{1,20}$/, "a user id is a positive integer, as a string");
const listOf = (what: string, max: number, item: z.ZodType<string> = z.string().trim().min(1, `a ${what} must not be empty`).max(64, `a ${what} is at most 64 characters`)) =>
  z.array(item).max(max, `at most ${max} ${what}s`).optional();
/** A schedule as typed: without an offset it is read in the campaign's time zone, by the service. */
const when = (name: string) => z.string().refine((s) => isInstant(s), `${name} must be an ISO 8601 date-time (in the campaign's timeZone unless it names an offset)`);
export const timeZoneSchema = z.string({ error: "timeZone must be an IANA time zone such as Europe/Moscow" }).refine(isTimeZone, "timeZone must be an IANA time zone such as Europe/Moscow, or UTC");
const instant = (name: string) =>
  z
    .string()
    .refine((s) => isInstant(s), `${name} must be an ISO 8601 date-time (UTC unless it names an offset)`)
    .transform((s) => toInstant(s));

/** ISO 8601 date or date-time (the offset, when there is none, is the caller's: docs/campaigns.md#schedules). */
export function isInstant(s: string): boolean {
  return /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/.test(s) && !Number.isNaN(Date.parse(zoned(s)));
}
function zoned(s: string): string {
  if (s.length === 10) return s + "T00:00:00Z";
  const t = s.replace(" ", "T");
  return /(Z|[+-]\d{2}:?\d{2})$/.test(t) ? t : t + "Z";
}
export const toInstant = (s: string) => new Date(zoned(s)).toISOString();
/** A schedule's instant: its own offset, or else its wall time in the zone. */
export const instantIn = (s: string, zone: string) => (/(Z|[+-]\d{2}:?\d{2})$/.test(s) ? toInstant(s) : (wallToInstant(s, zone) ?? toInstant(s)));

export const audienceSchema = z.strictObject({
  filter: z.enum(["all", "active", "inactive"], { error: "filter must be all, active or inactive" }).optional(),
  activeWithinDays: z.number({ error: "activeWithinDays must be an integer 1..3650" }).int("activeWithinDays must be an integer 1..3650").min(1, "activeWithinDays must be 1..3650").max(3650, "activeWithinDays must be 1..3650").optional(),
  languages: listOf("language", AUDIENCE_LIST_MAX),
  tags: listOf("tag", AUDIENCE_LIST_MAX),
  sources: listOf("source", AUDIENCE_LIST_MAX),
  registeredFrom: instant("registeredFrom").optional(),
  registeredTo: instant("registeredTo").optional(),
  userIds: listOf("user id", USER_IDS_MAX, userId),
});
export type Audience = z.output<typeof audienceSchema>;
/** "active" without a number of days means seen within the last 30. */
export const ACTIVE_DAYS_DEFAULT = 30;

/** Telegram's sendMediaGroup takes 2..10 items (docs/campaigns.md#albums). */
export const ALBUM_MIN = 2;
export const ALBUM_MAX = 10;
/** The message's fields, for a JSON schema (MCP); messageSchema adds the rules across fields. */
export const messageShape = sendSchema.extend({
  mediaIds: z
    .array(z.number({ error: "mediaIds must be integers" }).int("mediaIds must be integers").positive("mediaIds must be positive"), { error: "mediaIds must be an array of media ids" })
    .min(ALBUM_MIN, `an album has ${ALBUM_MIN}..${ALBUM_MAX} media files`)
    .max(ALBUM_MAX, `an album has ${ALBUM_MIN}..${ALBUM_MAX} media files`)
    .refine((ids) => new Set(ids).size === ids.length, "mediaIds: a media file is in the album once")
    .optional(),
});
export const messageSchema = messageShape.superRefine((m, ctx) => {
  if (m.mediaIds && m.mediaId !== undefined) ctx.addIssue({ code: "custom", path: ["mediaIds"], message: "a message has mediaId (one file) or mediaIds (an album), not both" });
  // Telegram cannot put an inline keyboard under a media group (docs/campaigns.md#albums)
  if (m.mediaIds && m.buttons?.length) ctx.addIssue({ code: "custom", path: ["buttons"], message: "an album (mediaIds) cannot carry buttons: Telegram attaches no keyboard to a media group" });
});
export type CampaignMessage = z.output<typeof messageSchema>;

/** What an album of these media kinds breaks of Telegram's media group rules, or null. */
export function albumProblem(kinds: string[]): string | null {
  const group = (k: string) => (k === "photo" || k === "video" ? "photos and videos" : k === "audio" ? "audio" : "documents");
  const groups = new Set(kinds.map(group));
  if (groups.size <= 1) return null;
  return `an album holds photos and videos (mixed), or documents only, or audio only; this one mixes ${[...groups].join(" and ")}`;
}

const name = z.string().trim().min(1, "name must not be empty").max(NAME_MAX, `name is at most ${NAME_MAX} characters`);
export const createSchema = z.strictObject({
  name,
  message: messageSchema,
  audience: audienceSchema.optional(),
  scheduledAt: when("scheduledAt").optional(),
  /** the IANA zone the schedule is typed and shown in; default UTC */
  timeZone: timeZoneSchema.optional(),
});
export type CreateBody = z.output<typeof createSchema>;

export const patchSchema = z.strictObject({
  name: name.optional(),
  message: messageSchema.optional(),
  audience: audienceSchema.optional(),
  /** null takes a scheduled campaign back to draft */
  scheduledAt: when("scheduledAt").nullable().optional(),
  timeZone: timeZoneSchema.optional(),
});
export type PatchBody = z.output<typeof patchSchema>;

export const testSchema = z.strictObject({
  userIds: z.array(userId).min(1, "name at least one user").max(TEST_USERS_MAX, `a test goes to at most ${TEST_USERS_MAX} users`),
});

// The answers, for OpenAPI (the Studio's types are generated from it) and the service's types.
const int = z.number().int();
/** `blocked`, `deactivated`, `unknown` (in flight at a crash): the failures by reason; the rest of `failed` are other errors. */
export const countsSchema = z.object({ pending: int, sent: int, failed: int, blocked: int, deactivated: int, unknown: int });
export type Counts = z.output<typeof countsSchema>;

export const campaignViewSchema = z.object({
  id: int,
  tokenId: int,
  name: z.string(),
  status: z.enum(CAMPAIGN_STATUSES),
  message: z.object({
    text: z.string(),
    format: z.enum(["none", "html", "markdown"]).optional(),
    mediaId: int.optional(),
    /** an album: 2..10 of the project's media files, the text the first one's caption */
    mediaIds: z.array(int).optional(),
    buttons: z.array(z.array(z.object({ text: z.string(), url: z.string().optional(), goto: z.string().optional() }))).optional(),
  }),
  audience: z.object({
    filter: z.enum(["all", "active", "inactive"]).optional(),
    activeWithinDays: int.optional(),
    languages: z.array(z.string()).optional(),
    tags: z.array(z.string()).optional(),
    sources: z.array(z.string()).optional(),
    registeredFrom: z.string().optional(),
    registeredTo: z.string().optional(),
    userIds: z.array(z.string()).optional(),
  }),
  /** fixed when sending starts; null before */
  audienceSize: int.nullable(),
  scheduledAt: z.string().nullable(),
  /** the IANA zone the Studio types and shows the schedule in (scheduledAt itself is an instant) */
  timeZone: z.string(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  /** when delete-sent last ran, or null */
  sentDeletedAt: z.string().nullable(),
  counts: countsSchema,
  source: z.enum(["api", "scenario"]),
  /** source "scenario": the message node its broadcast node sends (its name names the broadcast node) */
  nodeId: z.string().nullable(),
  createdBy: int.nullable(),
  createdAt: z.string(),
});
export type CampaignView = z.output<typeof campaignViewSchema>;

export const campaignPageSchema = z.object({ items: z.array(campaignViewSchema), total: int, page: int, perPage: int });
export const recipientViewSchema = z.object({
  userId: z.string(),
  /** the user's names as the bot last saw them; null when the user is no longer recorded */
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  username: z.string().nullable(),
  status: z.enum(["pending", "sending", "sent", "failed"]),
  /** failed: "blocked", "deactivated", "unknown" (in flight at a crash) or the messenger's words */
  error: z.string().nullable(),
  sentAt: z.string().nullable(),
  /** when delete-sent removed the message from the chat; null before, and for one the messenger would not delete (it stays) */
  deletedAt: z.string().nullable(),
});
export const recipientPageSchema = z.object({ items: z.array(recipientViewSchema), total: int, page: int, perPage: int });
export const audienceSizeSchema = z.object({ size: int });
export const testAnswerSchema = z.object({ sent: int, failed: int });
export const successSchema = z.object({ success: z.literal(true) });

const parse = <T>(raw: string, fallback: T): T => {
  try {
    return JSON.parse(raw) as T;
  } catch {
    return fallback;
  }
};

export function campaignView(r: CampaignRow, counts: Counts, timeZone: string): CampaignView {
  return {
    id: r.id,
    tokenId: r.tokenId,
    name: r.name,
    status: r.status,
    message: parse(r.message, { text: "" }),
    audience: parse(r.audience, {}),
    audienceSize: r.audienceSize,
    scheduledAt: r.scheduledAt,
    timeZone,
    startedAt: r.startedAt,
    finishedAt: r.finishedAt,
    sentDeletedAt: r.sentDeletedAt,
    counts,
    source: r.source,
    nodeId: r.nodeId,
    createdBy: r.createdBy,
    createdAt: r.createdAt,
  };
}

export const recipientView = (r: NamedRecipient) => ({ userId: r.userId, firstName: r.firstName, lastName: r.lastName, username: r.username, status: r.status, error: r.error, sentAt: r.sentAt, deletedAt: r.deletedAt });
