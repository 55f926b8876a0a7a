// The figures of a token's bot (docs/analytics.md): series, totals and ranked tables over a range of
// UTC days, and the funnel per node and transition, all read off the rollups the bot counts as it
// runs. The project's access rule applies (owner and collaborators; another user's token is 404).
import type { AppContext } from "../../context";
import { badRequest } from "../../errors";
import { normalizeDocument } from "../../scenario/model";
import { projectDataOf } from "../dialogs/queries";
import {
  DEFAULT_DAYS,
  EARLIEST_DATE,
  MAX_DAYS,
  MAX_HOURS,
  NODES_MAX_DAYS,
  TOP_ROWS,
  type Analytics,
  type Bucket,
  type NodeAnalytics,
  type Range,
} from "./model";
import { funnelCounts, summaryCounts, type BucketRow } from "./queries";

const DAY_MS = 86_400_000;
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** A date the range may name: a real calendar day between EARLIEST_DATE and tomorrow (UTC: a user east of it may already be there). */
function parseDay(raw: string | undefined, name: string, now: number): number | undefined {
  if (raw === undefined || raw === "") return undefined;
  const ms = /^\d{4}-\d{2}-\d{2}$/.test(raw) ? Date.parse(raw + "T00:00:00Z") : NaN;
  if (Number.isNaN(ms) || dayOf(ms) !== raw) throw badRequest(`${name} must be a date, YYYY-MM-DD`);
  if (raw < EARLIEST_DATE || ms > now + DAY_MS) throw badRequest(`${name} must lie between ${EARLIEST_DATE} and tomorrow (UTC)`);
  return ms;
}

/**
 * The range of days a request names: `to` defaults to today (UTC), `from` to DEFAULT_DAYS days
 * before it, today included. A range longer than `maxDays` keeps its most recent days (clamped).
 */
export function parseRange(from: string | undefined, to: string | undefined, maxDays: number, now = Date.now()): Range {
  const end = parseDay(to, "to", now) ?? Date.parse(dayOf(now) + "T00:00:00Z");
  let start = parseDay(from, "from", now) ?? end - (DEFAULT_DAYS - 1) * DAY_MS;
  if (start > end) throw badRequest("to must not be before from");
  const clamped = (end - start) / DAY_MS + 1 > maxDays;
  if (clamped) start = end - (maxDays - 1) * DAY_MS;
  return { from: dayOf(start), to: dayOf(end), clamped };
}

const HOUR_MS = 3_600_000;
const hourOf = (ms: number) => new Date(ms).toISOString().slice(0, 13);

/**
 * A rolling window of the last `hours` hours, the current one included (`?hours=24`: a true 24
 * hours, not yesterday and today). Its hour keys are exact; the days it touches are the range of
 * the figures kept only per day, which the answer names (docs/analytics.md "Range rules").
 */
export function parseHours(raw: string | undefined, q: { from?: string; to?: string; bucket?: Bucket }, now = Date.now()): (Range & { hours: number; since: string; until: string }) | undefined {
  if (raw === undefined || raw === "") return undefined;
  if (!/^\d{1,4}$/.test(raw) || Number(raw) < 1 || Number(raw) > MAX_HOURS) throw badRequest(`hours must be a whole number from 1 to ${MAX_HOURS}`);
  if (q.from || q.to) throw badRequest("hours replaces from and to: give one or the other");
  if (q.bucket === "day") throw badRequest("hours goes with bucket=hour");
  const hours = Number(raw);
  const last = Math.floor(now / HOUR_MS) * HOUR_MS;
  const first = last - (hours - 1) * HOUR_MS;
  return { from: dayOf(first), to: dayOf(last), clamped: false, hours, since: new Date(first).toISOString(), until: new Date(last + HOUR_MS).toISOString() };
}

/** Every bucket key of a range, in order: "YYYY-MM-DD" or "YYYY-MM-DDTHH". */
function bucketKeys(range: Range, bucket: Bucket): string[] {
  const keys: string[] = [];
  const step = bucket === "day" ? DAY_MS : 3_600_000;
  const end = Date.parse(range.to + "T00:00:00Z") + DAY_MS;
  for (let t = Date.parse(range.from + "T00:00:00Z"); t < end; t += step) keys.push(new Date(t).toISOString().slice(0, bucket === "day" ? 10 : 13));
  return keys;
}

const startOf = (key: string) => (key.length === 10 ? key + "T00:00:00.000Z" : key + ":00:00.000Z");

export class AnalyticsService {
  constructor(private readonly ctx: AppContext) {}

  /**
   * The token and its project's file, when the project has one yet. A token of a project the
   * actor is no member of is 404, as if it did not exist (docs/analytics.md#access).
   */
  private open(tokenId: number, actorId: number) {
    const { token } = this.ctx.tokens.access.require(tokenId, actorId, { hideForbidden: true });
    return { token, db: this.ctx.projectFiles.existing(token.projectId) };
  }

