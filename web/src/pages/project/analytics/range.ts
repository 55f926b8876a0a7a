// The period a figure covers, shared by the Analytics tab and the editor's funnel overlay: a preset
// (24 h, 7, 30 or 90 days) or custom dates, turned into the `from`/`to` UTC dates and the bucket the
// analytics routes take (docs/studio.md "Analytics tab").

export const PRESETS = ["24h", "7d", "30d", "90d"] as const;
export type Preset = (typeof PRESETS)[number];
export const BUCKETS = ["hour", "day"] as const;
export type Bucket = (typeof BUCKETS)[number];

export interface Period {
  preset: Preset | "custom";
  /** custom dates, YYYY-MM-DD (UTC) */
  from: string;
  to: string;
}

export const DEFAULT_PERIOD: Period = { preset: "30d", from: "", to: "" };

const DAY = 86_400_000;
const DAYS: Record<Preset, number> = { "24h": 1, "7d": 7, "30d": 30, "90d": 90 };
export const isoDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** What the analytics routes are asked: UTC dates, or a rolling window of hours. */
export type PeriodQuery = { from: string; to: string } | { hours: string };

/**
 * The dates to ask for, or a reason in an i18n key when custom dates cannot be asked for. "24 h"
 * is the last 24 hours, the current one included (`hours`); the others end today.
 */
export function periodQuery(p: Period, now = Date.now()): PeriodQuery | { problem: "analytics.problem.missing" | "analytics.problem.order" | "analytics.problem.future" } {
  if (p.preset === "24h") return { hours: "24" };
  if (p.preset !== "custom") return { from: isoDate(now - DAYS[p.preset] * DAY + DAY), to: isoDate(now) };
  if (!DATE.test(p.from) || !DATE.test(p.to) || Number.isNaN(Date.parse(p.from)) || Number.isNaN(Date.parse(p.to))) return { problem: "analytics.problem.missing" };
  if (p.to < p.from) return { problem: "analytics.problem.order" };
  if (p.from > isoDate(now)) return { problem: "analytics.problem.future" };
  return { from: p.from, to: p.to };
}

/** Hours suit a day or two; longer periods read better by day. */
export const defaultBucket = (p: Period): Bucket => (p.preset === "24h" || (p.preset === "custom" && p.from !== "" && p.from === p.to) ? "hour" : "day");

/** A bucket's `at` as epoch seconds: a date, a date and time with a space (SQLite), or ISO. */
export function atSeconds(at: string): number {
  const s = /^\d{4}-\d{2}-\d{2}$/.test(at) ? `${at}T00:00:00Z` : /^\d{4}-\d{2}-\d{2} \d/.test(at) ? `${at.replace(" ", "T")}${/Z|[+-]\d{2}:?\d{2}$/.test(at) ? "" : "Z"}` : at;
  return Date.parse(s) / 1000;
}

/**
 * Every bucket of the period, in order, with the answer's figures where it has them and zeros
 * elsewhere: a chart then spans the period asked for, and a quiet hour shows as 0, not as a line
 * drawn across it.
 */
export function fillBuckets<P extends { at: string }>(series: P[], range: { from: string; to: string; since?: string; until?: string }, bucket: Bucket, zero: Omit<P, "at">): P[] {
  const step = bucket === "hour" ? 3600 : 86_400;
  // a rolling window (`hours`) has its own ends; whole dates otherwise
  const start = range.since ? atSeconds(range.since) : atSeconds(range.from);
  const end = range.until ? atSeconds(range.until) : atSeconds(range.to) + 86_400;
  const byAt = new Map(series.map((p) => [Math.floor(atSeconds(p.at) / step) * step, p]));
  // a period is at most a few thousand buckets (90 days by hour); a broken answer must not hang the page
  if (!Number.isFinite(start) || !Number.isFinite(end) || (end - start) / step > 10_000) return series;
  const out: P[] = [];
  for (let s = start; s < end; s += step) out.push(byAt.get(s) ?? ({ ...zero, at: new Date(s * 1000).toISOString() } as P));
  return out;
}
