// Why the bot runtime refused or failed an operation. The runtime knows nothing of HTTP; the
// features that call it (bot lifecycle routes) turn these into the one error shape.
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

export class BotError extends Error {
  constructor(
    readonly kind: BotErrorKind,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}
