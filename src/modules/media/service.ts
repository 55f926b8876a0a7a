// Media files of a project (docs/api.md#media): checked, stored under a generated name on the
// active writable backend (or the built-in UPLOADS_DIR), recorded in media_files.
import { mediaUrlOf } from "../../lib/media-url";
import { randomBytes } from "node:crypto";
import type { AppContext } from "../../context";
import { AppError, badRequest, notFound } from "../../errors";
import type { StorageBackend } from "../storage/backends/types";
import type { StorageRegistry } from "../storage/registry";
import { ALLOWED_TYPES, EXTENSION_TYPES, FORBIDDEN_EXTENSIONS, kindOf, MAX_MEDIA_BYTES, TYPE_ALIASES, type MediaView } from "./model";
import { dangerousContent, looksLikeText, matchesSignature, typeFromContent } from "./sniff";
import { insertMedia, mediaStatements, type MediaRow as Row } from "./queries";

const HEAD_BYTES = 4096;
const TEXT_TYPES = new Set(["text/plain", "text/csv", "application/json"]);

const unsupported = (message: string) => new AppError(415, "UNSUPPORTED_MEDIA_TYPE", message);

export function extensionOf(name: string): string {
  const m = /\.([A-Za-z0-9]{1,10})$/.exec(name);
  return m ? m[1].toLowerCase() : "";
}

