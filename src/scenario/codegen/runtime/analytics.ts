// Runtime source: the analytics rollups (docs/analytics.md). The reply path only queues tallies
// next to the message records (record.ts); the record batch turns them, and the records it writes
// anyway (a person's message, a user blocking the bot), into a few upserts of small per-hour and
// per-day tables, in the same transaction: no reply waits for a count.
// (Part of every generated bot; see types.ts.)
import { COMMANDS } from "./program-data";
import { flushRecords, queueRecord, type RecordOp } from "./record";
import { lazyStatements } from "./connection";
import { TOKEN_ID, db, env } from "./storage";
import type { Turn } from "./types";

// ─── Analytics: tallies counted in the record batch ────────────────────────────

/** Counting is on wherever the bot has its database; the platform turns it off only for a measurement (BOT_ANALYTICS=off). */
export const COUNTING = !!db && env.BOTLOOM_ANALYTICS !== "0";

/** What the reply path queues; a person's activity and blocks come from the records themselves. */
export type Tally =
  | { k: "in"; at: string; command: string | null }
  | { k: "out"; at: string; n: number }
  | { k: "visit"; at: string; node: string; via: string | null; userId: string | null }
  | { k: "press"; at: string; node: string; text: string };

const analyticsSql = COUNTING && db
  ? lazyStatements({
      person: () => db!.prepare<{ messages_in: number; blocked: number; source: string | null }, [number, string]>(
        "SELECT messages_in, blocked, source FROM bot_people WHERE token_id = ? AND user_id = ?",
      ),
      // The write side's rows are looked up and written by separate statements: an INSERT whose
      // VALUES read its own table (the previous day) costs SQLite a temporary table on every run,
      // about 50 µs, eight times per new user (docs/analytics.md "Cost").
      // +? in the lookups below: planned once, not at every bind (docs/database.md "Parameters planned once")
      lastDay: () => db!.prepare<{ day: string; last_hour: string }, [number, string, string]>(
        "SELECT day, last_hour FROM analytics_user_days WHERE token_id = +? AND user_id = +? AND day <= +? ORDER BY day DESC LIMIT 1",
      ),
      newDay: () => db!.prepare<unknown, [number, string, string, string | null, string]>(
        "INSERT OR IGNORE INTO analytics_user_days (token_id, user_id, day, prev_day, last_hour, active_hours) VALUES (?, ?, ?, ?, ?, 1)",
      ),
      nextHour: () => db!.prepare<unknown, [string, number, string, string, string]>(
        "UPDATE analytics_user_days SET last_hour = ?, active_hours = active_hours + 1 WHERE token_id = ? AND user_id = ? AND day = ? AND last_hour <> ?",
      ),
      hour: () => db!.prepare<unknown, [number, string, number, number, number, number, number]>(
        "INSERT INTO analytics_hours (token_id, hour, new_users, active_users, messages_in, messages_out, blocked) VALUES (?, ?, ?, ?, ?, ?, ?) " +
          "ON CONFLICT (token_id, hour) DO UPDATE SET new_users = analytics_hours.new_users + excluded.new_users, " +
          "active_users = analytics_hours.active_users + excluded.active_users, messages_in = analytics_hours.messages_in + excluded.messages_in, " +
          "messages_out = analytics_hours.messages_out + excluded.messages_out, blocked = analytics_hours.blocked + excluded.blocked",
      ),
      active: () => db!.prepare<unknown, [number, string, string, string, number]>(
        "INSERT INTO analytics_active (token_id, day, prev_day, language, users) VALUES (?, ?, ?, ?, ?) " +
          "ON CONFLICT (token_id, day, prev_day, language) DO UPDATE SET users = analytics_active.users + excluded.users",
      ),
      tally: () => db!.prepare<unknown, [number, string, string, string, string, number]>(
        "INSERT INTO analytics_tallies (token_id, day, kind, name, node_id, count) VALUES (?, ?, ?, ?, ?, ?) " +
          "ON CONFLICT (token_id, day, kind, name, node_id) DO UPDATE SET count = analytics_tallies.count + excluded.count",
      ),
      lastNodeDay: () => db!.prepare<{ day: string | null }, [number, string, string, string]>(
        "SELECT max(day) AS day FROM analytics_node_days WHERE token_id = +? AND user_id = +? AND node_id = +? AND day <= +?",
      ),
      visit: () => db!.prepare<unknown, [number, string, string, string, string | null]>(
        "INSERT OR IGNORE INTO analytics_node_days (token_id, node_id, user_id, day, prev_day) VALUES (?, ?, ?, ?, ?)",
      ),
      reach: () => db!.prepare<unknown, [number, string, string, string, number, number]>(
        "INSERT INTO analytics_node_reach (token_id, day, node_id, prev_day, users, visits) VALUES (?, ?, ?, ?, ?, ?) " +
          "ON CONFLICT (token_id, day, node_id, prev_day) DO UPDATE SET users = analytics_node_reach.users + excluded.users, " +
          "visits = analytics_node_reach.visits + excluded.visits",
      ),
      lastEdgeDay: () => db!.prepare<{ day: string | null }, [number, string, string, string, string]>(
        "SELECT max(day) AS day FROM analytics_edge_days WHERE token_id = +? AND user_id = +? AND from_node = +? AND to_node = +? AND day <= +?",
      ),
      edge: () => db!.prepare<unknown, [number, string, string, string, string, string | null]>(
        "INSERT OR IGNORE INTO analytics_edge_days (token_id, from_node, to_node, user_id, day, prev_day) VALUES (?, ?, ?, ?, ?, ?)",
      ),
      // A key's rows before its previous day are never read again (the next row's prev_day is the
      // latest): the write side keeps two rows per user, node and transition, not one a day.
      oldUserDays: () => db!.prepare<unknown, [number, string, string]>("DELETE FROM analytics_user_days WHERE token_id = ? AND user_id = ? AND day < ?"),
      oldNodeDays: () => db!.prepare<unknown, [number, string, string, string]>("DELETE FROM analytics_node_days WHERE token_id = ? AND user_id = ? AND node_id = ? AND day < ?"),
      oldEdgeDays: () => db!.prepare<unknown, [number, string, string, string, string]>(
        "DELETE FROM analytics_edge_days WHERE token_id = ? AND user_id = ? AND from_node = ? AND to_node = ? AND day < ?",
      ),
      edgeReach: () => db!.prepare<unknown, [number, string, string, string, string, number]>(
        "INSERT INTO analytics_edge_reach (token_id, day, from_node, to_node, prev_day, users) VALUES (?, ?, ?, ?, ?, ?) " +
          "ON CONFLICT (token_id, day, from_node, to_node, prev_day) DO UPDATE SET users = analytics_edge_reach.users + excluded.users",
      ),
    })
  : null;

