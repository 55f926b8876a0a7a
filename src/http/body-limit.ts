// docs/api.md#limits: JSON up to 10 MB, media uploads and table imports up to 50 MB. Refused from the
// Content-Length header before anything is read; Bun.serve's maxRequestBodySize backs this up for
// bodies that do not announce their length.
import { jsonError } from "./errors";
import { AppError } from "../errors";
import { pathOf } from "./path";
import { JSON_BODY_LIMIT, SERVER_BODY_LIMIT, UPLOAD_BODY_LIMIT } from "./body-size";

const isUploadPath = (path: string) => /^\/api\/projects\/[^/]+\/media\/?$/.test(path);
/** A table import (docs/tables.md): its body is the file itself, 50 MB at most. */
const isImportPath = (path: string) => /^\/api\/projects\/[^/]+\/tables\/[^/]+\/import\/?$/.test(path);
const limitOf = (path: string) => (isUploadPath(path) ? SERVER_BODY_LIMIT : isImportPath(path) ? UPLOAD_BODY_LIMIT : JSON_BODY_LIMIT);

export function bodyLimit(request: Request): Response | undefined {
  const len = request.headers.get("content-length");
  if (len === null) return;
  const n = Number(len);
  if (!Number.isFinite(n) || n < 0) return jsonError(400, "VALIDATION_FAILED", "Invalid Content-Length");
  const limit = limitOf(pathOf(request.url));
  if (n > limit) return jsonError(413, "PAYLOAD_TOO_LARGE", `Request body too large (limit ${Math.round(limit / 1048576)} MB)`);
}

/**
 * A body sent without Content-Length (chunked) cannot be refused up front. Such a request gets a
 * body that counts bytes as they are read and fails past the limit, so JSON, text and form bodies
 * stop at 10 MB (uploads at 51 MB) instead of Bun's server-wide cap. The parse error carries the
 * 413 (errors.ts unwraps it).
 */
export function capUnsizedBody(request: Request): Request | undefined {
  if (!request.body || request.headers.get("content-length") !== null) return;
  const path = pathOf(request.url);
  if (path.startsWith("/api/webhook/")) return;
  const limit = limitOf(path);
  let size = 0;
  const counted = request.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        size += chunk.byteLength;
        if (size > limit) controller.error(new AppError(413, "PAYLOAD_TOO_LARGE", `Request body too large (limit ${Math.round(limit / 1048576)} MB)`));
        else controller.enqueue(chunk);
      },
    }),
  );
  return new Request(request, { body: counted, duplex: "half" } as RequestInit);
}