  async figures(tokenId: number, actorId: number, q: { from?: string; to?: string; bucket?: Bucket; hours?: string }): Promise<Analytics> {
    const rolling = parseHours(q.hours, q);
    const bucket = rolling ? "hour" : q.bucket ?? "day";
    const { db } = this.open(tokenId, actorId);
    const range = rolling ?? parseRange(q.from, q.to, MAX_DAYS[bucket]);
    const fromHour = rolling ? hourOf(Date.parse(rolling.since)) : range.from + "T00";
    const toHour = rolling ? hourOf(Date.parse(rolling.until) - HOUR_MS) : range.to + "T23";
    const keys = rolling ? Array.from({ length: rolling.hours }, (_, i) => hourOf(Date.parse(rolling.since) + i * HOUR_MS)) : bucketKeys(range, bucket);
    const rows = new Map<string, BucketRow>();
    let users = 0;
    let activeUsers = 0;
    let languages: { language: string; users: number }[] = [];
    let ranked = { source: [], command: [], button: [] } as Record<"source" | "command" | "button", { name: string; nodeId: string; count: number }[]>;
    if (db) {
      const { sums, active, users: upTo, languages: byLanguage, source, command, button } = await summaryCounts(
        db,
        tokenId,
        { fromHour, toHour, fromDay: range.from, toDay: range.to, perDay: bucket === "day" },
        TOP_ROWS,
      );
      for (const r of sums) rows.set(r.key, r);
      // a day's active users are its own distinct count, not the sum of its hours'
      for (const d of active) {
        const r = rows.get(d.day);
        if (r) r.activeUsers = d.activeUsers;
      }
      users = upTo;
      activeUsers = byLanguage.reduce((n, l) => n + l.users, 0);
      languages = byLanguage.sort((a, b) => b.users - a.users || a.language.localeCompare(b.language)).slice(0, TOP_ROWS);
      ranked = { source, command, button };
    }
    const series = keys.map((key) => {
      const r = rows.get(key);
      return { at: startOf(key), newUsers: r?.newUsers ?? 0, activeUsers: r?.activeUsers ?? 0, messagesIn: r?.messagesIn ?? 0, messagesOut: r?.messagesOut ?? 0, blocked: r?.blocked ?? 0 };
    });
    const sum = (f: "newUsers" | "messagesIn" | "messagesOut" | "blocked") => series.reduce((n, p) => n + p[f], 0);
    return {
      series,
      totals: {
        users,
        activeUsers,
        newUsers: sum("newUsers"),
        messagesIn: sum("messagesIn"),
        messagesOut: sum("messagesOut"),
        blocked: sum("blocked"),
      },
      sources: ranked.source.map((t) => ({ source: t.name, users: t.count })),
      languages,
      commands: ranked.command.map((t) => ({ command: t.name, count: t.count })),
      buttons: ranked.button.map((t) => ({ text: t.name, nodeId: t.nodeId, count: t.count })),
      range: { ...range, bucket },
    };
  }

  /** The funnel is kept per day: `hours` reads the days the window touches (the answer's range says which). */
  async nodes(tokenId: number, actorId: number, q: { from?: string; to?: string; hours?: string }): Promise<NodeAnalytics> {
    const { token, db } = this.open(tokenId, actorId);
    const range = parseHours(q.hours, q) ?? parseRange(q.from, q.to, NODES_MAX_DAYS);
    if (!db) return { items: [], edges: [], range };
    const { nodes: counts, edges } = await funnelCounts(db, tokenId, range.from, range.to);
    const sheetOf = this.sheetsOfNodes(token.projectId);
    return {
      items: counts
        .map((c) => ({ nodeId: c.nodeId, sheetId: sheetOf.get(c.nodeId) ?? null, users: c.users, visits: c.visits }))
        .sort((a, b) => b.users - a.users || a.nodeId.localeCompare(b.nodeId)),
      edges: edges.sort((a, b) => b.users - a.users || a.from.localeCompare(b.from) || a.to.localeCompare(b.to)),
      range,
    };
  }

  /** Node id → the sheet holding it in the project's scenario now (node ids are unique across sheets). */
  private sheetsOfNodes(projectId: number): Map<string, string> {
    const doc = normalizeDocument(projectDataOf(this.ctx.db, projectId)) as { sheets?: { id?: unknown; nodes?: { id?: unknown }[] }[] } | null;
    const out = new Map<string, string>();
    for (const sheet of doc?.sheets ?? []) {
      if (typeof sheet?.id !== "string" || !Array.isArray(sheet.nodes)) continue;
      for (const n of sheet.nodes) if (typeof n?.id === "string") out.set(n.id, sheet.id);
    }
    return out;
  }
}
