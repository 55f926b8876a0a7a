// Who exists and what was said: users seen by the fake (for chat objects and avatars) and each
// bot's own view of its chats (message ids, stored messages for edit/copy/delete/press).
import type { FakeBot, FakeUser, Message } from "./types";
import { UpdateQueue, type WebhookOptions } from "./updates";
import { badRequest } from "./types";

export function userObject(u: FakeUser): Record<string, any> {
  return strip({ id: u.id, is_bot: false, first_name: u.first_name, last_name: u.last_name, username: u.username, language_code: u.language_code, is_premium: u.is_premium });
}

export function botUserObject(b: FakeBot): Record<string, any> {
  return { id: b.id, is_bot: true, first_name: b.firstName, username: b.username };
}

export function strip<T extends Record<string, any>>(o: T): T {
  for (const k of Object.keys(o)) if (o[k] === undefined) delete o[k];
  return o;
}

export class Directory {
  readonly users = new Map<number, FakeUser>();
  readonly photos = new Map<number, boolean>();
  /** photo sizes per user/bot id, created on first request so file ids stay stable */
  readonly avatars = new Map<number, Record<string, any>[]>();
  /** group chats that are forums (createForumTopic works there) */
  readonly forums = new Set<number>();
  /** users who blocked the bots: sending to them fails with 403 as on Telegram */
  readonly blocked = new Set<number>();
  private members = new Map<string, Record<string, any>>();
  private pins = new Map<number, number[]>();

  /** A member's status in a group ("member" until a moderation method changes it). */
  member(chatId: number, userId: number): Record<string, any> {
    return this.members.get(`${chatId}:${userId}`) ?? { status: "member" };
  }

  setMember(chatId: number, userId: number, status: Record<string, any>) {
    this.members.set(`${chatId}:${userId}`, status);
  }

  /** Pinned message ids of a chat, oldest first. */
  pinned(chatId: number): number[] {
    return this.pins.get(chatId) ?? [];
  }

  setPinned(chatId: number, ids: number[]) {
    this.pins.set(chatId, ids);
  }

  remember(u: FakeUser) {
    if (typeof u?.id !== "number" || typeof u.first_name !== "string") throw new Error(`a FakeUser needs a numeric id and a first_name, got ${JSON.stringify(u)}`);
    this.users.set(u.id, u);
  }

  /** Chat object for a chat_id; unknown users still get a private chat so tests need no setup. */
  chat(chatId: unknown): Record<string, any> {
    if (chatId === undefined || chatId === null || chatId === "") throw badRequest("chat_id is empty");
    if (typeof chatId === "string" && chatId.startsWith("@")) {
      return { id: -1000000000000 - hash(chatId), type: "channel", title: chatId.slice(1), username: chatId.slice(1) };
    }
    const id = Number(chatId);
    if (!Number.isSafeInteger(id) || id === 0) throw badRequest("chat not found");
    if (id < 0) return { id, type: id < -1000000000000 ? "supergroup" : "group", title: `Group ${-id}` };
    const u = this.users.get(id);
    return strip({ id, type: "private", first_name: u?.first_name ?? `User ${id}`, last_name: u?.last_name, username: u?.username });
  }

  user(id: number): Record<string, any> {
    const u = this.users.get(id);
    return u ? userObject(u) : { id, is_bot: false, first_name: `User ${id}` };
  }
}

function hash(s: string) {
  let h = 0;
  for (const ch of s) h = (h * 31 + ch.charCodeAt(0)) % 1000000000;
  return h;
}

/** An invoice message of a chat. */
export interface InvoiceRef {
  chatId: number;
  messageId: number;
}

/** The key of an invoice message in BotState's maps (only a key: nothing reads it back). */
export const invoiceKey = (ref: InvoiceRef) => `${ref.chatId}:${ref.messageId}`;

export class BotState {
  readonly updates: UpdateQueue;
  readonly commands = new Map<string, { command: string; description: string }[]>();
  /** Stars: invoice payloads the bot sent (→ amount), charges users paid (→ the payer), charges refunded */
  readonly invoices = new Map<string, number>();
  readonly charges = new Map<string, number>();
  readonly refunded = new Set<string>();
  /** invoice messages the bot sent (by invoiceKey) → their payload and amount */
  readonly invoiceMessages = new Map<string, { payload: string; amount: number }>();
  /** open pre_checkout_query ids (a user's Pay) → what a confirmed checkout pays, its invoice message and when it opened */
  readonly checkouts = new Map<string, { from: Record<string, any>; chat: Record<string, any>; payload: string; amount: number; invoice?: InvoiceRef; at: number }>();
  /** the invoice messages paid (by invoiceKey): an invoice message is paid once */
  readonly paidInvoices = new Set<string>();
  /** setMyName / setMyDescription / setMyShortDescription, by "<field>|<language code>" */
  readonly profile = new Map<string, string>();
  readonly callbackIds = new Set<string>();
  private lastIds = new Map<string, number>();
  private messages = new Map<string, Message>();
  private lastFromBot = new Map<string, Message>();

  constructor(
    public bot: FakeBot,
    hook: WebhookOptions,
  ) {
    this.updates = new UpdateQueue(hook);
  }

  /** message_id is per chat and shared by both sides of the chat, as on Telegram. */
  nextMessageId(chatId: number | string): number {
    const id = (this.lastIds.get(String(chatId)) ?? 0) + 1;
    this.lastIds.set(String(chatId), id);
    return id;
  }

  store(m: Message) {
    this.messages.set(`${m.chat.id}:${m.message_id}`, m);
    if (m.from?.id === this.bot.id) this.lastFromBot.set(String(m.chat.id), m);
  }

  message(chatId: unknown, messageId: unknown): Message | undefined {
    return this.messages.get(`${chatId}:${messageId}`);
  }

  remove(chatId: unknown, messageId: unknown): boolean {
    const key = `${chatId}:${messageId}`;
    const m = this.messages.get(key);
    if (!m) return false;
    this.messages.delete(key);
    if (this.lastFromBot.get(String(chatId)) === m) this.lastFromBot.delete(String(chatId));
    return true;
  }

  lastBotMessage(chatId: number): Message | undefined {
    return this.lastFromBot.get(String(chatId));
  }
}
