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
});
export type TokenListItem = z.output<typeof tokenListItemSchema>;

/** GET /api/bot/tokens/{tokenId}/status. */
export const botStatusSchema = z.object({
  status: z.string(),
  instance: z.object({ botName: z.string(), botUsername: z.string(), tokenId: z.number().int(), status: z.string(), statusLabel: z.string(), uptime: z.string() }),
  userStats: z.object({ total: z.number().int(), active_24h: z.number().int(), active_7d: z.number().int(), new_today: z.number().int() }),
});

export interface TokenStats {
  total_users: number;
  active_24h: number;
  active_7d: number;
  new_today: number;
}