/** new users, active users, messages in, messages out, blocked: one hour's counts of a batch */
type HourCounts = [number, number, number, number, number];
const NEW = 0, ACTIVE = 1, IN = 2, OUT = 3, BLOCKED = 4;
/** Keys of the batch's maps join their parts with a character no id, day or text of ours holds. */
const SEP = "\u0000";

/** What one batch adds, summed in memory and written once per key when the batch ends. */
const pending = {
  hours: new Map<string, HourCounts>(),
  /** day, previous day, language → users */
  active: new Map<string, number>(),
  /** day, kind, name, node → count */
  tallies: new Map<string, number>(),
  /** day, node → visits */
  visits: new Map<string, number>(),
  /** day, node, user: first visits of the batch not yet known to be written */
  reached: new Set<string>(),
  /** day, from, to, user */
  edges: new Set<string>(),
  /**
   * Users the bot found without any trace (no person record, no day of activity), with that day:
   * their rows of that day have no previous day, so they are written without a lookup. Kept until
   * the window's rows are written.
   */
  fresh: new Map<string, string>(),
};

/**
 * What this bot already wrote, so a returning user's next message or visit costs no statement:
 * the hour a user was last counted active, users known to have written (with a source or not),
 * and the (day, node, user) and (day, transition, user) rows that exist. Only this bot writes its
 * token's rows, so the memory stays true; it is forgotten when a batch fails, and bounded.
 */
const known = {
  activeHour: new Map<string, string>(),
  /** user → whether the bot knows their source */
  people: new Map<string, boolean>(),
  rows: new Set<string>(),
};
/** Entries of each kind a bot remembers (a few MB at most, even for a busy bot in a shared runner). */
const KNOWN_MAX = 10_000;

/** Forgets what this bot knew of one user (deleted on the platform): their next message counts them as new. */
export function forgetUser(userId: string) {
  known.people.delete(userId);
  known.activeHour.delete(userId);
}

export function forget() {
  known.activeHour.clear();
  known.people.clear();
  known.rows.clear();
}

export function add(map: Map<string, number>, key: string, by = 1) {
  map.set(key, (map.get(key) ?? 0) + by);
}

export function bump(hour: string, field: number, by = 1) {
  let counts = pending.hours.get(hour);
  if (!counts) pending.hours.set(hour, (counts = [0, 0, 0, 0, 0]));
  counts[field] += by;
}

export function addTally(day: string, kind: string, name: string, node: string) {
  add(pending.tallies, day + SEP + kind + SEP + name + SEP + node);
}

/**
 * A command the scenario knows ("/start promo" → "start"); anything else a user types is not counted (it would grow the table at will).
 * `/help@other_bot` in a group is another bot's command: the router runs nothing for it, so it is only a message here too.
 */
