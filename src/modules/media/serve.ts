// Public links (docs/api.md#public-files):
//   /uploads/<key>               the built-in folder UPLOADS_DIR (media and the bot photos the
//                                tokens module writes to <projectId>/bot_photos/)
//   /uploads/s/<configId>/<key>  an object of a storage config; served only when a media record
//                                names it, so a config's root never becomes a browsable folder.
// Object-store files are streamed through the server (private buckets work), or redirected with
// 302 to `publicUrlBase` when the config has one.
// Not an open proxy (issue 12): a storage config's object is served only when a media record names
// its key (records are written by our own uploads only), under the type and name of the record,
// with nosniff and a sandbox CSP, and only when the backend's answer has the recorded size (an
// answer of unknown length is cut at it). Endpoints and public bases are set by operators only.
import { jsonError } from "../../http/errors";
import { pathOf } from "../../http/path";
import type { Logger } from "../../log";
import { STORAGE_ID_PATTERN } from "../storage/model";
import type { StorageRegistry } from "../storage/registry";
import { isSafeKey, type StoredObject } from "../storage/backends/types";
import { EXTENSION_TYPES } from "./model";
import { errorSummary, extensionOf, type MediaService } from "./service";

const PREFIX = "/uploads/";
const INLINE = /^(image|video|audio)\//;

/** Splits and decodes the path; null when it is not a safe `[s/<configId>/]<key>`. */
export function parseUploadPath(path: string): { configId: string | null; key: string } | null {
  if (!path.startsWith(PREFIX)) return null;
  let segments: string[];
  try {
    segments = path.slice(PREFIX.length).split("/").map(decodeURIComponent);
  } catch {
    return null;
  }
  let configId: string | null = null;
  if (segments[0] === "s") {
    configId = segments[1] ?? "";
    if (!STORAGE_ID_PATTERN.test(configId)) return null;
    segments = segments.slice(2);
  }
  // An encoded separator is never a separator; an encoded `..` fails isSafeKey like a plain one.
  if (segments.some((seg) => seg.includes("/"))) return null;
  const key = segments.join("/");
  return isSafeKey(key) ? { configId, key } : null;
}

function contentDisposition(type: string, fileName: string | undefined): string {
  const kind = INLINE.test(type) ? "inline" : "attachment";
  if (!fileName) return kind;
  const ascii = fileName.replace(/[^A-Za-z0-9._ -]/g, "_");
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

function headersFor(key: string, record: { fileName: string; mimeType: string } | undefined, size: number | null): Headers {
  // Bot photos have no record; our own keys carry the extension of their type.
  const known = EXTENSION_TYPES[extensionOf(key)];
  const type = record?.mimeType ?? known ?? "application/octet-stream";
  const h = new Headers({
    "content-type": type.startsWith("text/") || type === "application/json" ? `${type}; charset=utf-8` : type,
    "x-content-type-options": "nosniff",
    "content-disposition": contentDisposition(type, record?.fileName),
    // Nothing served here may run script in our origin, even if a browser renders it.
    "content-security-policy": "sandbox",
    "cache-control": "public, max-age=3600",
  });
  if (size !== null) h.set("content-length", String(size));
  return h;
}

/** The stream cut after `limit` bytes (the rest is cancelled upstream). */
function capped(body: ReadableStream<Uint8Array>, limit: number): ReadableStream<Uint8Array> {
  let seen = 0;
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(c) {
      const { done, value } = await reader.read();
      if (done) return c.close();
      const room = limit - seen;
      seen += value.byteLength;
      if (value.byteLength < room) return c.enqueue(value);
      if (room > 0) c.enqueue(value.subarray(0, room));
      c.close();
      await reader.cancel().catch(() => {});
    },
    cancel: (r) => reader.cancel(r),
  });
}

export async function serveUpload(registry: StorageRegistry, media: MediaService, log: Logger, request: Request, head = false): Promise<Response> {
  const parsed = parseUploadPath(pathOf(request.url));
  if (!parsed) return jsonError(400, "VALIDATION_FAILED", "Invalid upload path");
  const { configId, key } = parsed;
  const missing = () => jsonError(404, "NOT_FOUND", "File not found");
  const record = media.findByKey(configId, key);
  let obj: StoredObject | null;
  if (configId === null) {
    obj = await registry.builtin.read(key);
  } else {
    const backend = record ? registry.backendFor(configId) : undefined;
    if (!backend) return missing();
    const redirect = backend.publicUrl(key);
    if (redirect) return new Response(null, { status: 302, headers: { location: redirect, "cache-control": "public, max-age=3600" } });
    try {
      obj = await backend.read(key);
    } catch (e) {
      log.warn(`serving ${configId}/${key} failed: ${errorSummary(e)}`);
      return jsonError(502, "BAD_GATEWAY", "The storage backend is not reachable");
    }
    if (obj && record) {
      if (obj.size !== null && obj.size !== record.size) {
        if (obj.body instanceof ReadableStream) await obj.body.cancel().catch(() => {});
        log.warn(`serving ${configId}/${key} refused: the backend answered ${obj.size} bytes, ${record.size} were uploaded`);
        return jsonError(502, "BAD_GATEWAY", "The storage backend answered another file than the one uploaded");
      }
      if (obj.size === null && obj.body instanceof ReadableStream) obj = { body: capped(obj.body, record.size), size: record.size };
    }
  }
  if (!obj) return missing();
  const headers = headersFor(key, record, obj.size);
  if (head) {
    if (obj.body instanceof ReadableStream) await obj.body.cancel().catch(() => {});
    return new Response(null, { status: 200, headers });
  }
  return new Response(obj.body, { status: 200, headers });
}
