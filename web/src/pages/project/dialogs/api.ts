// The Dialogs endpoints of a token (docs/dialogs.md, "Message store and dialogs"): shapes and calls.
import { del, get, patch, post, put } from "../../../api/client";

export type ChatFilter = "all" | "unread" | "takeover" | "blocked";
export const CHAT_FILTERS: ChatFilter[] = ["all", "unread", "takeover", "blocked"];
export const CHAT_KINDS = ["private", "group", "supergroup", "channel"] as const;
export const TEXT_MAX = 4096;

export interface ChatItem {
  chatId: string;
  kind: string;
  title: string | null;
  userId: string | null;
  firstName: string | null;
  userName: string | null;
  lastMessageAt: string | null;
  lastMessageText: string | null;
  unread: number;
  takeover: boolean;
  blocked: boolean;
}

export interface ChatPage {
  items: ChatItem[];
  total: number;
  page: number;
  perPage: number;
}

export interface Button {
  text: string;
  url?: string;
  goto?: string;
  data?: string;
}

/** A Telegram message entity: formatting of a recorded text, when the server keeps it. */
export interface Entity {
  type: string;
  offset: number;
  length: number;
  url?: string;
}

export interface ChatMessage {
  id: number;
  chatId: string;
  direction: "in" | "out";
  sentBy: "user" | "bot" | "operator" | "campaign";
  operatorId: number | null;
  kind: string;
  text: string;
  /** How `text` is written, when it carries its own markup (an operator's send). */
  format?: "none" | "html" | "markdown" | null;
  entities?: Entity[] | null;
  buttons: Button[][] | null;
  callbackData: string | null;
  nodeId: string | null;
  messengerMessageId: number | null;
  /** A media file the message carries, when the server can show it. */
  media?: { url?: string | null; mimeType?: string | null; fileName?: string | null } | null;
  createdAt: string;
  editedAt: string | null;
  deletedAt: string | null;
}

export interface MessagePage {
  items: ChatMessage[];
  hasMore: boolean;
}

export type SendButton = { text: string; url: string } | { text: string; goto: string };
export interface SendBody {
  text: string;
  format?: "none" | "html" | "markdown";
  mediaId?: number;
  buttons?: SendButton[][];
}

const base = (tokenId: number, chatId?: string) => `/api/bot/tokens/${tokenId}/chats${chatId === undefined ? "" : `/${encodeURIComponent(chatId)}`}`;

export const dialogsApi = {
  chats: (tokenId: number, q: { search?: string; kind?: string; filter?: ChatFilter; page?: number; perPage?: number }) => get<ChatPage>(base(tokenId), { query: q }),
  messages: (tokenId: number, chatId: string, before?: number, limit = 50) => get<MessagePage>(`${base(tokenId, chatId)}/messages`, { query: { before, limit } }),
  send: (tokenId: number, chatId: string, body: SendBody) => post<ChatMessage>(`${base(tokenId, chatId)}/messages`, body),
  edit: (tokenId: number, chatId: string, messageId: number, text: string) => patch<ChatMessage>(`${base(tokenId, chatId)}/messages/${messageId}`, { text }),
  remove: (tokenId: number, chatId: string, messageId: number) => del<{ success: true }>(`${base(tokenId, chatId)}/messages/${messageId}`),
  takeover: (tokenId: number, chatId: string, on: boolean, resumeAt?: string) => put<{ chatId: string; takeover: boolean }>(`${base(tokenId, chatId)}/takeover`, resumeAt ? { on, resumeAt } : { on }),
  read: (tokenId: number, chatId: string) => post<{ chatId: string; unread: 0 }>(`${base(tokenId, chatId)}/read`),
};

/** A chat's name as a person reads it: title, first name, @username, then the id. */
export function chatName(c: Pick<ChatItem, "title" | "firstName" | "userName" | "chatId">): string {
  return c.title || c.firstName || (c.userName ? `@${c.userName}` : "") || c.chatId;
}

/** Order of a conversation: when it happened (the bot writes its records in batches, so ids of a
 * bot's and an operator's messages a few ms apart may be out of order), then id. */
export function byTime(a: ChatMessage, b: ChatMessage): number {
  return a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.id - b.id;
}
