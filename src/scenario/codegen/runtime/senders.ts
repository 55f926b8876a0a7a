// Runtime source: the user of a private chat as the store records them, for the turns no update of
// theirs started (a schedule's for every user, a broadcast's, the platform's resume and webhook, a
// forum topic's message, an outgoing message's): such a turn knows its user as a message turn does
// (docs/runtime.md, "Turns no update started"). (Part of every generated bot; see types.ts.)
import { lazyStatements, readOnce } from "./connection";
import { OPTIONS } from "./program-data";
import { TOKEN_ID, db } from "./storage";
import type { Sender } from "./types";

// ─── Recorded senders ──────────────────────────────────────────────────────────

type SenderRow = { user_id: string; first_name: string | null; last_name: string | null; username: string | null; language_code: string | null; is_premium: number | null };

/**
 * What the store knows of the user of each private chat in `k` (rows of token_id and user_id, a
 * WITH of the caller's): names, username and language from the user record (bot_users) when the
 * bot keeps one, else the first name and username of the chat list (bot_chats) and the language
 * of the user's last message (bot_people); premium from bot_people.
 */
const SENDERS_SQL =
  "SELECT k.user_id, coalesce(u.first_name, c.first_name) AS first_name, u.last_name, " +
    "CASE WHEN u.user_id IS NULL THEN c.username ELSE u.username END AS username, " +
    "coalesce(u.language_code, p.language_code) AS language_code, p.is_premium FROM k " +
    // a bot that keeps no user record leaves bot_users as an earlier program of the project left it
    "LEFT JOIN bot_users u ON u.token_id = k.token_id AND u.user_id = k.user_id AND " + (OPTIONS.userDatabase ? "1" : "0") + " " +
    "LEFT JOIN bot_chats c ON c.token_id = k.token_id AND c.chat_id = k.user_id " +
    "LEFT JOIN bot_people p ON p.token_id = k.token_id AND p.user_id = k.user_id";

/** A row of SENDERS_SQL as the sender of a message of theirs would be. */
function senderOf(r: SenderRow): Sender {
  return {
    id: Number(r.user_id), is_bot: false, first_name: r.first_name ?? "", last_name: r.last_name ?? undefined,
    username: r.username ?? undefined, language_code: r.language_code ?? undefined, ...(r.is_premium === 1 ? { is_premium: true } : {}),
  };
}

/** A user the store knows nothing of: the id alone. */
export const senderAlone = (id: number): Sender => ({ id, is_bot: false, first_name: "" });

export const senderSql = db && lazyStatements({
  one: () => db!.prepare<SenderRow, [number, string]>("WITH k AS (SELECT ? AS token_id, ? AS user_id) " + SENDERS_SQL),
});

/**
 * The user of a private chat as recorded (SENDERS_SQL); the id alone when nothing is, or the store
 * cannot be read (logged: the turn goes on). A group's or channel's chat (id below 0) has none.
 */
export function recordedSender(chatId: number): Sender | undefined {
  if (!(chatId > 0)) return undefined;
  try {
    const row = senderSql?.one.get(TOKEN_ID, String(chatId));
    if (row) return senderOf(row);
  } catch (err) {
    console.error("chat " + chatId + ": cannot read its user's record:", err);
  }
  return senderAlone(chatId);
}

/**
 * The recorded users of many private chats in one read (broadcastRecipients): `chats` selects
 * their token_id, user_id and n (their order). Never a user who blocked the bot (bot_people), as
 * the store last saw them. Throws what the read throws. Only private chats' ids (positive, whole) come back.
 */
export function readSenders(chats: string, ...params: (string | number)[]): Sender[] {
  return readOnce<SenderRow>(db!, "WITH k AS (" + chats + ") " + SENDERS_SQL + " WHERE p.blocked IS NOT 1 ORDER BY k.n", ...params)
    .map(senderOf)
    .filter((s) => Number.isSafeInteger(s.id) && s.id > 0);
}