export function commandOf(text: string | undefined, botUsername: string): string | null {
  const m = /^\/([A-Za-z0-9_]{1,32})(?:@(\S+))?(?:\s|$)/.exec(text ?? "");
  if (m?.[2] && m[2].toLowerCase() !== botUsername.toLowerCase()) return null;
  const name = m?.[1].toLowerCase();
  return name && COMMANDS.some((c) => c.command === name) ? name : null;
}

export function tally(c: Tally) {
  if (COUNTING) queueRecord({ t: "count", c });
}

/**
 * A node entered by a walk of the flow, and the transition that led there (via: the node it came
 * from). The user is the update's sender, else the private chat's (its id is the user's); a walk in
 * a group that no user started (a schedule, the bot's own message there) counts visits only.
 */
export function countVisit(turn: Turn, node: string, via: string | undefined) {
  if (!COUNTING) return;
  const user = turn.from?.id ?? (turn.chatId > 0 ? turn.chatId : null);
  tally({ k: "visit", at: new Date().toISOString(), node, via: via ?? null, userId: user === null ? null : String(user) });
}

/** Reads the person's state before record.ts writes the op: whether they are new, had a source, had blocked the bot. */
export function countRecord(op: RecordOp) {
  const q = analyticsSql;
  if (!q) return;
  if (op.t === "count") {
    const c = op.c;
    const hour = c.at.slice(0, 13);
    const day = c.at.slice(0, 10);
    if (c.k === "in") {
      bump(hour, IN);
      if (c.command) addTally(day, "command", c.command, "");
    } else if (c.k === "out") bump(hour, OUT, c.n);
    else if (c.k === "press") addTally(day, "button", c.text, c.node);
    else {
      add(pending.visits, day + SEP + c.node);
      if (c.userId === null) return;
      const reached = day + SEP + c.node + SEP + c.userId;
      if (!known.rows.has(reached)) pending.reached.add(reached);
      const followed = c.via ? day + SEP + c.via + SEP + c.node + SEP + c.userId + SEP + "edge" : undefined;
      if (followed && !known.rows.has(followed)) pending.edges.add(followed);
    }
  } else if (op.t === "person" && op.p.in > 0) {
    const p = op.p;
    const hour = p.at.slice(0, 13);
    const day = p.at.slice(0, 10);
    const hadSource = known.people.get(p.userId);
    let latest: { day: string; last_hour: string } | null | undefined;
    if (hadSource === undefined || (p.source && !hadSource)) {
      const before = q.person.get(TOKEN_ID, p.userId);
      if (!before || before.messages_in === 0) bump(hour, NEW);
      if (p.source && !before?.source) addTally(day, "source", p.source, "");
      keep(known.people, p.userId, !!(before?.source ?? p.source));
      if (!before) {
        latest = q.lastDay.get(TOKEN_ID, p.userId, day);
        if (!latest) keep(pending.fresh, p.userId, day);
      }
    }
    if (known.activeHour.get(p.userId) === hour) return;
    keep(known.activeHour, p.userId, hour);
    if (latest === undefined) latest = pending.fresh.get(p.userId) === day ? null : q.lastDay.get(TOKEN_ID, p.userId, day);
    if (latest?.day === day) {
      // a later hour of a day already counted: active this hour, not a first of the day
      if (latest.last_hour !== hour && q.nextHour.run(hour, TOKEN_ID, p.userId, day, hour).changes > 0) bump(hour, ACTIVE);
      return;
    }
    const prev = latest?.day ?? null;
    if (q.newDay.run(TOKEN_ID, p.userId, day, prev, hour).changes === 0) return;
    bump(hour, ACTIVE);
    // the user's language on their first message of the day
    add(pending.active, day + SEP + (prev ?? "") + SEP + (p.language ?? ""));
    if (prev) q.oldUserDays.run(TOKEN_ID, p.userId, prev);
  } else if (op.t === "blocked" && op.on) {
    if (q.person.get(TOKEN_ID, op.userId)?.blocked !== 1) bump(op.at.slice(0, 13), BLOCKED);
  }
}

/**
 * The counts of several batches are summed in memory and written with the first batch a window
 * after the last write (or when the bot stops): a busy bot writes each counter row about once a
 * second instead of with every 50 ms batch. A timer brings a quiet bot's last counts in.
 */
export const COUNT_WINDOW_MS = 1000;
/**
 * Write-side rows (a user's first visit of a node or transition that day) per transaction: a
 * window with many new users is written in slices with a turn of the event loop between, so no
 * reply of the bot (or of the other bots of its runner) waits behind all of them at once.
 */
