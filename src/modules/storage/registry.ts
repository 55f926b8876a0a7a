// The storage registry: one backend per storage_configs row plus the built-in folder UPLOADS_DIR
// (storageConfigId null). Rebuilt from the table after every change (docs/api.md#storage-rules rule 4), so
// uploads and the /uploads server always use what the table says. One registry per AppContext.
import type { AppContext } from "../../context";
import type { Db } from "../../db/client";
import { AppError } from "../../errors";
import { registerSecret, type Logger } from "../../log";
import { open, UnreadableSecretError } from "./crypto";
import { LocalBackend } from "./backends/local";
import { localRootProblem, type LocalRootRules } from "./local-root";
import { ObjectStoreBackend } from "./backends/objstore";
import type { StorageBackend } from "./backends/types";
import { localConfigSchema, objstoreConfigSchema, type Credentials } from "./model";
import { storageStatements, type StorageConfigRow as Row } from "./queries";

const RETIRE_AFTER_MS = 15 * 60 * 1000;

export interface RegistryEntry {
  id: string;
  backendName: Row["backend"];
  isActive: boolean;
  readOnly: boolean;
  /** null when the row cannot be used; `problem` says why (never a secret). */
  backend: StorageBackend | null;
  problem: string | null;
}

/** Where an upload goes: a config id (null = built-in folder) and its backend. */
export interface UploadTarget {
  configId: string | null;
  backend: StorageBackend;
}

/** Opens the sealed credential pair of a row (the service only ever seals; see sealCredentials). */
export function openCredentials(encryptionKey: string | null, row: Pick<Row, "id" | "secrets">): Credentials | null {
  if (!row.secrets) return null;
  if (!encryptionKey) throw new UnreadableSecretError("STORAGE_ENCRYPTION_KEY is not set");
  const parsed = JSON.parse(open(encryptionKey, row.secrets, `storage_configs:${row.id}`)) as Credentials;
  registerSecret(parsed.accessKeyId);
  registerSecret(parsed.secretAccessKey);
  return parsed;
}

/** A local config whose folder breaks the rules of local-root.ts: never opened, never created. */
export class LocalRootError extends Error {}

export function backendOf(row: Row, encryptionKey: string | null, rules: LocalRootRules): StorageBackend {
  const raw = JSON.parse(row.config);
  if (row.backend === "local") {
    const { rootPath } = localConfigSchema.parse(raw);
    const problem = localRootProblem(rootPath, rules);
    if (problem) throw new LocalRootError(problem);
    return new LocalBackend(rootPath);
  }
  return new ObjectStoreBackend(objstoreConfigSchema.parse(raw), openCredentials(encryptionKey, row));
}

export class StorageRegistry {
  readonly builtin: LocalBackend;
  private entries = new Map<string, RegistryEntry>();

  constructor(
    private readonly db: Db,
    private readonly encryptionKey: string | null,
    uploadsDir: string,
    private readonly log: Logger,
    private readonly localRules: LocalRootRules,
  ) {
    this.builtin = new LocalBackend(uploadsDir);
    this.reload();
  }

  reload() {
    const next = new Map<string, RegistryEntry>();
    for (const row of storageStatements(this.db).all.all()) {
      let backend: StorageBackend | null = null;
      let problem: string | null = null;
      try {
        backend = backendOf(row, this.encryptionKey, this.localRules);
      } catch (e) {
        problem =
          e instanceof UnreadableSecretError
            ? "its credentials cannot be decrypted (STORAGE_ENCRYPTION_KEY is missing or changed); save the credentials again"
            : e instanceof LocalRootError
              ? e.message
              : "its stored parameters are invalid";
        this.log.warn(`storage config "${row.id}" is unusable: ${problem}`);
      }
      next.set(row.id, { id: row.id, backendName: row.backend, isActive: row.isActive === 1, readOnly: row.readOnly === 1, backend, problem });
    }
    const retired = [...this.entries.values()];
    this.entries = next;
    // Uploads and downloads already holding an old backend must finish with it (closing an object
    // store client cuts its open sockets), so old clients are closed only after a grace period.
    if (retired.some((e) => e.backend)) {
      setTimeout(() => retired.forEach((e) => e.backend?.close()), RETIRE_AFTER_MS).unref();
    }
  }

  get(id: string): RegistryEntry | undefined {
    return this.entries.get(id);
  }

  /** The active writable config, else the built-in folder (a read-only active config takes no uploads). */
  uploadTarget(): UploadTarget {
    for (const e of this.entries.values()) {
      if (!e.isActive || e.readOnly) continue;
      if (!e.backend) throw new AppError(500, "INTERNAL", `The active storage config "${e.id}" cannot be used: ${e.problem}`);
      return { configId: e.id, backend: e.backend };
    }
    return { configId: null, backend: this.builtin };
  }

  /** Backend holding objects of `configId` (null = built-in); undefined when the config is gone or unusable. */
  backendFor(configId: string | null): StorageBackend | undefined {
    if (configId === null) return this.builtin;
    return this.entries.get(configId)?.backend ?? undefined;
  }

  isReadOnly(configId: string | null): boolean {
    return configId !== null && this.entries.get(configId)?.readOnly === true;
  }

  close() {
    for (const e of this.entries.values()) e.backend?.close();
    this.entries.clear();
  }
}
