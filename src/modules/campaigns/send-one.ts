// One campaign message to one user: rendered with the user's variables, paced with the token's other
// sends, the messenger's answer classified. The sender's worker thread (send-loop.ts) and the test
// send on the server's event loop (service.ts) both call it (docs/campaigns.md#the-sender).
import { MessengerError } from "../../errors";
import type { FilePart, MessengerClient } from "../../messenger/client";
import type { SendPace } from "../../messenger/send-pace";
import { renderFor } from "../../lib/shared-render";
import { messageFileId } from "../../lib/shared-runtime";
import type { TokenRow } from "../tokens/access";
import { BLOCKED, PARSE_MODE } from "../dialogs/service";
import type { NewMessage } from "../dialogs/queries";
import type { Addressee, ChatRecord } from "./queries";

/** What one send needs besides the recipient: the message as the messenger takes it. */
export interface Prepared {
  text: string;
  format: "none" | "html" | "markdown";
  keyboard?: { text: string; url?: string; callback_data?: string }[][];
  media?: { mediaId: number; method: string; field: string; kind: string; fileName: string; mimeType: string; bytes: Uint8Array; fileId?: string };
  /** an album (sendMediaGroup): the items in order, the caption on the first (docs/campaigns.md#albums) */
  album?: { mediaId: number; type: string; fileName: string; mimeType: string; bytes: Uint8Array; fileId?: string }[];
}

/** The token's fields a send reads (what the server hands the worker thread). */
export type SendToken = Pick<TokenRow, "id" | "projectId" | "token" | "sendsPerSecond" | "protectContent" | "messageRetentionDays">;

/**
 * A sent message carries the text the recipient got (their variables rendered in), for its record;
 * an album's `messageIds` are all of its messages, the first being `messageId`.
 */
export type SendOutcome = { ok: true; messageId: number; messageIds?: number[]; fileIds?: (string | null)[]; text: string } | { ok: false; retryAfter?: number; error: string };

export interface SendDeps {
  messenger: MessengerClient;
  pace: SendPace;
  /** the user blocked the bot or is gone: mark the person blocked, as Dialogs does */
  blocked(token: SendToken, userId: string): void;
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
    if (p.album && p.album.length > 0) return await sendAlbum(deps, token, p.album, params, text);
    if (p.media) {
      const m = p.media;
      const file = m.fileId ? undefined : { field: m.field, name: m.fileName, type: m.mimeType, bytes: m.bytes };
      const r = await deps.messenger.call<Record<string, unknown> & { message_id: number }>(token.token, m.method, { ...params, caption: text, [m.field]: m.fileId }, file);
      const fileId = messageFileId(r);
      m.fileId ??= fileId ?? undefined;
      return { ok: true, messageId: r.message_id, fileIds: [fileId], text };
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

/**
 * An album in one sendMediaGroup: files not uploaded yet go as attach:// parts, the caption rides on
 * the first item (a media group takes no keyboard: the model refuses buttons with one).
 */
async function sendAlbum(deps: SendDeps, token: SendToken, album: NonNullable<Prepared["album"]>, params: Record<string, unknown>, text: string): Promise<SendOutcome> {
  const files: FilePart[] = [];
  const media = album.map((it, i) => {
    if (!it.fileId) files.push({ field: `file${i}`, name: it.fileName, type: it.mimeType, bytes: it.bytes });
    return { type: it.type, media: it.fileId ?? `attach://file${i}`, ...(i === 0 && { caption: text, parse_mode: params.parse_mode }) };
  });
  const sent = await deps.messenger.call<(Record<string, unknown> & { message_id: number })[]>(
    token.token,
    "sendMediaGroup",
    { chat_id: params.chat_id, protect_content: params.protect_content, media },
    files,
  );
  const fileIds = sent.map((m) => messageFileId(m));
  album.forEach((it, i) => (it.fileId ??= fileIds[i] ?? undefined));
  const ids = sent.map((m) => m.message_id);
  return { ok: true, messageId: ids[0]!, messageIds: ids, fileIds, text };
}

/**
 * The campaign's message as the chat's record holds it (docs/dialogs.md): one record per message
 * (an album's items each, the caption on the first); none when the token keeps no messages.
 */
export function recordsOf(token: SendToken, chatId: string, p: Prepared, messageIds: number[], fileIds: (string | null)[], text: string, at: string, nodeId: string | null): ChatRecord[] {
  if (token.messageRetentionDays <= 0) return [];
  const format = p.format === "none" ? null : p.format;
  const buttons = p.keyboard ? JSON.stringify(p.keyboard.map((r) => r.map((b) => (b.url ? { text: b.text, url: b.url } : { text: b.text, data: b.callback_data })))) : null;
  return messageIds.map((messageId, i) => {
    const message: NewMessage = {
      direction: "out",
      sentBy: "campaign",
      operatorId: null,
      kind: p.album?.[i]?.type ?? p.media?.field ?? "text",
      text: i === 0 ? text : "",
      buttons,
      messengerMessageId: messageId,
      nodeId,
      createdAt: at,
    };
    // the file as Dialogs shows it (fetched through the token by its file id), and the project's media file
    const mediaId = p.album?.[i]?.mediaId ?? p.media?.mediaId ?? null;
    return { tokenId: token.id, chatId, message, format: i === 0 ? format : null, fileId: fileIds[i] ?? null, mediaId };
  });
}
