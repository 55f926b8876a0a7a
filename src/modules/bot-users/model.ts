// Shapes of docs/api.md#bot-manager-api-apibot and the paging of docs/api.md#limits.
import { z } from "zod";
export const USERS_LIMIT_DEFAULT = 10;
export const USERS_LIMIT_MAX = 50;

/** docs/api.md's list item, plus what the message store knows (docs/dialogs.md "The people of a bot"). */
export const botUserListItemSchema = z.object({
  userId: z.string(),
  firstName: z.string(),
  /** "" when the messenger gave none; two users of one first name are told apart by it */
  lastName: z.string(),
  userName: z.string(),
  blocked: z.boolean(),
  /** an operator holds the user's private chat */
  takeover: z.boolean(),
  tags: z.array(z.string()),
});
export type BotUserListItem = z.infer<typeof botUserListItemSchema>;

export const botUserPageSchema = z.object({
  items: z.array(botUserListItemSchema),
  count: z.number().int(),
  nextOffset: z.number().int().nullable(),
  prevOffset: z.number().int().nullable(),
  fromItem: z.number().int(),
  toItem: z.number().int(),
});
export type BotUserPage = z.infer<typeof botUserPageSchema>;

/** docs/api.md detail plus the fields bot-manager clients render (userName, lastInteraction, interactionCount). */
export const botUserDetailSchema = z.object({
  userId: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  userName: z.string(),
  registeredAt: z.string(),
  lastInteraction: z.string(),
  interactionCount: z.number().int(),
  /** `/uploads/...` path, "" without an avatar */
  photoUrl: z.string(),
  /** What the bot stored about the user (scenario variables); {} when none or unreadable. */
  variables: z.record(z.string(), z.unknown()),
});
export type BotUserDetail = z.infer<typeof botUserDetailSchema>;

/** What the message store knows of a person (docs/dialogs.md), added to the detail. */
export const personFieldsSchema = z.object({
  languageCode: z.string().nullable(),
  isPremium: z.boolean(),
  blocked: z.boolean(),
  blockedAt: z.string().nullable(),
  source: z.string().nullable(),
  referrerId: z.string().nullable(),
  tags: z.array(z.string()),
  firstSeenAt: z.string().nullable(),
  lastSeenAt: z.string().nullable(),
  messagesIn: z.number().int(),
  messagesOut: z.number().int(),
  takeover: z.boolean(),
});
export type PersonFields = z.infer<typeof personFieldsSchema>;

export const botUserFullSchema = botUserDetailSchema.extend(personFieldsSchema.shape);

export const PAYMENTS_LIMIT_DEFAULT = 50;
export const PAYMENTS_LIMIT_MAX = 200;

/** A Stars payment the bot received (docs/nodes/payments.md): Telegram's charge ids, Stars, the invoice payload. */
export const paymentSchema = z.object({
  chargeId: z.string(),
  providerChargeId: z.string().nullable(),
  amount: z.number().int(),
  currency: z.string(),
  payload: z.string(),
  status: z.enum(["paid", "refunded"]),
  paidAt: z.string(),
  refundedAt: z.string().nullable(),
});
export const paymentsPageSchema = z.object({ items: z.array(paymentSchema), total: z.number().int() });
export type PaymentsPage = z.infer<typeof paymentsPageSchema>;

export const DAILY_DAYS_DEFAULT = 14;
export const DAILY_DAYS_MAX = 90;

/** GET /api/bot/tokens/{tokenId}/stats/daily: new users per UTC day (`date` is YYYY-MM-DD). */
export interface DailyNewUsers {
  items: { date: string; newUsers: number }[];
  count: number;
}

export function parseVariables(raw: string | null): Record<string, unknown> {
  try {
    const v = JSON.parse(raw ?? "{}");
    return v && typeof v === "object" && !Array.isArray(v) ? v : {};
  } catch {
    return {};
  }
}

/** docs/api.md#limits paging: positions are 1-based, both 0 on an empty page. */
export function pageInfo(count: number, offset: number, limit: number, pageSize: number) {
  return {
    count,
    nextOffset: offset + limit < count ? offset + limit : null,
    prevOffset: offset > 0 ? Math.max(0, offset - limit) : null,
    fromItem: pageSize > 0 ? offset + 1 : 0,
    toItem: pageSize > 0 ? offset + pageSize : 0,
  };
}

/** "DD.MM.YYYY HH:MM" in UTC; "" for a timestamp that does not parse. */
export function formatDateTime(iso: string | null | undefined): string {
  // SQLite's own `datetime('now')` form has no zone marker but is UTC as well.
  const s = iso && /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(iso) ? `${iso.replace(" ", "T")}Z` : iso;
  const t = s ? Date.parse(s) : NaN;
  if (Number.isNaN(t)) return "";
  const d = new Date(t);
  const p = (n: number) => String(n).padStart(2, "0");
  return `${p(d.getUTCDate())}.${p(d.getUTCMonth() + 1)}.${d.getUTCFullYear()} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}`;
}

/** A user seen within this many days counts as active. */
export const ACTIVE_DAYS = 30;

export const PEOPLE_FILTERS = ["active", "inactive", "blocked"] as const;
export const PEOPLE_SORTS = ["lastSeen", "registered", "messages", "name"] as const;

export interface PeopleFilter {
  search: string;
  filter?: (typeof PEOPLE_FILTERS)[number];
  language?: string;
  tag?: string;
  source?: string;
  sort?: (typeof PEOPLE_SORTS)[number];
}

/** How many values of each kind the facets answer carries (an audience names at most 100 of each). */
export const FACETS_TOP = 100;
const facet = z.array(z.object({ value: z.string(), users: z.number().int() }));
export const facetsSchema = z.object({
  /** users who did not block the bot: whom an audience can reach */
  users: z.number().int(),
  tags: facet,
  languages: facet,
  sources: facet,
});
export type Facets = z.output<typeof facetsSchema>;
