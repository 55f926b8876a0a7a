// Every error type of the product, free of any framework, and the one mapping of them to the error
// shape clients see (docs/api.md: `{ error: CODE, message, ...extra }`). The HTTP error handler
// (src/http/errors.ts) and the MCP tools (src/mcp/tool.ts) both answer through toAppError, so a
// refusal reads the same whichever door it came through. Each error carries its `name`.
import { maskSecrets } from "./log";
import type { Issue } from "./scenario/validate";

export type ErrorCode =
  | "UNAUTHORIZED"
  | "ADMIN_UNAUTHORIZED"
  | "FORBIDDEN"
  | "NOT_FOUND"
  | "VALIDATION_FAILED"
  | "CONFLICT"
  /** docs/dialogs.md: an operator's send to a user who blocked the bot */
  | "BOT_BLOCKED"
  /** docs/hooks.md: an inbound webhook for a project whose bot does not run, or whose running bots are several */
  | "BOT_NOT_RUNNING"
  | "HOOK_TOKEN_AMBIGUOUS"
  | "NOT_SET_UP"
  | "PAYLOAD_TOO_LARGE"
  | "UNSUPPORTED_MEDIA_TYPE"
  | "RATE_LIMITED"
  | "BAD_GATEWAY"
  | "INTERNAL";

/** A refusal in the client's terms: status, code and words. Services throw it; the doors render it. */
export class AppError extends Error {
  override readonly name = "AppError";
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

/** SQLite's SQLITE_FULL or the file system's ENOSPC: the one failure an admin can act on without reading a log. */
export function isDiskFull(error: unknown): boolean {
  const text = error instanceof Error ? `${error.message} ${(error as { code?: unknown }).code ?? ""}` : String(error);
  return /database or disk is full|SQLITE_FULL|ENOSPC|no space left on device/i.test(text);
}

export const badRequest = (message: string, extra?: Record<string, unknown>) => new AppError(400, "VALIDATION_FAILED", message, extra);
export const unauthorized = (message = "Authentication required") => new AppError(401, "UNAUTHORIZED", message);
export const forbidden = (message = "You do not have access to this resource") => new AppError(403, "FORBIDDEN", message);
export const notFound = (message = "Not found") => new AppError(404, "NOT_FOUND", message);
export const conflict = (message: string, extra?: Record<string, unknown>) => new AppError(409, "CONFLICT", message, extra);

export type BotErrorKind =
  /** the token or project is gone */
  | "NOT_FOUND"
  /** the request cannot work as configured (scenario unusable, webhook without a base URL, revoked token) */
  | "INVALID"
  /** already running here or in another project */
  | "CONFLICT"
  /** the messenger refused or did not answer */
  | "MESSENGER"
  /** the bot process did not come up */
  | "FAILED"
  /** the server is shutting down */
  | "UNAVAILABLE";

/** Why the bot runtime (src/bots) refused or failed an operation; it knows nothing of HTTP. */
export class BotError extends Error {
  override readonly name = "BotError";
  constructor(
    readonly kind: BotErrorKind,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export type MessengerErrorKind = "unauthorized" | "unreachable" | "rejected";

/** A failed Bot API call of the platform itself (src/messenger); the message never holds a token. */
export class MessengerError extends Error {
  override readonly name = "MessengerError";
  constructor(
    readonly kind: MessengerErrorKind,
    message: string,
    readonly status?: number,
    /** seconds the platform asked to wait (HTTP 429 `parameters.retry_after`) */
    readonly retryAfter?: number,
  ) {
    super(maskSecrets(message));
  }
}

/** Invalid input for a scenario operation; `issues` are the blocking problems. */
export class ScenarioError extends Error {
  override readonly name = "ScenarioError";
  readonly issues: Issue[];
  constructor(issues: Issue[]) {
    const first = issues[0]?.message ?? "Invalid scenario.";
    const more = issues.length > 1 ? ` (and ${issues.length - 1} more problem${issues.length > 2 ? "s" : ""})` : "";
    super(first + more);
    this.issues = issues;
  }
}

/** A node-level edit that cannot apply to the document (src/scenario/edit.ts). */
export class EditError extends Error {
  override readonly name = "EditError";
}

const BOT_ERRORS: Record<BotErrorKind, (e: BotError) => AppError> = {
  NOT_FOUND: (e) => notFound(e.message),
  INVALID: (e) => badRequest(e.message, e.extra),
  CONFLICT: (e) => conflict(e.message, e.extra),
  MESSENGER: (e) => new AppError(502, "BAD_GATEWAY", e.message),
  FAILED: (e) => new AppError(500, "INTERNAL", e.message),
  UNAVAILABLE: (e) => new AppError(503, "INTERNAL", e.message),
};

/**
 * The client's view of any error the product throws, or undefined for one it does not know (a
 * bug: the caller logs it and answers a bare "internal error"). A messenger that refuses the
 * credential is the client's problem (400); one that fails otherwise is the platform's (502).
 */
export function toAppError(e: unknown): AppError | undefined {
  if (e instanceof AppError) return e;
  if (e instanceof BotError) return BOT_ERRORS[e.kind](e);
  if (e instanceof MessengerError) return e.kind === "unauthorized" ? badRequest(e.message) : new AppError(502, "BAD_GATEWAY", e.message);
  if (e instanceof ScenarioError) return badRequest(e.message, { issues: e.issues });
  if (e instanceof EditError) return badRequest(e.message);
  return undefined;
}
