import { z } from "zod";
import { LOGIN_MODES } from "../settings/model";

const name = z.string().trim().max(200);

export const devLoginSchema = z.object({
  userId: z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
  firstName: name.optional(),
  lastName: name.optional(),
  username: z.string().trim().max(64).optional(),
});

/** Telegram Login Widget payload. Fields beyond these are rejected: they would not be covered by the hash check we do. */
export const widgetLoginSchema = z.object({
  id: z.union([z.number().int().positive(), z.string().regex(/^\d{1,20}$/)]),
  first_name: z.string().max(200),
  last_name: z.string().max(200).optional(),
  username: z.string().max(64).optional(),
  photo_url: z.string().max(1000).optional(),
  auth_date: z.union([z.number().int().positive(), z.string().regex(/^\d{1,12}$/)]),
  hash: z.string().regex(/^[0-9a-f]{64}$/i, "hash must be 64 hex characters"),
});

export const patCreateSchema = z.object({ name: z.string().trim().min(1, "name is required").max(100) });

export type WidgetLogin = z.infer<typeof widgetLoginSchema>;

export const publicUserSchema = z.object({
  id: z.number().int(),
  firstName: z.string(),
  lastName: z.string().nullable(),
  username: z.string().nullable(),
  photoUrl: z.string().nullable(),
});
export type PublicUser = z.output<typeof publicUserSchema>;

/** GET /api/auth/config: what the login page needs before anyone is signed in. */
export const authConfigSchema = z.object({
  setUp: z.boolean(),
  loginMode: z.enum(LOGIN_MODES).nullable(),
  botUsername: z.string().nullable(),
});
