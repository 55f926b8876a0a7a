// Schemas of the hook routes (docs/api.md "Inbound webhooks"): what the list and a new secret answer.
import { z } from "zod";

export const hookListItemSchema = z.object({
  nodeId: z.string().describe("the webhook_trigger node"),
  hookId: z.string().nullable().describe("null until the node's first secret is made"),
  path: z.string().nullable().describe("/api/hooks/<hookId>"),
  url: z.string().nullable().describe("the full URL when WEBHOOK_BASE_URL is set"),
  hasSecret: z.boolean(),
  createdAt: z.string().nullable(),
  rotatedAt: z.string().nullable(),
  userField: z.string().describe("the body field naming the user or chat"),
  perMinute: z.number().int().describe("requests a minute the hook accepts"),
});
export type HookListItem = z.infer<typeof hookListItemSchema>;

export const hookListSchema = z.object({ items: z.array(hookListItemSchema), count: z.number().int() });

export const hookSecretAnswerSchema = z.object({
  nodeId: z.string(),
  hookId: z.string(),
  path: z.string(),
  url: z.string().nullable(),
  secret: z.string().describe("shown in this answer only; send it as X-Botloom-Secret or Authorization: Bearer"),
});
export type HookSecretAnswer = z.infer<typeof hookSecretAnswerSchema>;

export const hookPreviewAnswerSchema = z.object({
  status: z.number().int().describe("the status the hook would answer with"),
  body: z.string().describe("the body the hook would answer with"),
  chatId: z.string().describe("the preview chat the flow ran in"),
});
