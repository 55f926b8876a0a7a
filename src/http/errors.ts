// The one error shape (DESIGN.md §4): { error: CODE, message, ...extra }. Every failure path of
// every route ends here, so clients never see Elysia's defaults, a stack trace or SQL.
import { Elysia } from "elysia";
import type { Logger } from "../log";

export type ErrorCode =
  | "UNAUTHORIZED"
  | "ADMIN_UNAUTHORIZED"
  | "FORBIDDEN"
  | "NOT_FOUND"
  | "VALIDATION_FAILED"
  | "CONFLICT"
  | "BOT_BLOCKED"
  | "NOT_SET_UP"
  | "PAYLOAD_TOO_LARGE"
  | "UNSUPPORTED_MEDIA_TYPE"
  | "RATE_LIMITED"
  | "BAD_GATEWAY"
  | "INTERNAL";

/** The single error type of the product. Services throw it; the HTTP layer renders it. */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export const badRequest = (message: string, extra?: Record<string, unknown>) => new AppError(400, "VALIDATION_FAILED", message, extra);
export const unauthorized = (message = "Authentication required") => new AppError(401, "UNAUTHORIZED", message);
export const forbidden = (message = "You do not have access to this resource") => new AppError(403, "FORBIDDEN", message);
export const notFound = (message = "Not found") => new AppError(404, "NOT_FOUND", message);
export const conflict = (message: string, extra?: Record<string, unknown>) => new AppError(409, "CONFLICT", message, extra);

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

export const errorHandler = (log: Logger) =>
  new Elysia({ name: "error-handler" }).onError({ as: "global" }, ({ code, error, request }) => {
    if (error instanceof AppError) return jsonError(error.status, error.code, error.message, error.extra);
    // A parse hook's own AppError (e.g. 413 for an unsized body over the limit) arrives wrapped.
    const cause = (error as { cause?: unknown })?.cause;
    if (code === "PARSE" && cause instanceof AppError) return jsonError(cause.status, cause.code, cause.message, cause.extra);
    switch (code) {
      case "VALIDATION":
        return jsonError(400, "VALIDATION_FAILED", validationMessage(error));
      case "PARSE":
        return jsonError(400, "VALIDATION_FAILED", "Malformed request body: expected valid JSON");
      case "NOT_FOUND":
        return jsonError(404, "NOT_FOUND", "No such route");
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
    return jsonError(500, "INTERNAL", "Internal server error");
  });
