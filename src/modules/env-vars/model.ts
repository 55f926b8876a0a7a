import { z } from "zod";
import { isReservedEnvKey } from "../../bots/program";

export const ENV_KEY_PATTERN = /^[A-Z][A-Z0-9_]*$/;
export const ENV_KEY_MAX = 64;
export const ENV_VALUE_MAX = 4096;
/** What list and PATCH answer instead of a secret value (docs/api.md: eight bullet characters). */
export const SECRET_MASK = "\u2022".repeat(8);

const key = z
  .string({ error: "key must be a string" })
  .max(ENV_KEY_MAX, `key must be at most ${ENV_KEY_MAX} characters`)
  .regex(ENV_KEY_PATTERN, "key must start with A-Z and contain only A-Z, 0-9 and _")
  .refine((k) => !isReservedEnvKey(k), "key is reserved: the platform sets it, or it steers the bot runtime (BUN_*, NODE_*, LD_*, DYLD_*, BOTLOOM_*)");
const value = z
  .string({ error: "value must be a string" })
  .max(ENV_VALUE_MAX, `value must be at most ${ENV_VALUE_MAX} characters`)
  .refine((v) => !v.includes("\0"), "value must not contain NUL characters");
const flag = z.union([z.literal(0), z.literal(1)], { error: "isSecret must be 0 or 1" });

export const envCreateSchema = z.object({ key, value: value.optional(), isSecret: flag.optional() });
export const envPatchSchema = z.object({ key: key.optional(), value: value.optional(), isSecret: flag.optional() });

export type EnvCreate = z.infer<typeof envCreateSchema>;
export type EnvPatch = z.infer<typeof envPatchSchema>;

export interface EnvVar {
  id: number;
  tokenId: number;
  key: string;
  value: string;
  isSecret: number;
}