export const COUNT_SLICE = 64;
let countsWrittenAt = 0;
let countTimer: ReturnType<typeof setTimeout> | undefined;
/** set by the timers: a slice of the window is written, not all (a stopping bot writes all) */
let slicing = false;

export function countsWaiting(): boolean {
  return pending.hours.size + pending.active.size + pending.tallies.size + pending.visits.size + pending.reached.size + pending.edges.size > 0;
}

/** The timers' write: the records waiting and a slice of the counts. */
export function writeSlice() {
  countTimer = undefined;
  slicing = true;
  try {
    flushRecords(true);
  } finally {
    slicing = false;
  }
}

/** Writes what the batches summed once the window has passed (`now`: at once); called at the end of the record transaction. */
export function writeCounts(now = false) {
  const q = analyticsSql;
  if (!q || !countsWaiting()) return;
  const wait = countsWrittenAt + COUNT_WINDOW_MS - Date.now();
  if (!now && wait > 0) {
    countTimer ??= setTimeout(writeSlice, wait);
    countTimer.unref?.();
    return;
  }
  if (countTimer) clearTimeout(countTimer);
  countTimer = undefined;
  let budget = !now || slicing ? COUNT_SLICE : Infinity;
  countsWrittenAt = Date.now();
  for (const [hour, c] of pending.hours) q.hour.run(TOKEN_ID, hour, c[NEW], c[ACTIVE], c[IN], c[OUT], c[BLOCKED]);
  for (const [key, n] of pending.active) {
    const [day, prev, language] = key.split(SEP);
    q.active.run(TOKEN_ID, day, prev, language, n);
  }
  for (const [key, n] of pending.tallies) {
    const [day, kind, name, node] = key.split(SEP);
    q.tally.run(TOKEN_ID, day, kind, name, node, n);
  }
  // day, node, previous day → [users new to the node that day, visits]; visits go to the row
  // without a previous day, which the users of every range include anyway
  const reach = new Map<string, [number, number]>();
  const reachOf = (key: string) => reach.get(key) ?? (reach.set(key, [0, 0]), reach.get(key)!);
  for (const [key, n] of pending.visits) reachOf(key + SEP)[1] += n;
  for (const key of pending.reached) {
    if (budget-- <= 0) break;
    pending.reached.delete(key);
    const [day, node, user] = key.split(SEP);
    rememberRow(key);
    const prev = pending.fresh.get(user) === day ? null : q.lastNodeDay.get(TOKEN_ID, user, node, day)?.day ?? null;
    if (prev === day || q.visit.run(TOKEN_ID, node, user, day, prev).changes === 0) continue;
    reachOf(day + SEP + node + SEP + (prev ?? ""))[0] += 1;
    if (prev) q.oldNodeDays.run(TOKEN_ID, user, node, prev);
  }
  for (const [key, [users, visits]] of reach) {
    const [day, node, prev] = key.split(SEP);
    q.reach.run(TOKEN_ID, day, node, prev, users, visits);
  }
  const followed = new Map<string, number>();
  for (const key of pending.edges) {
    if (budget-- <= 0) break;
    pending.edges.delete(key);
    const [day, from, to, user] = key.split(SEP);
    rememberRow(key);
    const prev = pending.fresh.get(user) === day ? null : q.lastEdgeDay.get(TOKEN_ID, user, from, to, day)?.day ?? null;
    if (prev === day || q.edge.run(TOKEN_ID, from, to, user, day, prev).changes === 0) continue;
    add(followed, day + SEP + from + SEP + to + SEP + (prev ?? ""));
    if (prev) q.oldEdgeDays.run(TOKEN_ID, user, from, to, prev);
  }
  for (const [key, users] of followed) {
    const [day, from, to, prev] = key.split(SEP);
    q.edgeReach.run(TOKEN_ID, day, from, to, prev, users);
  }
  pending.hours.clear();
  pending.active.clear();
  pending.tallies.clear();
  pending.visits.clear();
  if (pending.reached.size + pending.edges.size === 0) return pending.fresh.clear();
  countTimer = setTimeout(writeSlice, 0);
  countTimer.unref?.();
}

export function keep<T>(map: Map<string, T>, key: string, value: T) {
  if (map.size >= KNOWN_MAX) map.clear();
  map.set(key, value);
}

export function rememberRow(key: string) {
  if (known.rows.size >= KNOWN_MAX) known.rows.clear();
  known.rows.add(key);
}

/** A batch that could not be written takes its counts with it (its records are dropped too), and what it taught the memory. */
export function clearCounts() {
  forget();
  clearPending();
}

export function clearPending() {
  pending.hours.clear();
  pending.active.clear();
  pending.reached.clear();
  pending.tallies.clear();
  pending.visits.clear();
  pending.edges.clear();
  pending.fresh.clear();
}
