import { z } from "zod";

const flag = z.union([z.literal(0), z.literal(1)], { error: "must be 0 or 1" });
const tokenName = z.string().trim().max(100, "name must be at most 100 characters");

export const tokenCreateSchema = z.object({
  token: z.string().trim().min(1, "token is required").max(200, "token is too long"),
  name: tokenName.optional().nullable(),
});

/** EXTENSIONS.md `PATCH /api/bot/tokens/{tokenId}`. */
export const tokenPatchSchema = z.object({
  name: tokenName.min(1, "name must not be empty").optional(),
  launchMode: z.enum(["polling", "webhook"], { error: "launchMode must be polling or webhook" }).optional(),
  catchAllHandlers: flag.optional(),
  protectContent: flag.optional(),
  contentCache: flag.optional(),
  /** days the bot keeps its chats' messages (docs/dialogs.md); 0 records none; a running bot takes a new value at its next start */
  messageRetentionDays: z.number({ error: "messageRetentionDays must be an integer 0..3650" }).int("messageRetentionDays must be an integer 0..3650").min(0, "messageRetentionDays must be 0..3650").max(3650, "messageRetentionDays must be 0..3650").optional(),
});

export type TokenCreate = z.infer<typeof tokenCreateSchema>;
export type TokenPatch = z.infer<typeof tokenPatchSchema>;

export interface TokenListItem {
  id: number;
  projectId: number;
  name: string;
  /** Status indicator shown in front of the bot's name by bot-manager clients (see botStatusIndicator). */
  botStatus: string;
  /** Raw runtime status: running | stopped | error | starting. */
  status: string;
  botUsername: string | null;
  botFirstName: string | null;
  launchMode: "polling" | "webhook";
  catchAllHandlers: number;
  protectContent: number;
  contentCache: number;
  messageRetentionDays: number;
}

export interface TokenStats {
  total_users: number;
  active_24h: number;
  active_7d: number;
  new_today: number;
}
