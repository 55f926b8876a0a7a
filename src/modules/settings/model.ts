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

export const settingsPutSchema = z
  .object({ auth: authSectionSchema.optional(), messenger: messengerSectionSchema.optional() })
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
