// The Dialogs endpoints of a token (docs/dialogs.md, "Message store and dialogs"): shapes and calls.
import { del, get, patch, post, put } from "../../../api/client";
import type { Answer, Body } from "../../../api/types";

export type ChatFilter = "all" | "unread" | "takeover" | "blocked";
export const CHAT_FILTERS: ChatFilter[] = ["all", "unread", "takeover", "blocked"];
export const CHAT_KINDS = ["private", "group", "supergroup", "channel"] as const;
export const TEXT_MAX = 4096;

export type ChatPage = Answer<"/api/bot/tokens/{tokenId}/chats">;
export type ChatItem = ChatPage["items"][number];
export type Button = NonNullable<RecordedMessage["buttons"]>[number][number];
type RecordedMessage = Answer<"/api/bot/tokens/{tokenId}/chats/{chatId}/messages">["items"][number];

/** A Telegram message entity: formatting over a slice of a message's text. */
export type Entity = NonNullable<RecordedMessage["entities"]>[number];

/** A recorded message; `format` (the parse mode it was sent in) or `entities` say how its text is formatted. */
export type ChatMessage = RecordedMessage;
export type MessagePage = { items: ChatMessage[]; hasMore: boolean };

export type SendBody = Body<"/api/bot/tokens/{tokenId}/chats/{chatId}/messages", "post">;
export type SendButton = NonNullable<SendBody["buttons"]>[number][number];

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

/** A chat's name as a person reads it: title, the user's names, @username, then the id. */
export function chatName(c: Pick<ChatItem, "title" | "firstName" | "lastName" | "userName" | "chatId">): string {
  return c.title || [c.firstName, c.lastName].filter(Boolean).join(" ") || (c.userName ? `@${c.userName}` : "") || c.chatId;
}

/** Order of a conversation: when it happened (the bot writes its records in batches, so ids of a
 * bot's and an operator's messages a few ms apart may be out of order), then id. */
export function byTime(a: ChatMessage, b: ChatMessage): number {
  return a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.id - b.id;
}
