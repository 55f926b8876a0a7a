// Shapes of the Dialogs endpoints (docs/dialogs.md, docs/api.md "Dialogs").
import { z } from "zod";
import type { ChatRow, MessageRow } from "./queries";

export const CHATS_PER_PAGE_DEFAULT = 50;
export const CHATS_PER_PAGE_MAX = 200;
export const MESSAGES_LIMIT_DEFAULT = 50;
export const MESSAGES_LIMIT_MAX = 200;
export const TEXT_MAX = 4096;
/** Inline keyboards: the messenger takes at most 100 buttons; rows of at most 8. */
export const BUTTONS_MAX = 100;
export const BUTTON_ROW_MAX = 8;
/** callback_data is at most 64 bytes: "o:" and the node id. */
export const GOTO_DATA_PREFIX = "o:";
export const GOTO_DATA_MAX_BYTES = 64;

export const CHAT_KINDS = ["private", "group", "supergroup", "channel"] as const;
export const CHAT_FILTERS = ["all", "unread", "takeover", "blocked"] as const;

/** Links a user may open: web pages and the messenger's own links (never javascript:, data:, file:). */
const SAFE_URL = /^(https?:\/\/|tg:\/\/)[^\s]+$/i;

const buttonText = z.string().trim().min(1, "a button needs a text").max(64, "a button text is at most 64 characters");
const urlButton = z.strictObject({
  text: buttonText,
  url: z.string().max(2048, "a button url is at most 2048 characters").regex(SAFE_URL, "a button url must be http(s):// or tg://"),
});
const gotoButton = z.strictObject({ text: buttonText, goto: z.string().min(1, "goto names a node id").max(100, "goto is at most 100 characters") });

export const sendSchema = z.strictObject({
  text: z.string().refine((s) => s.trim().length > 0, "text must not be empty").refine((s) => s.length <= TEXT_MAX, `text is at most ${TEXT_MAX} characters`),
  format: z.enum(["none", "html", "markdown"], { error: "format must be none, html or markdown" }).optional(),
  mediaId: z.number({ error: "mediaId must be an integer" }).int("mediaId must be an integer").positive("mediaId must be positive").optional(),
  buttons: z
    .array(z.array(z.union([urlButton, gotoButton], { error: "a button is { text, url } or { text, goto }" })).min(1, "a row needs a button").max(BUTTON_ROW_MAX, `a row holds at most ${BUTTON_ROW_MAX} buttons`))
    .max(BUTTONS_MAX, `at most ${BUTTONS_MAX} rows`)
    .optional(),
});
export type SendBody = z.infer<typeof sendSchema>;

export const editSchema = z.strictObject({
  text: z.string().refine((s) => s.trim().length > 0, "text must not be empty").refine((s) => s.length <= TEXT_MAX, `text is at most ${TEXT_MAX} characters`),
});

export const takeoverSchema = z.strictObject({
  on: z.boolean({ error: "on must be true or false" }),
  resumeAt: z.string().min(1).max(100).optional(),
});

// The answers, for OpenAPI (the Studio's types are generated from it) and the service's types.
const int = z.number().int();
export const chatViewSchema = z.object({
  chatId: z.string(),
  kind: z.string(),
  title: z.string().nullable(),
  userId: z.string().nullable(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  userName: z.string().nullable(),
  lastMessageAt: z.string().nullable(),
  lastMessageText: z.string().nullable(),
  unread: int,
  takeover: z.boolean(),
  blocked: z.boolean(),
});
export type ChatView = z.output<typeof chatViewSchema>;

export const chatPageSchema = z.object({ items: z.array(chatViewSchema), total: int, page: int, perPage: int });
export type ChatPage = z.output<typeof chatPageSchema>;

const buttonSchema = z.object({ text: z.string(), url: z.string().optional(), data: z.string().optional(), goto: z.string().optional() });
export type Button = z.output<typeof buttonSchema>;
/** A messenger entity: formatting over a slice of the plain text (offset and length in UTF-16 units). */
const entitySchema = z.object({ type: z.string(), offset: int, length: int, url: z.string().optional(), language: z.string().optional() });
type Entity = z.output<typeof entitySchema>;

export const messageViewSchema = z.object({
  id: int,
  chatId: z.string(),
  direction: z.enum(["in", "out"]),
  sentBy: z.enum(["user", "bot", "operator", "campaign"]),
  operatorId: int.nullable(),
  kind: z.string(),
  text: z.string(),
  /** the parse mode the text was sent in (it is then marked up): html, markdown, markdownv2; null: plain */
  format: z.string().nullable(),
  /** the messenger's entities over the plain text (incoming messages, sends that carried them) */
  entities: z.array(entitySchema).nullable(),
  /** the message carries a messenger file: GET …/messages/{id}/media gives it */
  hasFile: z.boolean(),
  /** the project's media file an operator sent */
  mediaId: int.nullable(),
  buttons: z.array(z.array(buttonSchema)).nullable(),
  callbackData: z.string().nullable(),
  nodeId: z.string().nullable(),
  messengerMessageId: int.nullable(),
  createdAt: z.string(),
  editedAt: z.string().nullable(),
  deletedAt: z.string().nullable(),
});
export type MessageView = z.output<typeof messageViewSchema>;

export const messagesPageSchema = z.object({ items: z.array(messageViewSchema), hasMore: z.boolean() });
export const takeoverAnswerSchema = z.object({ chatId: z.string(), takeover: z.boolean(), resumed: z.boolean() });
export const readAnswerSchema = z.object({ chatId: z.string(), unread: z.literal(0) });
export const successSchema = z.object({ success: z.literal(true) });

export function chatView(r: ChatRow): ChatView {
  return {
    chatId: r.chatId,
    kind: r.kind,
    title: r.title,
    userId: r.userId,
    firstName: r.firstName,
    lastName: r.lastName,
    userName: r.username,
    lastMessageAt: r.lastMessageAt,
    lastMessageText: r.lastMessageText,
    unread: r.unread,
    takeover: r.takeover === 1,
    blocked: r.blocked === 1,
  };
}

function parseButtons(raw: string | null): Button[][] | null {
  if (!raw) return null;
  try {
    const v = JSON.parse(raw);
    return Array.isArray(v) ? v : null;
  } catch {
    return null;
  }
}

function parseEntities(raw: string | null): Entity[] | null {
  if (!raw) return null;
  try {
    const v = JSON.parse(raw);
    return Array.isArray(v) ? v.filter((e) => e && typeof e.type === "string" && Number.isInteger(e.offset) && Number.isInteger(e.length)) : null;
  } catch {
    return null;
  }
}

export function messageView(r: MessageRow): MessageView {
  const buttons = parseButtons(r.buttons);
  // An operator's "go to node" button shows its node (its data is GOTO_DATA_PREFIX + node id).
  for (const row of buttons ?? []) for (const b of row) if (b.data?.startsWith(GOTO_DATA_PREFIX)) b.goto = b.data.slice(GOTO_DATA_PREFIX.length);
  return {
    id: r.id,
    chatId: r.chatId,
    direction: r.direction,
    sentBy: r.sentBy,
    operatorId: r.operatorId,
    kind: r.kind,
    text: r.text,
    format: r.format,
    entities: parseEntities(r.entities),
    hasFile: r.fileId !== null,
    mediaId: r.mediaId,
    buttons,
    callbackData: r.callbackData,
    nodeId: r.nodeId,
    messengerMessageId: r.messengerMessageId,
    createdAt: r.createdAt,
    editedAt: r.editedAt,
    deletedAt: r.deletedAt,
  };
}
