// Runtime source: the analytics rollups (docs/analytics.md). The reply path only queues tallies
// next to the message records (record.ts); the record batch turns them, and the records it writes
// anyway (a person's message, a user blocking the bot), into a few upserts of small per-hour and
// per-day tables, in the same transaction: no reply waits for a count.
// (Part of every generated bot; see types.ts.)
import { COMMANDS } from "./program-data";
import { queueRecord, type RecordOp } from "./record";
import { TOKEN_ID, db, env } from "./storage";
import type { Turn } from "./types";

// ─── Analytics: tallies counted in the record batch ────────────────────────────

/** Counting is on wherever the bot has its database; the platform turns it off only for a measurement (BOT_ANALYTICS=off). */
export const COUNTING = !!db && env.BOTLOOM_ANALYTICS !== "0";

/** What the reply path queues; a person's activity and blocks come from the records themselves. */
export type Tally =
  | { k: "in"; at: string; command: string | null }
  | { k: "out"; at: string; n: number }
  | { k: "visit"; at: string; node: string; via: string | null; userId: string }
  | { k: "press"; at: string; node: string; text: string };

const analyticsSql = COUNTING && db
  ? {
      person: db.query<{ messages_in: number; blocked: number; source: string | null }, [number, string]>(
        "SELECT messages_in, blocked, source FROM bot_people WHERE token_id = ? AND user_id = ?",
      ),
      // A row per user and day; RETURNING answers only when the hour is new for the user.
      touch: db.query<{ active_hours: number }, [number, string, string, string, string]>(
        "INSERT INTO analytics_user_days (token_id, user_id, day, prev_day, language, last_hour, active_hours) VALUES (?1, ?2, ?3, " +
          "(SELECT max(day) FROM analytics_user_days WHERE token_id = ?1 AND user_id = ?2 AND day < ?3), ?4, ?5, 1) " +
          "ON CONFLICT (token_id, user_id, day) DO UPDATE SET last_hour = excluded.last_hour, active_hours = analytics_user_days.active_hours + 1 " +
          "WHERE analytics_user_days.last_hour <> excluded.last_hour RETURNING active_hours",
      ),
      hour: db.query<unknown, [number, string, number, number, number, number, number]>(
        "INSERT INTO analytics_hours (token_id, hour, new_users, active_users, messages_in, messages_out, blocked) VALUES (?, ?, ?, ?, ?, ?, ?) " +
          "ON CONFLICT (token_id, hour) DO UPDATE SET new_users = analytics_hours.new_users + excluded.new_users, " +
          "active_users = analytics_hours.active_users + excluded.active_users, messages_in = analytics_hours.messages_in + excluded.messages_in, " +
          "messages_out = analytics_hours.messages_out + excluded.messages_out, blocked = analytics_hours.blocked + excluded.blocked",
      ),
      day: db.query<unknown, [number, string, number]>(
        "INSERT INTO analytics_days (token_id, day, active_users) VALUES (?, ?, ?) " +
          "ON CONFLICT (token_id, day) DO UPDATE SET active_users = analytics_days.active_users + excluded.active_users",
      ),
      tally: db.query<unknown, [number, string, string, string, string, number]>(
        "INSERT INTO analytics_tallies (token_id, hour, kind, name, node_id, count) VALUES (?, ?, ?, ?, ?, ?) " +
          "ON CONFLICT (token_id, hour, kind, name, node_id) DO UPDATE SET count = analytics_tallies.count + excluded.count",
      ),
      visit: db.query<unknown, [number, string, string, string, number]>(
        "INSERT INTO analytics_node_days (token_id, node_id, user_id, day, prev_day, visits) VALUES (?1, ?2, ?3, ?4, " +
          "(SELECT max(day) FROM analytics_node_days WHERE token_id = ?1 AND node_id = ?2 AND user_id = ?3 AND day < ?4), ?5) " +
          "ON CONFLICT (token_id, node_id, user_id, day) DO UPDATE SET visits = analytics_node_days.visits + excluded.visits",
      ),
      edge: db.query<unknown, [number, string, string, string, string]>(
        "INSERT OR IGNORE INTO analytics_edge_days (token_id, from_node, to_node, user_id, day, prev_day) VALUES (?1, ?2, ?3, ?4, ?5, " +
          "(SELECT max(day) FROM analytics_edge_days WHERE token_id = ?1 AND from_node = ?2 AND to_node = ?3 AND user_id = ?4 AND day < ?5))",
      ),
    }
  : null;

/** new users, active users, messages in, messages out, blocked: one hour's counts of a batch */
type HourCounts = [number, number, number, number, number];
const NEW = 0, ACTIVE = 1, IN = 2, OUT = 3, BLOCKED = 4;

