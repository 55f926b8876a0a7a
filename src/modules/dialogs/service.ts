// The Dialogs of a token (docs/dialogs.md): its chats and messages as the bot recorded them, and an
// operator answering as the bot. Sends go straight through the token (the bot need not run), paced
// per token and waiting out the messenger's retry_after; takeover and its resume reach a running
// bot through the bot manager's command channel.
import type { AppContext } from "../../context";
import type { ProjectDb } from "../../db/project-db";
import { AppError, badRequest, conflict, notFound } from "../../errors";
import { MessengerError } from "../../errors";
import { FILE_TOO_LARGE } from "../../messenger/client";
import { messageFileId } from "../../lib/shared-runtime";
import { normalizeDocument } from "../../scenario/model";
import type { TokenRow } from "../tokens/access";
import {
  chatView,
  GOTO_DATA_MAX_BYTES,
  GOTO_DATA_PREFIX,
  messageView,
  type ChatPage,
  type MessageView,
  type SendBody,
} from "./model";
import { chatOf, chatPage, insertOperatorMessage, markBlocked, markRead, messageOf, messagesBefore, projectDataOf, setTakeover, updateMessage, type ChatFilter } from "./queries";

/** The messenger's words for a user the bot can no longer reach (the send is then 409 BOT_BLOCKED). */
export const BLOCKED = /bot was blocked by the user|user is deactivated/i;
export const PARSE_MODE = { none: undefined, html: "HTML", markdown: "Markdown" } as const;
/** A recorded format (lower case, as the bot records it) → the parse mode an edit is sent in. */
const EDIT_PARSE_MODE: Record<string, string> = { html: "HTML", markdown: "Markdown", markdownv2: "MarkdownV2" };
export const CAPTION_MAX = 1024;
/** The Bot API's own download limit for bots. */
export const MEDIA_MAX_BYTES = 20 * 1024 * 1024;
export const MEDIA_METHOD: Record<string, [string, string]> = {
  photo: ["sendPhoto", "photo"],
  video: ["sendVideo", "video"],
  audio: ["sendAudio", "audio"],
  document: ["sendDocument", "document"],
};

/** The inline keyboard of a recorded message, when every button is one (a reply keyboard cannot be edited in). */
function inlineMarkupOf(rows: MessageView["buttons"]) {
  if (!rows || !rows.every((r) => r.every((b) => b.url || b.data))) return undefined;
  return { inline_keyboard: rows.map((r) => r.map((b) => (b.url ? { text: b.text, url: b.url } : { text: b.text, callback_data: b.data! }))) };
}

/** Whether the project's scenario has this node (goto buttons of operators and campaigns). */
export function scenarioHasNode(db: AppContext["db"], projectId: number, nodeId: string): boolean {
  const doc = normalizeDocument(projectDataOf(db, projectId)) as { sheets?: { nodes?: { id?: unknown }[] }[] } | null;
  return !!doc?.sheets?.some((s) => Array.isArray(s?.nodes) && s.nodes.some((n) => n?.id === nodeId));
}

/** Chat ids are strings: group ids and some user ids exceed 2^53. */
export function chatIdParam(raw: string | undefined): string {
  if (raw === undefined || !/^-?\d{1,20}$/.test(raw)) throw badRequest("chatId must be a chat id (an integer, as a string)");
  return raw;
}

export class DialogsService {
  constructor(private readonly ctx: AppContext) {}

  private require(tokenId: number, actorId: number): { token: TokenRow; db: ProjectDb | null } {
    const { token } = this.ctx.tokens.access.require(tokenId, actorId, { hideForbidden: true });
    return { token, db: this.ctx.projectFiles.existing(token.projectId) };
  }

  private requireChat(tokenId: number, actorId: number, chatId: string) {
    const { token, db } = this.require(tokenId, actorId);
    const chat = db ? chatOf(db, tokenId, chatId) : undefined;
    if (!db || !chat) throw notFound("Chat not found");
    return { token, db, chat };
  }

  chats(tokenId: number, actorId: number, filter: ChatFilter, page: number, perPage: number): ChatPage {
    const { db } = this.require(tokenId, actorId);
    if (!db) return { items: [], total: 0, page, perPage };
    const { rows, total } = chatPage(db, tokenId, filter, perPage, (page - 1) * perPage);
    return { items: rows.map(chatView), total, page, perPage };
  }

  messages(tokenId: number, actorId: number, chatId: string, before: number | undefined, limit: number): { items: MessageView[]; hasMore: boolean } {
    const { db } = this.requireChat(tokenId, actorId, chatId);
    const rows = messagesBefore(db, tokenId, chatId, before, limit);
    const hasMore = rows.length > limit;
    return { items: rows.slice(0, limit).reverse().map(messageView), hasMore };
  }

