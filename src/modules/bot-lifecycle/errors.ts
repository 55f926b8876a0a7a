// The bot runtime's refusals in the one error shape (docs/api.md#errors).
import { BotError } from "../../bots/errors";
import { AppError, badRequest, conflict, notFound } from "../../http/errors";

export function botHttpError(e: unknown): unknown {
  if (!(e instanceof BotError)) return e;
  switch (e.kind) {
    case "NOT_FOUND":
      return notFound(e.message);
    case "INVALID":
      return badRequest(e.message, e.extra);
    case "CONFLICT":
      return conflict(e.message, e.extra);
    case "MESSENGER":
      return new AppError(502, "BAD_GATEWAY", e.message);
    case "FAILED":
      return new AppError(500, "INTERNAL", e.message);
    case "UNAVAILABLE":
      return new AppError(503, "INTERNAL", e.message);
  }
}

/** Runs a bot operation, answering its refusals as HTTP errors. */
export async function asHttp<T>(op: () => Promise<T>): Promise<T> {
  try {
    return await op();
  } catch (e) {
    throw botHttpError(e);
  }
}
