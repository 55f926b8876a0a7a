// Runtime source: the one-time backfill of the analytics' new users (docs/analytics.md
// "Backfill"). Users the bot recorded before it counted (bot_people, and bot_users of older
// versions) are added to analytics_hours.new_users at the hour they were first seen, once per token
// (a marker row), a bounded chunk per transaction with a turn of the event loop between: the
// write lock is never held long, replies go on, and a bot stopped midway resumes at its cursor.
// (Part of every generated bot; see types.ts.)
import { COUNTING } from "./analytics";
import { inTransaction, lazyStatements, readOnce } from "./connection";
import { TOKEN_ID, db } from "./storage";

// ─── Analytics: backfill of users recorded before counting began ───────────────

/** Rows read per transaction. */
export const BACKFILL_ROWS = 2000;

const backfillSql = COUNTING && db
  ? lazyStatements({
      advance: () => db!.prepare<unknown, [string, number, number]>("UPDATE analytics_backfill SET cursor = ?, done = ? WHERE token_id = ?"),
      people: () => db!.prepare<{ key: string; seen: string; writes: number }, [number, string, number]>(
        "SELECT user_id AS key, first_seen_at AS seen, messages_in AS writes FROM bot_people WHERE token_id = ? AND user_id > ? ORDER BY user_id LIMIT ?",
      ),
      // older versions kept their users here only: those without a person record
      users: () => db!.prepare<{ key: number; seen: string; writes: number }, [number, number, number]>(
        "SELECT u.id AS key, u.first_seen_at AS seen, NOT EXISTS (SELECT 1 FROM bot_people p WHERE p.token_id = u.token_id AND p.user_id = u.user_id) AS writes " +
          "FROM bot_users u WHERE u.token_id = ? AND u.id > ? ORDER BY u.id LIMIT ?",
      ),
      hour: () => db!.prepare<unknown, [number, string, number]>(
        "INSERT INTO analytics_hours (token_id, hour, new_users) VALUES (?, ?, ?) ON CONFLICT (token_id, hour) DO UPDATE SET new_users = analytics_hours.new_users + excluded.new_users",
      ),
    })
  : null;

let backfillTimer: ReturnType<typeof setTimeout> | undefined;

/** Starts (or resumes) the backfill unless it is done; the chunks run between the bot's other work. */
export function startBackfill() {
  const q = backfillSql;
  if (!q) return;
  try {
    // read once at every start and done after the first: no statement kept for it (connection.ts)
    const markOf = () => readOnce<{ before: string; cursor: string; done: number }>(db!, "SELECT before, cursor, done FROM analytics_backfill WHERE token_id = ?", TOKEN_ID)[0];
    let mark = markOf();
    if (mark?.done) return;
    if (!mark) {
      // counting began with the token's first counted hour (a bot that never counted begins now)
      const first = readOnce<{ hour: string | null }>(db!, "SELECT min(hour) AS hour FROM analytics_hours WHERE token_id = ?", TOKEN_ID)[0]?.hour;
      db!.run("INSERT OR IGNORE INTO analytics_backfill (token_id, before) VALUES (?, ?)", [TOKEN_ID, first ? first + ":00:00.000Z" : new Date().toISOString()]);
      mark = markOf()!;
    }
    backfillStep(mark.before, mark.cursor);
  } catch (err) {
    console.error("analytics backfill: cannot start:", err);
  }
}

export function stopBackfill() {
  if (backfillTimer) clearTimeout(backfillTimer);
  backfillTimer = undefined;
}

/** A first-seen time as an hour key ("YYYY-MM-DDTHH"), SQLite's "YYYY-MM-DD HH:MM:SS" too; null for anything else. */
export function hourKey(seen: string): string | null {
  const m = /^(\d{4}-\d{2}-\d{2})[T ](\d{2})/.exec(seen);
  return m ? m[1] + "T" + m[2] : null;
}

/** One chunk: bot_people by user id ("p:<id>"), then bot_users by row id ("u:<id>"). */
export function backfillStep(before: string, cursor: string) {
  const q = backfillSql!;
  const beforeHour = hourKey(before) ?? "";
  const beforeKey = before.replace(" ", "T");
  let next = cursor;
  let done = false;
  try {
    inTransaction(db!, () => {
      const users = cursor.startsWith("u:");
      const rows = users ? q.users.all(TOKEN_ID, Number(cursor.slice(2)) || 0, BACKFILL_ROWS) : q.people.all(TOKEN_ID, cursor.slice(2), BACKFILL_ROWS);
      const hours = new Map<string, number>();
      for (const r of rows) {
        const hour = hourKey(r.seen);
        // a user first seen when the bot already counted was counted then
        if (r.writes > 0 && hour && hour <= beforeHour && r.seen.replace(" ", "T") < beforeKey) hours.set(hour, (hours.get(hour) ?? 0) + 1);
      }
      for (const [hour, n] of hours) q.hour.run(TOKEN_ID, hour, n);
      if (rows.length === BACKFILL_ROWS) next = (users ? "u:" : "p:") + rows[rows.length - 1]!.key;
      else if (!users) next = "u:0";
      else done = true;
      q.advance.run(next, done ? 1 : 0, TOKEN_ID);
    });
  } catch (err) {
    console.error("analytics backfill: a chunk failed; it is tried again at the next start:", err);
    return;
  }
  if (done) return;
  backfillTimer = setTimeout(() => backfillStep(before, next), 0);
  backfillTimer.unref?.();
}