  /** Whether the project's scenario has this node (goto buttons, resume after a takeover). */
  private hasNode(projectId: number, nodeId: string): boolean {
    return scenarioHasNode(this.ctx.db, projectId, nodeId);
  }

  async send(tokenId: number, actorId: number, chatId: string, body: SendBody): Promise<MessageView> {
    const { token, db } = this.requireChat(tokenId, actorId, chatId);
    // A token that keeps no messages records none, an operator's neither (docs/dialogs.md "Retention"):
    // a message sent but never shown in its chat would be a message nobody can edit or delete.
    if (token.messageRetentionDays <= 0) throw conflict("This bot keeps no messages (messageRetentionDays is 0): Dialogs cannot answer its chats");
    const keyboard = body.buttons?.map((row) =>
      row.map((b) => {
        if ("url" in b) return { text: b.text, url: b.url };
        if (!this.hasNode(token.projectId, b.goto)) throw badRequest(`buttons: node "${b.goto}" is not in the project's scenario`);
        const data = GOTO_DATA_PREFIX + b.goto;
        if (new TextEncoder().encode(data).length > GOTO_DATA_MAX_BYTES) throw badRequest(`buttons: the node id "${b.goto}" is too long for a button (${GOTO_DATA_MAX_BYTES - GOTO_DATA_PREFIX.length} bytes at most)`);
        return { text: b.text, callback_data: data };
      }),
    );
    const media = body.mediaId === undefined ? null : await this.ctx.media.bytesOf(token.projectId, body.mediaId);
    if (body.mediaId !== undefined && !media) throw notFound("Media file not found");
    if (media && body.text.length > CAPTION_MAX) throw badRequest(`text is at most ${CAPTION_MAX} characters with a media file (a caption)`);
    const params: Record<string, unknown> = {
      chat_id: chatId,
      parse_mode: PARSE_MODE[body.format ?? "none"],
      protect_content: token.protectContent === 1 ? true : undefined,
      reply_markup: keyboard ? { inline_keyboard: keyboard } : undefined,
    };
    let sent: { message_id: number } & Record<string, unknown>;
    let kind = "text";
    if (media) {
      const [method, field] = MEDIA_METHOD[media.kind] ?? MEDIA_METHOD.document!;
      kind = field;
      sent = await this.call(token, chatId, method, { ...params, caption: body.text }, { field, name: media.fileName, type: media.mimeType, bytes: media.bytes });
    } else {
      sent = await this.call(token, chatId, "sendMessage", { ...params, text: body.text });
    }
    const row = insertOperatorMessage(db, tokenId, chatId, {
      direction: "out",
      sentBy: "operator",
      operatorId: actorId,
      kind,
      text: body.text,
      buttons: keyboard ? JSON.stringify(keyboard.map((r) => r.map((b) => ("url" in b ? { text: b.text, url: b.url } : { text: b.text, data: b.callback_data })))) : null,
      messengerMessageId: sent.message_id,
      createdAt: new Date().toISOString(),
    }, { format: body.format && body.format !== "none" ? body.format : null, entities: null, fileId: messageFileId(sent), mediaId: media ? body.mediaId! : null });
    this.told(token, chatId, row.id);
    return messageView(row);
  }

  async edit(tokenId: number, actorId: number, chatId: string, messageId: number, text: string): Promise<MessageView> {
    const { token, db } = this.requireChat(tokenId, actorId, chatId);
    const m = messageOf(db, tokenId, chatId, messageId);
    if (!m) throw notFound("Message not found");
    if (m.direction !== "out" || m.messengerMessageId === null) throw badRequest("Only the bot's own messages can be edited");
    if (m.deletedAt) throw badRequest("The message was deleted");
    const caption = m.kind !== "text";
    if (caption && text.length > CAPTION_MAX) throw badRequest(`text is at most ${CAPTION_MAX} characters for a caption`);
    await this.call(token, chatId, caption ? "editMessageCaption" : "editMessageText", {
      chat_id: chatId,
      message_id: m.messengerMessageId,
      ...(caption ? { caption: text } : { text }),
      // The new text is written in the message's format, as the composer showed it for editing.
      parse_mode: m.format ? EDIT_PARSE_MODE[m.format] : undefined,
      // An edit without reply_markup drops the message's inline buttons: they are sent again.
      reply_markup: inlineMarkupOf(messageView(m).buttons),
    });
    // Entities over the old text do not fit the new one; a format does.
    const row = updateMessage(db, m.id, { text, editedAt: new Date().toISOString() }, { format: m.format, entities: null });
    this.told(token, chatId, row.id);
    return messageView(row);
  }