/** What one batch adds, summed in memory and written once per key when the batch ends. */
const pending = {
  hours: new Map<string, HourCounts>(),
  days: new Map<string, number>(),
  tallies: new Map<string, number>(),
  visits: new Map<string, number>(),
  edges: new Set<string>(),
};

export function bump(hour: string, field: number, by = 1) {
  let counts = pending.hours.get(hour);
  if (!counts) pending.hours.set(hour, (counts = [0, 0, 0, 0, 0]));
  counts[field] += by;
}

export function addTally(hour: string, kind: string, name: string, node: string) {
  const key = hour + "\u0000" + kind + "\u0000" + name + "\u0000" + node;
  pending.tallies.set(key, (pending.tallies.get(key) ?? 0) + 1);
}

/** A command the scenario knows ("/start promo" → "start"); anything else a user types is not counted (it would grow the table at will). */
export function commandOf(text: string | undefined): string | null {
  const m = /^\/([A-Za-z0-9_]{1,32})(?:@\S+)?(?:\s|$)/.exec(text ?? "");
  const name = m?.[1].toLowerCase();
  return name && COMMANDS.some((c) => c.command === name) ? name : null;
}

export function tally(c: Tally) {
  if (COUNTING) queueRecord({ t: "count", c });
}

/** A node entered by a walk of the flow, and the transition that led there (via: the node it came from). */
export function countVisit(turn: Turn, node: string, via: string | undefined) {
  if (COUNTING) tally({ k: "visit", at: new Date().toISOString(), node, via: via ?? null, userId: String(turn.from?.id ?? turn.chatId) });
}

/** Reads the person's state before record.ts writes the op: whether they are new, had a source, had blocked the bot. */
export function countRecord(op: RecordOp) {
  const q = analyticsSql;
  if (!q) return;
  if (op.t === "count") {
    const c = op.c;
    const hour = c.at.slice(0, 13);
    if (c.k === "in") {
      bump(hour, IN);
      if (c.command) addTally(hour, "command", c.command, "");
    } else if (c.k === "out") bump(hour, OUT, c.n);
    else if (c.k === "press") addTally(hour, "button", c.text, c.node);
    else {
      const day = c.at.slice(0, 10);
      const key = day + "\u0000" + c.node + "\u0000" + c.userId;
      pending.visits.set(key, (pending.visits.get(key) ?? 0) + 1);
      if (c.via) pending.edges.add(day + "\u0000" + c.via + "\u0000" + c.node + "\u0000" + c.userId);
    }
  } else if (op.t === "person" && op.p.in > 0) {
    const p = op.p;
    const hour = p.at.slice(0, 13);
    const day = p.at.slice(0, 10);
    const before = q.person.get(TOKEN_ID, p.userId);
    if (!before || before.messages_in === 0) bump(hour, NEW);
    if (p.source && !before?.source) addTally(hour, "source", p.source, "");
    const touched = q.touch.get(TOKEN_ID, p.userId, day, p.language ?? "", hour);
    if (touched) {
      bump(hour, ACTIVE);
      if (touched.active_hours === 1) pending.days.set(day, (pending.days.get(day) ?? 0) + 1);
    }
  } else if (op.t === "blocked" && op.on) {
    if (q.person.get(TOKEN_ID, op.userId)?.blocked !== 1) bump(op.at.slice(0, 13), BLOCKED);
  }
}

/** Writes what the batch summed; called at the end of the record transaction. */
export function writeCounts() {
  const q = analyticsSql;
  if (!q) return;
  for (const [hour, c] of pending.hours) q.hour.run(TOKEN_ID, hour, c[NEW], c[ACTIVE], c[IN], c[OUT], c[BLOCKED]);
  for (const [day, n] of pending.days) q.day.run(TOKEN_ID, day, n);
  for (const [key, n] of pending.tallies) {
    const [hour, kind, name, node] = key.split("\u0000");
    q.tally.run(TOKEN_ID, hour, kind, name, node, n);
  }
  for (const [key, n] of pending.visits) {
    const [day, node, user] = key.split("\u0000");
    q.visit.run(TOKEN_ID, node, user, day, n);
  }
  for (const key of pending.edges) {
    const [day, from, to, user] = key.split("\u0000");
    q.edge.run(TOKEN_ID, from, to, user, day);
  }
  clearCounts();
}

/** A batch that could not be written takes its counts with it (its records are dropped too). */
export function clearCounts() {
  pending.hours.clear();
  pending.days.clear();
  pending.tallies.clear();
  pending.visits.clear();
  pending.edges.clear();
}
