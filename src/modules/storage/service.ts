// Storage configs (docs/api.md#storage-configs, rules 1-6). Credentials are sealed before they touch
// the database and are never part of a view; every change reloads the registry.
import type { AppContext } from "../../context";
import { AppError, badRequest, conflict, notFound } from "../../errors";
import { registerSecret } from "../../log";
import { seal, UnreadableSecretError } from "./crypto";
import {
  localConfigSchema,
  objstoreConfigSchema,
  type BackendName,
  type CreateStorageInput,
  type Credentials,
  type StorageConfigView,
  type TestResult,
  type UpdateStorageInput,
} from "./model";
import { backendOf, LocalRootError, openCredentials, type StorageRegistry } from "./registry";
import { localRootProblem, localRootRules } from "./local-root";
import { LocalBackend } from "./backends/local";
import { GENERIC_TEST_FAILURE, isLoopbackEndpoint, padToTestTimeout } from "./test-answer";
import { slugify, uniqueSlug } from "./slug";
import { insertStorageConfig, storageStatements, updateStorageConfig, type StorageConfigChanges, type StorageConfigRow as Row } from "./queries";

export function toView(row: Row): StorageConfigView {
  return {
    id: row.id,
    name: row.name,
    backend: row.backend,
    isActive: row.isActive === 1,
    config: JSON.parse(row.config),
    readOnly: row.readOnly === 1,
    hasSecrets: row.secrets !== null,
    createdAt: row.createdAt,
  };
}

/** Validates `config` against the backend's key set; the message names the first wrong keys. */
function parseConfig(backend: BackendName, config: Record<string, unknown>): Record<string, unknown> {
  const schema = backend === "local" ? localConfigSchema : objstoreConfigSchema;
  const r = schema.safeParse(config);
  if (r.success) return r.data;
  const parts = r.error.issues.slice(0, 5).map((i) => {
    const path = ["config", ...i.path.map(String)].join(".");
    return i.code === "unrecognized_keys" ? `config: unknown keys ${i.keys.join(", ")}` : `${path}: ${i.message}`;
  });
  throw badRequest(`config is invalid for backend ${backend}: ${parts.join("; ")}`);
}

/** The credential pair of a body: both, neither, or a 400. */
function credentialsOf(backend: BackendName, body: { objectAccessKeyId?: string; objectSecretAccessKey?: string }): Credentials | null {
  const { objectAccessKeyId: id, objectSecretAccessKey: secret } = body;
  if (id === undefined && secret === undefined) return null;
  if (id === undefined || secret === undefined) throw badRequest("objectAccessKeyId and objectSecretAccessKey must be sent together");
  if (backend !== "objstore") throw badRequest("Credentials apply only to the objstore backend");
  return { accessKeyId: id, secretAccessKey: secret };
}

export class StorageConfigService {
  constructor(
    private readonly ctx: AppContext,
    private readonly registry: StorageRegistry,
  ) {}

  /** parseConfig plus the folder rule of a local root (400 naming the rule, never whether the path exists). */
  private validConfig(backend: BackendName, config: Record<string, unknown>): Record<string, unknown> {
    const parsed = parseConfig(backend, config);
    if (backend === "local") {
      const problem = localRootProblem(String(parsed.rootPath), localRootRules(this.ctx.config));
      if (problem) throw badRequest(problem);
    }
    return parsed;
  }

  private row(id: string): Row {
    const row = storageStatements(this.ctx.db).byId.get({ id });
    if (!row) throw notFound("Storage config not found");
    return row;
  }

  private sealCredentials(id: string, creds: Credentials): string {
    const key = this.ctx.config.storageEncryptionKey;
    if (!key) {
      throw badRequest("Credentials cannot be stored: the server has no STORAGE_ENCRYPTION_KEY (32+ characters) configured; set it and restart");
    }
    registerSecret(creds.accessKeyId);
    registerSecret(creds.secretAccessKey);
    return seal(key, JSON.stringify(creds), `storage_configs:${id}`);
  }

  list(): StorageConfigView[] {
    return storageStatements(this.ctx.db).all.all().map(toView);
  }

