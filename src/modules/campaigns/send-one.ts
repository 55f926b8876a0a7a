// One campaign message to one user: rendered with the user's variables, paced with the token's other
// sends, the messenger's answer classified. The sender's worker thread (send-loop.ts) and the test
// send on the server's event loop (service.ts) both call it (docs/campaigns.md#the-sender).
import { MessengerError } from "../../errors";
import type { MessengerClient } from "../../messenger/client";
import type { SendPace } from "../../messenger/send-pace";
import { renderFor } from "../../lib/shared-render";
import type { TokenRow } from "../tokens/access";
import { BLOCKED, PARSE_MODE } from "../dialogs/service";
import type { Addressee } from "./queries";

/** What one send needs besides the recipient: the message as the messenger takes it. */
export interface Prepared {
  text: string;
  format: "none" | "html" | "markdown";
  keyboard?: { text: string; url?: string; callback_data?: string }[][];
  media?: { method: string; field: string; kind: string; fileName: string; mimeType: string; bytes: Uint8Array; fileId?: string };
}

/** The token's fields a send reads (what the server hands the worker thread). */
export type SendToken = Pick<TokenRow, "id" | "projectId" | "token" | "sendsPerSecond" | "protectContent" | "messageRetentionDays">;

/** A sent message carries the text the recipient got (their variables rendered in), for its record. */
export type SendOutcome = { ok: true; messageId: number; text: string } | { ok: false; retryAfter?: number; error: string };

export interface SendDeps {
  messenger: MessengerClient;
  pace: SendPace;
  /** the user blocked the bot or is gone: mark the person blocked, as Dialogs does */
  blocked(token: SendToken, userId: string): void;
}

/** The file id the messenger answered for an upload (so the next recipient reuses it). */
function fileIdOf(result: Record<string, unknown>, field: string): string | undefined {
  const v = result[field];
  if (Array.isArray(v)) return (v[v.length - 1] as { file_id?: string } | undefined)?.file_id;
  return (v as { file_id?: string } | undefined)?.file_id;
}

function parseVars(raw: string | null): Record<string, unknown> {
  if (!raw) return {};
  try {
    const v = JSON.parse(raw);
    return v && typeof v === "object" && !Array.isArray(v) ? v : {};
  } catch {
    return {};
  }
}

/** One message to one user, paced with the token's other sends; never throws. */
export async function sendOne(deps: SendDeps, token: SendToken, p: Prepared, to: Omit<Addressee, "id">): Promise<SendOutcome> {
  const vars = { ...parseVars(to.variables), ...parseVars(to.chatVariables) };
  const text = renderFor(p.text, { id: Number(to.userId), firstName: to.firstName, lastName: to.lastName, username: to.username }, vars, p.format);
  const params: Record<string, unknown> = {
    chat_id: to.userId,
    parse_mode: PARSE_MODE[p.format],
    protect_content: token.protectContent === 1 ? true : undefined,
    reply_markup: p.keyboard ? { inline_keyboard: p.keyboard } : undefined,
  };
  await deps.pace.slot(token.id, token.sendsPerSecond);
  try {
    if (p.media) {
      const m = p.media;
      const file = m.fileId ? undefined : { field: m.field, name: m.fileName, type: m.mimeType, bytes: m.bytes };
      const r = await deps.messenger.call<Record<string, unknown> & { message_id: number }>(token.token, m.method, { ...params, caption: text, [m.field]: m.fileId }, file);
      m.fileId ??= fileIdOf(r, m.field);
      return { ok: true, messageId: r.message_id, text };
    }
    const r = await deps.messenger.call<{ message_id: number }>(token.token, "sendMessage", { ...params, text });
    return { ok: true, messageId: r.message_id, text };
  } catch (e) {
    if (!(e instanceof MessengerError)) return { ok: false, error: "unknown" };
    if (e.status === 429) {
      deps.pace.pause(token.id, (e.retryAfter ?? 1) * 1000);
      return { ok: false, retryAfter: e.retryAfter ?? 1, error: "rate limited" };
    }
    if (e.status === 403 && BLOCKED.test(e.message)) {
      if (Number(to.userId) > 0) deps.blocked(token, to.userId);
      return { ok: false, error: /deactivated/i.test(e.message) ? "deactivated" : "blocked" };
    }
    // unreachable: the messenger may have taken it, so it is not retried (at most once)
    return { ok: false, error: e.kind === "unreachable" ? "unknown" : e.message.slice(0, 300) };
  }
}
