import { z } from "zod";

export const LOGIN_MODES = ["dev_login", "messenger_widget"] as const;
export type LoginMode = (typeof LOGIN_MODES)[number];

export const authSectionSchema = z.object({ loginMode: z.enum(LOGIN_MODES) }).strict();

export const messengerSectionSchema = z
  .object({
    clientId: z.union([z.string().max(200), z.number().int().transform(String)]).optional(),
    botUsername: z.string().max(64).optional(),
    clientSecret: z.string().max(500).optional(),
    botToken: z.string().max(200).optional(),
  })
  .strict();

/** Comma-separated messenger user ids ("" clears the list); stored normalised: "12,34". */
export const operatorIdsSchema = z
  .string()
  .max(2000)
  .refine((s) => s.split(",").every((p) => p.trim() === "" || (/^\s*[1-9]\d{0,15}\s*$/.test(p) && Number.isSafeInteger(Number(p.trim())))), {
    message: "operatorIds must be comma-separated positive user ids",
  })
  .transform((s) => [...new Set(s.split(",").map((p) => p.trim()).filter(Boolean))].join(","));

export const platformSectionSchema = z.object({ operatorIds: operatorIdsSchema }).strict();

export const settingsPutSchema = z
  .object({ auth: authSectionSchema.optional(), messenger: messengerSectionSchema.optional(), platform: platformSectionSchema.optional() })
  .strict();

export type SettingsPut = z.infer<typeof settingsPutSchema>;

/** What is stored per section. Secrets stay server-side; reads expose only "configured" flags. */
export interface StoredAuth {
  loginMode: LoginMode;
}
export interface StoredMessenger {
  clientId: string;
  botUsername: string;
  clientSecret: string;
  botToken: string;
}
export interface StoredPlatform {
  operatorIds: string;
}
