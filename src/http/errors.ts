// The one error shape (docs/api.md#errors): { error: CODE, message, ...extra }. Every failure path of
// every route ends here, so clients never see Elysia's defaults, a stack trace or SQL. The error
// types and their mapping live in src/errors.ts (no framework); this is the Elysia side.
import { Elysia } from "elysia";
import { isDiskFull, toAppError, type ErrorCode } from "../errors";
import type { Logger } from "../log";

export function errorBody(code: ErrorCode, message: string, extra: Record<string, unknown> = {}) {
  return { error: code, message, ...extra };
}

export function jsonError(status: number, code: ErrorCode, message: string, extra?: Record<string, unknown>) {
  return new Response(JSON.stringify(errorBody(code, message, extra)), {
    status,
    headers: { "content-type": "application/json; charset=utf-8" },
  });
}

/** Turns a validation error of Elysia (TypeBox or a Standard Schema such as zod) into one readable line. */
function validationMessage(err: any): string {
  try {
    const all = typeof err.all === "object" ? err.all : undefined;
    const first = Array.isArray(all) ? all : [];
    const parts = first.slice(0, 5).map((e: any) => {
      const path = String(e.path ?? "").replace(/^\//, "").replaceAll("/", ".");
      const msg = e.summary ?? e.message ?? "is invalid";
      return path ? `${path}: ${msg}` : String(msg);
    });
    if (parts.length) return `${err.type ?? "body"} is invalid: ${parts.join("; ")}`;
  } catch {}
  return "Request is invalid";
}

/**
 * `notFoundPage`: what answers a request no route has instead of the JSON 404, when it gives one
 * (the Studio's page to a browser's navigation; the module that owns the page decides, not this one).
 */
export const errorHandler = (log: Logger, notFoundPage?: (request: Request) => Response | undefined) =>
  new Elysia({ name: "error-handler" }).onError({ as: "global" }, ({ code, error, request }) => {
    // A parse hook's own AppError (e.g. 413 for an unsized body over the limit) arrives wrapped.
    const app = toAppError(error) ?? (code === "PARSE" ? toAppError((error as { cause?: unknown })?.cause) : undefined);
    if (app) return jsonError(app.status, app.code, app.message, app.extra);
    switch (code) {
      case "VALIDATION":
        return jsonError(400, "VALIDATION_FAILED", validationMessage(error));
      case "PARSE":
        return jsonError(400, "VALIDATION_FAILED", "Malformed request body: expected valid JSON");
      case "NOT_FOUND":
        return notFoundPage?.(request) ?? jsonError(404, "NOT_FOUND", "No such route");
      case "INVALID_COOKIE_SIGNATURE":
        return jsonError(401, "UNAUTHORIZED", "Invalid cookie");
      case "INVALID_FILE_TYPE":
        return jsonError(415, "UNSUPPORTED_MEDIA_TYPE", "File type not allowed");
    }
    const status = (error as any)?.status;
    if (typeof status === "number" && status >= 400 && status < 500) {
      // e.g. Elysia's own status() throws, or body parsing refusals
      return jsonError(status, status === 413 ? "PAYLOAD_TOO_LARGE" : "VALIDATION_FAILED", status === 413 ? "Request body too large" : "Bad request");
    }
    log.error(`${request.method} ${new URL(request.url).pathname} failed:`, error);
    // The one failure the admin can act on without reading the log: "Back up now" on a full disk
    // said only "Internal server error".
    if (isDiskFull(error)) {
      return jsonError(500, "INTERNAL", "The server's disk is full: nothing more can be written until space is freed on it");
    }
    return jsonError(500, "INTERNAL", "Internal server error");
  });
