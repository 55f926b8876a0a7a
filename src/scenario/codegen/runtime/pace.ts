// Runtime source: the token's one send pace, shared through the project file with the platform's
// server (docs/campaigns.md#one-pace-per-token). The server's sends (campaigns, operators, tests)
// and the bot's own mass sends (an in-process broadcast, a schedule "for every user") reserve their
// send time in one row per token, so together they stay within the token's sends per second.
// (Part of every generated bot; see types.ts. The server runs this very text: src/lib/shared-runtime.ts.)
import type { Database } from "bun:sqlite";
import { inTransaction, readOnce } from "./connection";

// ─── The token's send pace, shared with the platform ───────────────────────────

/**
 * Reserves `ms` of the token's send time (`ms` 0: one slot at the row's pace) from `now` or after
 * the last reservation, in one write transaction; answers when it starts (epoch ms) and the pace.
 * `perSecond` is written when given (the server knows the token's setting), else the row's is kept
 * (or `fallback` for a row not written yet).
 */
export function reserveSendTime(db: Database, tokenId: number, now: number, ms: number, perSecond: number | undefined, fallback: number): { start: number; perSecond: number } {
  // inTransaction and readOnce leave no statement prepared behind (connection.ts): a bot reserves
  // only while it mass-sends, and keeps nothing of it once idle
  return inTransaction(
    db,
    () => {
      const [row] = readOnce<{ next_at: number; per_second: number }>(db, "SELECT next_at, per_second FROM send_pace WHERE token_id = ?", tokenId);
      const pace = perSecond ?? row?.per_second ?? fallback;
      const start = Math.max(now, row?.next_at ?? 0);
      const end = start + (ms > 0 ? ms : 1000 / pace);
      db.run("INSERT INTO send_pace (token_id, next_at, per_second) VALUES (?, ?, ?) ON CONFLICT (token_id) DO UPDATE SET next_at = excluded.next_at, per_second = excluded.per_second", [tokenId, end, pace]);
      return { start, perSecond: pace };
    },
  );
}

/** The messenger said to wait (429): no reservation of the token starts before `until` (epoch ms). */
export function holdSendTime(db: Database, tokenId: number, until: number, fallback: number) {
  db.run(
    "INSERT INTO send_pace (token_id, next_at, per_second) VALUES (?, ?, ?) ON CONFLICT (token_id) DO UPDATE SET next_at = max(next_at, excluded.next_at)",
    [tokenId, until, fallback],
  );
}