  async remove(tokenId: number, actorId: number, chatId: string, messageId: number): Promise<{ success: true }> {
    const { token, db } = this.requireChat(tokenId, actorId, chatId);
    const m = messageOf(db, tokenId, chatId, messageId);
    if (!m) throw notFound("Message not found");
    if (m.messengerMessageId === null) throw badRequest("This record is no message in the chat (a button press)");
    if (!m.deletedAt) {
      await this.call(token, chatId, "deleteMessage", { chat_id: chatId, message_id: m.messengerMessageId });
      updateMessage(db, m.id, { deletedAt: new Date().toISOString() });
      this.told(token, chatId, m.id);
    }
    return { success: true };
  }

  /**
   * The file of a recorded message, fetched through the token (getFile, then the download): the
   * browser gets it from this server, never a URL with the token in it. At most MEDIA_MAX_BYTES,
   * streamed (the server holds no whole file).
   */
  async media(tokenId: number, actorId: number, chatId: string, messageId: number): Promise<{ body: ReadableStream<Uint8Array>; contentType: string }> {
    const { token, db } = this.requireChat(tokenId, actorId, chatId);
    const m = messageOf(db, tokenId, chatId, messageId);
    if (!m) throw notFound("Message not found");
    if (!m.fileId) throw notFound("This message has no file");
    try {
      const f = await this.ctx.messenger.openFile(token.token, m.fileId, MEDIA_MAX_BYTES);
      return { body: f.body, contentType: f.contentType };
    } catch (e) {
      if (!(e instanceof MessengerError)) throw e;
      if (e.message === FILE_TOO_LARGE) throw new AppError(413, "PAYLOAD_TOO_LARGE", `The file is larger than ${MEDIA_MAX_BYTES / 1024 / 1024} MB; open it in the messenger`);
      if (e.status === 400 || e.status === 404) throw notFound("The messenger no longer has this file");
      throw new AppError(502, "BAD_GATEWAY", `The messenger did not give the file: ${e.message}`);
    }
  }

  takeover(tokenId: number, actorId: number, chatId: string, on: boolean, resumeAt: string | undefined): { chatId: string; takeover: boolean; resumed: boolean } {
    const { token, db } = this.requireChat(tokenId, actorId, chatId);
    if (resumeAt !== undefined && on) throw badRequest("resumeAt goes with on: false (the scenario resumes when the operator lets go)");
    if (resumeAt !== undefined && !this.hasNode(token.projectId, resumeAt)) throw badRequest(`resumeAt: node "${resumeAt}" is not in the project's scenario`);
    setTakeover(db, tokenId, chatId, on);
    // A bot that does not run cannot resume; the flag is off all the same and its next message starts as usual.
    const resumed = resumeAt !== undefined && this.ctx.bots.tell(tokenId, { op: "resume", chatId, nodeId: resumeAt });
    return { chatId, takeover: on, resumed };
  }

  read(tokenId: number, actorId: number, chatId: string): { chatId: string; unread: 0 } {
    const { db } = this.requireChat(tokenId, actorId, chatId);
    markRead(db, tokenId, chatId);
    return { chatId, unread: 0 };
  }

  private told(token: TokenRow, chatId: string, messageId: number) {
    this.ctx.events.emit("chat-message", { projectId: token.projectId, tokenId: token.id, chatId, messageId });
  }

  /**
   * One Bot API call of an operator: paced with the token's other operator sends, a 429 waited
   * out (retry_after up to 30 s, twice at most), a blocked user marked and answered 409 BOT_BLOCKED.
   */
  private async call<T>(token: TokenRow, chatId: string, method: string, params: Record<string, unknown>, file?: Parameters<AppContext["messenger"]["call"]>[3]): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      await this.ctx.sendPace.slot(token.id, token.sendsPerSecond);
      try {
        return await this.ctx.messenger.call<T>(token.token, method, params, file);
      } catch (e) {
        if (!(e instanceof MessengerError)) throw e;
        if (e.status === 429 && e.retryAfter !== undefined && e.retryAfter <= 30 && attempt < 2) {
          this.ctx.sendPace.pause(token.id, e.retryAfter * 1000);
          continue;
        }
        if (e.status === 403 && BLOCKED.test(e.message)) {
          const db = this.ctx.projectFiles.existing(token.projectId);
          if (db && Number(chatId) > 0) markBlocked(db, token.id, chatId, new Date().toISOString());
          throw new AppError(409, "BOT_BLOCKED", "The user blocked the bot (or deleted the account); the user is marked blocked");
        }
        if (e.status === 429) throw new AppError(429, "RATE_LIMITED", "The messenger asks to wait before the next message; try again later");
        if (e.status === 400) throw badRequest(`The messenger refused: ${e.message}`);
        throw new AppError(502, "BAD_GATEWAY", `The messenger did not take the message: ${e.message}`);
      }
    }
  }
}
