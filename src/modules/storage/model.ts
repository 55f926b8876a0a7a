// Storage config shapes (docs/api.md#storage-configs). The route body
// schemas check the envelope; `config` is checked per backend by the service, because PATCH
// validates it against the backend of the stored row.
import { z } from "zod";

export const STORAGE_ID_PATTERN = /^[a-z0-9][a-z0-9-]{1,62}$/;
export const BACKENDS = ["local", "objstore"] as const;
export type BackendName = (typeof BACKENDS)[number];

const name = z.string().trim().min(1, "name is required").max(100);
const credential = z.string().trim().min(1).max(512);
const configObject = z.record(z.string(), z.unknown());

export const createStorageSchema = z
  .object({
    id: z.string().regex(STORAGE_ID_PATTERN, "id must match ^[a-z0-9][a-z0-9-]{1,62}$").optional(),
    name,
    backend: z.enum(BACKENDS),
    config: configObject,
    readOnly: z.boolean().optional(),
    // Rule 1: configs start inactive; only PATCH activates. `false` is accepted as a no-op.
    isActive: z.literal(false, { message: "new configs are created inactive; activate with PATCH" }).optional(),
    objectAccessKeyId: credential.optional(),
    objectSecretAccessKey: credential.optional(),
  })
  .strict();

export const updateStorageSchema = z
  .object({
    name: name.optional(),
    config: configObject.optional(),
    readOnly: z.boolean().optional(),
    isActive: z.boolean().optional(),
    objectAccessKeyId: credential.optional(),
    objectSecretAccessKey: credential.optional(),
  })
  .strict();

export const localConfigSchema = z
  .object({
    rootPath: z
      .string()
      .trim()
      .min(1, "rootPath is required")
      .max(1000)
      // Relative paths are resolved against the server's working directory (docs/configuration.md).
      .refine((p) => !p.includes("\0"), "rootPath is invalid"),
  })
  .strict();

const httpUrl = (field: string) =>
  z
    .string()
    .trim()
    .max(1000)
    .refine((v) => {
      try {
        const u = new URL(v);
        return (u.protocol === "http:" || u.protocol === "https:") && !u.username && !u.password;
      } catch {
        return false;
      }
    }, `${field} must be an http(s) URL without credentials`);

export const objstoreConfigSchema = z
  .object({
    bucket: z
      .string()
      .trim()
      // Loose on purpose: legacy AWS buckets and some S3-compatible servers allow more than the modern rules.
      .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{1,254}$/, "bucket must be a bucket name (3-255 characters: letters, digits, '.', '_', '-')"),
    region: z
      .string()
      .trim()
      .regex(/^[a-z0-9-]{1,64}$/, "region must look like us-east-1")
      .default("us-east-1"),
    endpoint: httpUrl("endpoint").optional(),
    forcePathStyle: z.boolean().optional(),
    publicUrlBase: httpUrl("publicUrlBase").optional(),
  })
  .strict();

export type CreateStorageInput = z.infer<typeof createStorageSchema>;
export type UpdateStorageInput = z.infer<typeof updateStorageSchema>;
export type LocalConfig = z.infer<typeof localConfigSchema>;
export type ObjstoreConfig = z.infer<typeof objstoreConfigSchema>;

export interface Credentials {
  accessKeyId: string;
  secretAccessKey: string;
}

/** The public record (docs/api.md#storage-configs): never the credentials, only `hasSecrets`. */
export interface StorageConfigView {
  id: string;
  name: string;
  backend: BackendName;
  isActive: boolean;
  config: Record<string, unknown>;
  readOnly: boolean;
  hasSecrets: boolean;
  createdAt: string;
}

export interface TestResult {
  ok: boolean;
  message: string;
}
