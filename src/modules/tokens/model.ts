import { z } from "zod";

const flag = z.union([z.literal(0), z.literal(1)], { error: "must be 0 or 1" });
const tokenName = z.string().trim().max(100, "name must be at most 100 characters");

export const tokenCreateSchema = z.object({
  token: z.string().trim().min(1, "token is required").max(200, "token is too long"),
  name: tokenName.optional().nullable(),
});

/** docs/api.md#bot-manager-api-apibot. */
export const tokenPatchSchema = z.object({
  name: tokenName.min(1, "name must not be empty").optional(),
  launchMode: z.enum(["polling", "webhook"], { error: "launchMode must be polling or webhook" }).optional(),
  catchAllHandlers: flag.optional(),
  protectContent: flag.optional(),
  contentCache: flag.optional(),
  /** days the bot keeps its chats' messages (docs/dialogs.md); 0 records none; a running bot takes a new value at its next start */
  messageRetentionDays: z.number({ error: "messageRetentionDays must be an integer 0..3650" }).int("messageRetentionDays must be an integer 0..3650").min(0, "messageRetentionDays must be 0..3650").max(3650, "messageRetentionDays must be 0..3650").optional(),
  /** the token's send pace for campaigns and operators (docs/campaigns.md#one-pace-per-token) */
  sendsPerSecond: z.number({ error: "sendsPerSecond must be an integer 1..1000" }).int("sendsPerSecond must be an integer 1..1000").min(1, "sendsPerSecond must be 1..1000").max(1000, "sendsPerSecond must be 1..1000").optional(),
});

export type TokenCreate = z.infer<typeof tokenCreateSchema>;
export type TokenPatch = z.infer<typeof tokenPatchSchema>;

export const tokenListItemSchema = z.object({
  id: z.number().int(),
  projectId: z.number().int(),
  name: z.string(),
  /** Status indicator shown in front of the bot's name by bot-manager clients (see botStatusIndicator). */
  botStatus: z.string(),
  /** Raw runtime status: running | stopped | error | starting. */
  status: z.string(),
  botUsername: z.string().nullable(),
  botFirstName: z.string().nullable(),
  launchMode: z.enum(["polling", "webhook"]),
  catchAllHandlers: z.number().int(),
  protectContent: z.number().int(),
  contentCache: z.number().int(),
  /** days the bot keeps its chats' messages (docs/dialogs.md) */
  messageRetentionDays: z.number().int(),
  /** sends per second of campaigns and operators together (docs/campaigns.md#one-pace-per-token) */
  sendsPerSecond: z.number().int(),
});
export type TokenListItem = z.output<typeof tokenListItemSchema>;

/** GET /api/bot/tokens/{tokenId}/status. */
export const botStatusSchema = z.object({
  status: z.string(),
  instance: z.object({
    botName: z.string(), botUsername: z.string(), tokenId: z.number().int(), status: z.string(), statusLabel: z.string(), uptime: z.string(),
    /** the same uptime in whole seconds (null unless running), for a client that words it in its own language */
    uptimeSeconds: z.number().int().nullable(),
  }),
  userStats: z.object({ total: z.number().int(), active_24h: z.number().int(), active_7d: z.number().int(), new_today: z.number().int() }),
});

export interface TokenStats {
  total_users: number;
  active_24h: number;
  active_7d: number;
  new_today: number;
}

/** docs/api.md "Bot profile": what the Bots tab sets on the bot itself (Telegram's limits). */
export const botProfileSchema = z
  .object({
    name: z.string().max(64, "name must be at most 64 characters").optional(),
    description: z.string().max(512, "description must be at most 512 characters").optional(),
    shortDescription: z.string().max(120, "shortDescription must be at most 120 characters").optional(),
    /** two-letter language the texts are for; "" or absent: every language without its own */
    languageCode: z.string().regex(/^([a-z]{2})?$/, "languageCode must be two lower-case letters").optional(),
    /** true: the menu commands of the scenario (setMyCommands), as the bot sets them when it starts */
    commands: z.boolean().optional(),
  })
  .refine((p) => p.name !== undefined || p.description !== undefined || p.shortDescription !== undefined || p.commands === true, {
    error: "nothing to set: give name, description, shortDescription or commands: true",
  });
export const botProfileAnswerSchema = z.object({ applied: z.array(z.enum(["setMyName", "setMyDescription", "setMyShortDescription", "setMyCommands"])) });
export type BotProfile = z.infer<typeof botProfileSchema>;
export type BotProfileAnswer = z.infer<typeof botProfileAnswerSchema>;
