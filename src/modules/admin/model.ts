import { z } from "zod";

export const adminPatCreateSchema = z
  .object({
    name: z.string().trim().min(1, "name is required").max(100),
    userId: z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
    scopes: z.array(z.literal("bot_manager")).max(1).default([]),
  })
  .strict();
