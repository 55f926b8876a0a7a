// The chosen period in the page's address (docs/studio.md "Analytics tab"), so a reload or a shared
// link shows the same figures: ?range=24h|7d|30d|90d|custom, &from=&to= (YYYY-MM-DD, custom only),
// &bucket=hour|day (the Analytics tab, when chosen by hand). The bot is ?token=, which the project's
// tabs share (dialogs/controls.ts). A value that is not one of these reads as the default: an
// address typed by hand never breaks the page.
import { BUCKETS, DEFAULT_PERIOD, PRESETS, periodQuery, type Bucket, type Period, type Preset } from "./range";

const PERIOD_KEYS = ["range", "from", "to"] as const;

/** The period the address names, or the default when it names none or a broken one. */
export function periodFromAddress(params: URLSearchParams, now = Date.now()): Period {
  const range = params.get("range");
  if ((PRESETS as readonly string[]).includes(range ?? "")) return { ...DEFAULT_PERIOD, preset: range as Preset };
  if (range !== "custom") return DEFAULT_PERIOD;
  const custom: Period = { preset: "custom", from: params.get("from") ?? "", to: params.get("to") ?? "" };
  // dates that cannot be asked for (missing, not dates, reversed, in the future) are not a period
  return "problem" in periodQuery(custom, now) ? DEFAULT_PERIOD : custom;
}

/** The bucket chosen by hand, or null (the period's default) when the address has none or a broken one. */
export function bucketFromAddress(params: URLSearchParams): Bucket | null {
  const b = params.get("bucket");
  return (BUCKETS as readonly string[]).includes(b ?? "") ? (b as Bucket) : null;
}

/** The address's query with the period written in (the default period writes nothing); other keys stay. */
export function withPeriod(params: URLSearchParams, period: Period): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const k of PERIOD_KEYS) next.delete(k);
  if (period.preset !== DEFAULT_PERIOD.preset) next.set("range", period.preset);
  if (period.preset === "custom") {
    if (period.from) next.set("from", period.from);
    if (period.to) next.set("to", period.to);
  }
  return next;
}

/** The query with the hand-chosen bucket, or without one (null). */
export function withBucket(params: URLSearchParams, bucket: Bucket | null): URLSearchParams {
  const next = new URLSearchParams(params);
  if (bucket) next.set("bucket", bucket);
  else next.delete("bucket");
  return next;
}

/** The query without the period (the overlay turned off). */
export function withoutPeriod(params: URLSearchParams): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const k of PERIOD_KEYS) next.delete(k);
  return next;
}