/** The client's name is metadata only: last path segment, no control or bidi characters, bounded. */
export function sanitizeFileName(raw: string): string {
  let name = raw.normalize("NFC").replace(/^.*[\\/]/, "");
  name = name.replace(/[\u0000-\u001f\u007f-\u009f"<>|:*?\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, "_").trim().replace(/^\.+/, "");
  if (name.length > 200) {
    const ext = extensionOf(name);
    name = ext ? `${name.slice(0, 199 - ext.length)}.${ext}` : name.slice(0, 200);
  }
  return name || "file";
}

export const urlOf = mediaUrlOf;

export function toView(row: Row): MediaView {
  return {
    id: row.id,
    projectId: row.projectId,
    fileName: row.fileName,
    mimeType: row.mimeType,
    size: row.size,
    url: urlOf(row.storageConfigId, row.objectKey),
    storageConfigId: row.storageConfigId,
    createdAt: row.createdAt,
  };
}

/** Error summary for logs: class, HTTP status and errno only — object stores may echo key ids in messages. */
export function errorSummary(e: unknown): string {
  const err = e as { name?: unknown; code?: unknown; $metadata?: { httpStatusCode?: number } };
  const parts = [typeof err?.name === "string" ? err.name : "Error"];
  if (err?.$metadata?.httpStatusCode) parts.push(`HTTP ${err.$metadata.httpStatusCode}`);
  if (typeof err?.code === "string") parts.push(err.code);
  return parts.join(" ");
}

/** The allowed type of an upload, or a 415 saying why not. */
export function resolveType(declaredRaw: string, fileName: string, head: Uint8Array): string {
  const ext = extensionOf(fileName);
  if (FORBIDDEN_EXTENSIONS.has(ext)) throw unsupported(`Files of type .${ext} are not allowed`);
  const danger = dangerousContent(head);
  if (danger) throw unsupported(`The file is ${danger}; such files are not allowed`);
  const declared = declaredRaw.split(";")[0].trim().toLowerCase();
  const normal = TYPE_ALIASES[declared] ?? declared;
  let type: string;
  if (ALLOWED_TYPES[normal]) type = normal;
  else if (normal === "" || normal === "application/octet-stream") {
    const guess = EXTENSION_TYPES[ext] ?? typeFromContent(head);
    if (!guess) throw unsupported("The file type cannot be recognised; allowed are images, video, audio, PDF, text, JSON, ZIP and Office documents");
    type = guess;
  } else throw unsupported(`Type ${normal.slice(0, 100)} is not allowed; allowed are images, video, audio, PDF, text, JSON, ZIP and Office documents`);
  if (!matchesSignature(type, head)) throw unsupported(`The content is not ${type}`);
  if (TEXT_TYPES.has(type) && !looksLikeText(head)) throw unsupported(`The content is binary, not ${type}`);
  return type;
}

export class MediaService {
  private readonly q;

  constructor(
    private readonly ctx: AppContext,
    private readonly registry: StorageRegistry,
  ) {
    this.q = mediaStatements(ctx.db);
  }

  async upload(projectId: number, file: File): Promise<MediaView> {
    if (file.size === 0) throw badRequest("The file is empty");
    if (file.size > MAX_MEDIA_BYTES) throw new AppError(413, "PAYLOAD_TOO_LARGE", `The file is larger than ${MAX_MEDIA_BYTES / 1048576} MB`);
    const fileName = sanitizeFileName(file.name ?? "");
    const data = new Uint8Array(await file.arrayBuffer());
    const type = resolveType(file.type ?? "", fileName, data.subarray(0, HEAD_BYTES));
    if (type === "application/json") {
      try {
        JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(data));
      } catch {
        throw unsupported("The content is not valid JSON");
      }
    }
    const kind = kindOf(type);
    const objectKey = `${projectId}/${kind}/${Date.now().toString(36)}-${randomBytes(8).toString("hex")}.${ALLOWED_TYPES[type]}`;
    const target = this.registry.uploadTarget();
    try {
      await target.backend.put(objectKey, data, type);
    } catch (e) {
      this.ctx.log.error(`media upload to ${target.configId ?? "the built-in folder"} failed: ${errorSummary(e)}`);
      throw target.backend.kind === "objstore"
        ? new AppError(502, "BAD_GATEWAY", "The object store did not accept the file; try again later")
        : new AppError(500, "INTERNAL", "The file could not be written to the upload folder");
    }
    try {
      const row = insertMedia(this.ctx.db, { projectId, storageConfigId: target.configId, objectKey, kind, fileName, mimeType: type, size: data.byteLength });
      return toView(row);
    } catch (e) {
      await target.backend.remove(objectKey).catch(() => {});
      // The project was deleted while its file was on the way.
      if (String((e as Error)?.message).includes("FOREIGN KEY")) throw notFound("Project not found");
      throw e;
    }
  }

  list(projectId: number): MediaView[] {
    return this.q.list.all({ projectId }).map(toView);
  }

  /** A media file of the project with its bytes (an operator's send uploads them); null when the project has no such file. */
  async bytesOf(projectId: number, mediaId: number): Promise<{ fileName: string; mimeType: string; kind: string; bytes: Uint8Array } | null> {
    const row = this.q.one.get({ id: mediaId, projectId });
    if (!row) return null;
    const stored = await this.backendOrFail(row.storageConfigId).read(row.objectKey);
    if (!stored) return null;
    const bytes = new Uint8Array(await new Response(stored.body).arrayBuffer());
    return { fileName: row.fileName, mimeType: row.mimeType, kind: row.kind, bytes };
  }

  private backendOrFail(configId: string | null): StorageBackend {
    const backend = this.registry.backendFor(configId);
    if (backend) return backend;
    const problem = configId ? this.registry.get(configId)?.problem : null;
    throw new AppError(500, "INTERNAL", `Storage config "${configId}" cannot be used${problem ? `: ${problem}` : ""}`);
  }

  /** Removes the object (kept on read-only backends) and then the record. */
  async remove(projectId: number, mediaId: number): Promise<void> {
    const row = this.q.one.get({ id: mediaId, projectId });
    if (!row) throw notFound("Media file not found");
    if (!this.registry.isReadOnly(row.storageConfigId)) {
      const backend = this.backendOrFail(row.storageConfigId);
      try {
        await backend.remove(row.objectKey);
      } catch (e) {
        this.ctx.log.error(`media ${row.id}: removing the object failed: ${errorSummary(e)}`);
        throw new AppError(502, "BAD_GATEWAY", "The storage backend did not remove the file; the record is kept, try again later");
      }
    }
    this.q.remove.run({ id: row.id });
  }

  /**
   * Project delete hook (docs/api.md#project-rules rule 3): objects on writable backends go; the rows go with
   * the project (FK cascade). Best effort: a backend that fails is logged, never blocks the delete.
   */
  async deleteProjectObjects(projectId: number): Promise<void> {
    const rows = this.q.list.all({ projectId });
    for (const row of rows) {
      if (this.registry.isReadOnly(row.storageConfigId)) continue;
      const backend = this.registry.backendFor(row.storageConfigId);
      if (!backend) {
        this.ctx.log.warn(`project ${projectId}: media ${row.id} kept, storage config "${row.storageConfigId}" is unusable`);
        continue;
      }
      try {
        await backend.remove(row.objectKey);
      } catch (e) {
        this.ctx.log.warn(`project ${projectId}: removing media ${row.id} failed: ${errorSummary(e)}`);
      }
    }
  }

  /** Record behind a served object (null config = built-in folder). */
  findByKey(configId: string | null, key: string): { fileName: string; mimeType: string; size: number } | undefined {
    return configId === null ? this.q.byBuiltinKey.get({ key }) : this.q.byKey.get({ configId, key });
  }
}