  create(input: CreateStorageInput): StorageConfigView {
    const config = this.validConfig(input.backend, input.config);
    const creds = credentialsOf(input.backend, input);
    if (creds && !this.ctx.config.storageEncryptionKey) this.sealCredentials("", creds); // the clear 400
    const exists = (id: string) => storageStatements(this.ctx.db).exists.get({ id }) !== undefined;
    let id: string;
    if (input.id !== undefined) {
      if (exists(input.id)) throw conflict(`A storage config with id "${input.id}" already exists`);
      id = input.id;
    } else {
      id = uniqueSlug(slugify(input.name), exists);
    }
    try {
      insertStorageConfig(this.ctx.db, {
          id,
          name: input.name,
          backend: input.backend,
          config: JSON.stringify(config),
          isActive: 0,
          readOnly: input.readOnly ? 1 : 0,
          secrets: creds ? this.sealCredentials(id, creds) : null,
        });
    } catch (e) {
      // Another request took the id between the check and the insert.
      if (String((e as Error)?.message).includes("UNIQUE")) throw conflict(`A storage config with id "${id}" already exists`);
      throw e;
    }
    this.registry.reload();
    this.ctx.log.info(`storage config "${id}" created (${input.backend})`);
    return toView(this.row(id));
  }

  async update(id: string, input: UpdateStorageInput): Promise<StorageConfigView> {
    const row = this.row(id);
    if (input.isActive === true && row.backend === "local") {
      // A local folder takes everyone's uploads only once the server has proven it may write there
      // (the probe of the test endpoint, inside the allowed base).
      const rootPath = String(input.config !== undefined ? this.validConfig("local", input.config).rootPath : JSON.parse(row.config).rootPath);
      const problem = localRootProblem(rootPath, localRootRules(this.ctx.config));
      if (problem) throw badRequest(problem);
      const probe = await new LocalBackend(rootPath).test();
      if (!probe.ok) throw badRequest(`Cannot activate: ${probe.message}`);
    }
    const set: StorageConfigChanges = { updatedAt: new Date().toISOString() };
    if (input.name !== undefined) set.name = input.name;
    if (input.config !== undefined) set.config = JSON.stringify(this.validConfig(row.backend, input.config));
    if (input.readOnly !== undefined) set.readOnly = input.readOnly ? 1 : 0;
    if (input.isActive !== undefined) set.isActive = input.isActive ? 1 : 0;
    const creds = credentialsOf(row.backend, input);
    if (creds) set.secrets = this.sealCredentials(id, creds);
    else if (input.isActive === true) {
      // An active config that cannot open its credentials would fail every upload: refuse it now.
      try {
        openCredentials(this.ctx.config.storageEncryptionKey, row);
      } catch (e) {
        if (!(e instanceof UnreadableSecretError)) throw e;
        throw badRequest("The stored credentials cannot be decrypted (STORAGE_ENCRYPTION_KEY is missing or changed): send objectAccessKeyId and objectSecretAccessKey again to activate this config");
      }
    }
    // At most one active config: activating this one deactivates every other.
    updateStorageConfig(this.ctx.db, id, set, input.isActive === true);
    this.registry.reload();
    this.ctx.log.info(`storage config "${id}" updated`);
    return toView(this.row(id));
  }

  remove(id: string): { ok: true; id: string } {
    this.row(id);
    const filesCount = storageStatements(this.ctx.db).filesCount.get({ id })?.n ?? 0;
    if (filesCount > 0) {
      throw conflict(`${filesCount} media file(s) are still stored with this config; delete them first`, { filesCount });
    }
    // Rule 5: stored objects stay where they are.
    storageStatements(this.ctx.db).remove.run({ id });
    this.registry.reload();
    this.ctx.log.info(`storage config "${id}" deleted`);
    return { ok: true, id };
  }

  /** Rule 6: checks the stored parameters as they are; never activates. */
  async test(id: string): Promise<TestResult> {
    const row = this.row(id);
    const startedAt = performance.now();
    let result: TestResult;
    try {
      const backend = backendOf(row, this.ctx.config.storageEncryptionKey, localRootRules(this.ctx.config));
      try {
        result = await backend.test();
      } finally {
        backend.close();
      }
    } catch (e) {
      if (e instanceof LocalRootError) result = { ok: false, message: e.message };
      else if (e instanceof UnreadableSecretError) result = { ok: false, message: "The stored credentials cannot be decrypted (STORAGE_ENCRYPTION_KEY is missing or changed); save them again" };
      else throw e;
    }
    this.ctx.log.info(`storage config "${id}" test: ${result.ok ? "ok" : "failed"}: ${result.message}`);
    if (!result.ok && row.backend === "objstore" && !isLoopbackEndpoint(JSON.parse(row.config).endpoint)) {
      await padToTestTimeout(startedAt);
      result = { ok: false, message: GENERIC_TEST_FAILURE };
    }
    if (!result.ok) throw new AppError(400, "VALIDATION_FAILED", result.message, { ok: false });
    return result;
  }
}
