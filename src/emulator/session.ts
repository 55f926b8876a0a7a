// One preview's messenger: a Bot API server on loopback that a single throwaway bot talks to, the
// chats it shares with the preview users, and the transcript the preview chat reads. It answers
// with the same method table as the test suite's fake messenger (bot-api/), so bots meet
// Telegram's validation and error shapes here too. Everything lives in memory and is bounded.
import type { Server } from "bun";
import { BotState, Directory, invoiceKey, userObject, type InvoiceRef } from "./bot-api/chats";
import { Described, type CallContext } from "./bot-api/context";
import { FileStore } from "./bot-api/files";
import { findMethod, notFound } from "./bot-api/methods";
import { readParams, Upload } from "./bot-api/params";
import { ApiError, badRequest, nowSeconds, type FakeUser, type Message } from "./bot-api/types";
import { CHECKOUT_WAIT_MS, openCheckout } from "./bot-api/user-actions";
import { Transcript } from "./transcript";
import { egressFetch, type EgressPolicy } from "../lib/shared-runtime";

/** Parameter the preview runtime adds to a call: the node that made it (Telegram ignores it). */
export const NODE_PARAM = "botloom_node";

export interface EmulatorLimits {
  /** transcript entries kept (older ones are forgotten) */
  maxEntries: number;
  /** largest request body the emulator reads (bot uploads) */
  maxBodyBytes: number;
  /** bytes of uploaded files kept in memory in all */
  maxFileBytes: number;
}

export const DEFAULT_EMULATOR_LIMITS: EmulatorLimits = { maxEntries: 400, maxBodyBytes: 10 * 1024 * 1024, maxFileBytes: 40 * 1024 * 1024 };

const SENDS = /^(send(?!ChatAction$)|copyMessage|forwardMessage)/;
const EDITS = /^editMessage/;

const json = (status: number, body: unknown) => Response.json(body, { status });

export class EmulatorSession {
  readonly dir = new Directory();
  readonly files = new FileStore();
  readonly state: BotState;
  readonly transcript: Transcript;
  private server: Server<undefined> | null = null;
  private fileBytes = 0;
  url = "";

  constructor(
    readonly bot: { token: string; id: number; username: string; firstName: string },
    private readonly limits: EmulatorLimits = DEFAULT_EMULATOR_LIMITS,
    egress?: EgressPolicy,
  ) {
    this.state = new BotState(
      { ...bot, hasPhoto: false },
      // The preview bot polls; a webhook URL it registers anyway (an http_request may call
      // setWebhook on this emulator) gets its deliveries under the egress policy, from the server.
      {
        timeoutMs: 5000,
        retryDelaysMs: [],
        onReply: (body) => void this.replyCall(body),
        send: egress ? async (url, init) => (await egressFetch(egress, url, init)).response : undefined,
      },
    );
    this.transcript = new Transcript(limits.maxEntries, (e) => {
      if (e.messageId !== undefined) this.state.remove(e.chatId, e.messageId);
    });
  }

  start(): string {
    this.server = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      maxRequestBodySize: this.limits.maxBodyBytes,
      fetch: (req) => this.fetch(req),
    });
    this.url = `http://127.0.0.1:${this.server.port}`;
    return this.url;
  }

  get port(): number | null {
    return this.server?.port ?? null;
  }

  async stop() {
    for (const id of [...this.waits.keys()]) this.endWait(id);
    this.state.updates.close(new ApiError(401, "Unauthorized"));
    this.transcript.close();
    const s = this.server;
    this.server = null;
    // held long polls were just answered (401): let those answers leave before connections close
    if (s) await Promise.race([s.stop(false), Bun.sleep(200)]);
    if (s) await s.stop(true);
  }

  // ---- the bot's side: HTTP ------------------------------------------------------------------

  private async fetch(req: Request): Promise<Response> {
    const url = new URL(req.url);
    const api = /^\/bot([^/]+)\/([A-Za-z0-9_]*)\/?$/.exec(url.pathname);
    if (api) {
      if (decodeURIComponent(api[1]!) !== this.bot.token) return json(401, { ok: false, error_code: 401, description: "Unauthorized" });
      if (findMethod(api[2]!)?.name === "getUpdates") this.server?.timeout(req, 0); // long polls outlast the idle timeout
      try {
        const params = await readParams(req, url);
        const result = await this.call(api[2]!, params, req.signal);
        return result instanceof Described
          ? json(200, { ok: true, result: result.result, description: result.description })
          : json(200, { ok: true, result });
      } catch (e) {
        const err = e instanceof ApiError ? e : new ApiError(500, "Internal Server Error");
        return json(err.code, { ok: false, error_code: err.code, description: err.description, ...(err.parameters ? { parameters: err.parameters } : {}) });
      }
    }
    const file = /^\/file\/bot([^/]+)\/(.+)$/.exec(url.pathname);
    if (file && decodeURIComponent(file[1]!) === this.bot.token) {
      const f = this.files.atPath(decodeURIComponent(file[2]!));
      if (f) return new Response(f.bytes.slice(), { headers: { "content-type": f.mime_type } });
    }
    return json(404, { ok: false, error_code: 404, description: "Not Found" });
  }

  private pollWaiters: (() => void)[] = [];

  /** Resolves at the bot's next getUpdates: it is up and listening. */
  nextPoll(): Promise<void> {
    return new Promise((resolve) => this.pollWaiters.push(resolve));
  }

  /** One Bot API call: the shared handler, then what the chat should show of it. */
  async call(method: string, params: Record<string, any>, signal: AbortSignal): Promise<unknown> {
    const found = findMethod(method);
    if (!found) throw notFound();
    const node = typeof params[NODE_PARAM] === "string" ? params[NODE_PARAM] : undefined;
    delete params[NODE_PARAM];
    if (found.name === "getUpdates" && this.pollWaiters.length) for (const w of this.pollWaiters.splice(0)) w();
    for (const v of Object.values(params)) if (v instanceof Upload) this.countBytes(v.size);
    const ctx: CallContext = { state: this.state, dir: this.dir, files: this.files, params, signal };
    const result = await found.h(ctx);
    this.observe(found.name, ctx, result, node);
    return result;
  }

  private async replyCall(body: Record<string, any>) {
    const { method, ...params } = body;
    try {
      await this.call(String(method), params, new AbortController().signal);
    } catch {
      // Telegram drops a webhook reply it cannot execute
    }
  }

  private countBytes(n: number) {
    if (this.fileBytes + n > this.limits.maxFileBytes) throw new ApiError(413, "Request Entity Too Large");
    this.fileBytes += n;
  }

  private observe(method: string, ctx: CallContext, result: unknown, node: string | undefined) {
    const p = ctx.params;
    const t = this.transcript;
    if (method === "sendMediaGroup" && Array.isArray(result)) {
      result.forEach((m: Message, i: number) => t.addMessage(m, "bot", p.media?.[i], node));
    } else if (SENDS.test(method)) {
      const chatId = this.dir.chat(p.chat_id).id;
      const stored = ctx.messageId !== undefined ? this.state.message(chatId, ctx.messageId) : undefined;
      if (stored) t.addMessage(stored, "bot", p, node);
    } else if (EDITS.test(method) && ctx.messageId !== undefined) {
      const stored = this.state.message(this.dir.chat(p.chat_id).id, ctx.messageId);
      if (stored) t.edited(stored, p, node);
    } else if (method === "deleteMessage") {
      t.deleted(Number(this.dir.chat(p.chat_id).id), Number(p.message_id));
    } else if (method === "deleteMessages" && Array.isArray(p.message_ids)) {
      for (const id of p.message_ids) t.deleted(Number(this.dir.chat(p.chat_id).id), Number(id));
    } else if (method === "pinChatMessage") {
      t.pinned(Number(this.dir.chat(p.chat_id).id), Number(ctx.messageId), true);
    } else if (method === "unpinChatMessage") {
      const chatId = Number(this.dir.chat(p.chat_id).id);
      for (const e of t.list(chatId)) if (e.pinned && !this.dir.pinned(chatId).includes(e.messageId!)) t.pinned(chatId, e.messageId!, false);
    } else if (method === "unpinAllChatMessages") {
      for (const e of t.list(Number(this.dir.chat(p.chat_id).id))) if (e.pinned) t.pinned(e.chatId, e.messageId!, false);
    } else if (method === "answerPreCheckoutQuery") {
      // the handler took the answer: the checkout's wait is over, paid or refused
      const invoice = this.endWait(String(p.pre_checkout_query_id));
      if (ctx.paidInvoice !== undefined) {
        t.checkoutEnded(ctx.paidInvoice.chatId, ctx.paidInvoice.messageId, { paid: true });
        // the successful_payment message the bot now gets: a service line of the chat, as Telegram shows it
        const paid = ctx.messageId !== undefined ? this.state.message(ctx.paidInvoice.chatId, ctx.messageId) : undefined;
        if (paid) t.addMessage(paid, "user");
      } else if (invoice) t.checkoutEnded(invoice.chatId, invoice.messageId, { refusal: String(p.error_message) });
    } else if (method === "sendChatAction") {
      t.typing(Number(this.dir.chat(p.chat_id).id));
    } else if (method === "answerCallbackQuery" && typeof p.text === "string" && p.text) {
      const chatId = this.callbackChats.get(String(p.callback_query_id));
      if (chatId !== undefined) t.notice(chatId, p.text, node);
    }
  }

  // ---- the users' side ---------------------------------------------------------------------

  private callbackChats = new Map<string, number>();
  private callbackSeq = 4_300_000_000_000_000_000n;

  /** Chat object for a private chat (the user's id) or a group (a negative id), as the bot's calls see it. */
  private chatFor(from: FakeUser, chatId: number) {
    return this.dir.chat(chatId < 0 ? chatId : from.id);
  }

  /** A message the user writes; `fields` are merged into the Message (text, photo, location, ...). */
  userMessage(from: FakeUser, chatId: number, fields: Record<string, any>) {
    this.dir.remember(from);
    const chat = this.chatFor(from, chatId);
    const message: Message = { message_id: this.state.nextMessageId(chat.id), from: userObject(from), chat, date: nowSeconds(), ...fields };
    this.state.store(message);
    const entry = this.transcript.addMessage(message, "user");
    this.state.updates.push({ message });
    return entry;
  }

  text(from: FakeUser, chatId: number, text: string) {
    const command = /^\/[A-Za-z0-9_]{1,32}(@[A-Za-z0-9_]+)?/.exec(text);
    return this.userMessage(from, chatId, command ? { text, entities: [{ type: "bot_command", offset: 0, length: command[0].length }] } : { text });
  }

  photo(from: FakeUser, chatId: number, upload: Upload | undefined, caption?: string) {
    if (upload) this.countBytes(upload.size);
    return this.userMessage(from, chatId, { photo: this.files.photoSizes(upload), ...(caption ? { caption } : {}) });
  }

  document(from: FakeUser, chatId: number, upload: Upload, caption?: string) {
    this.countBytes(upload.size);
    const f = this.files.create("document", upload);
    const document = { file_name: upload.fileName, mime_type: f.mime_type, file_id: f.file_id, file_unique_id: f.file_unique_id, file_size: f.file_size };
    return this.userMessage(from, chatId, { document, ...(caption ? { caption } : {}) });
  }

  /** A press on an inline button of a bot message still in the chat. */
  press(from: FakeUser, chatId: number, messageId: number, data: string) {
    this.dir.remember(from);
    const chat = this.chatFor(from, chatId);
    const message = this.state.message(chat.id, messageId);
    if (!message || message.from?.id !== this.bot.id) throw badRequest("message not found");
    const rows: any[][] = message.reply_markup?.inline_keyboard ?? [];
    if (!rows.some((row) => row.some((b) => b?.callback_data === data))) throw badRequest("the message has no button with this data");
    const id = String(++this.callbackSeq);
    this.state.callbackIds.add(id);
    this.callbackChats.set(id, Number(chat.id));
    this.state.updates.push({
      callback_query: { id, from: userObject(from), message: structuredClone(message), chat_instance: String(-Math.abs(Number(chat.id)) - 1_000_000), data },
    });
  }

  /** A reaction the user puts on a message of the chat (message_reaction; the bot must ask for them). */
  react(from: FakeUser, chatId: number, messageId: number, emoji: string) {
    this.dir.remember(from);
    const chat = this.chatFor(from, chatId);
    if (!this.state.message(chat.id, messageId)) throw badRequest("message not found");
    const reaction = { type: "emoji", emoji };
    this.state.updates.push({ message_reaction: { chat, message_id: messageId, user: userObject(from), date: nowSeconds(), old_reaction: [], new_reaction: [reaction] } });
  }

  /** Checkouts a Pay opened that the bot has not answered: query id → the invoice message, Telegram's wait. */
  private waits = new Map<string, { invoice: InvoiceRef; timer: ReturnType<typeof setTimeout> }>();

  /**
   * The user presses Pay on an invoice of the bot: a pre_checkout_query; the bot's "ok" pays it. The
   * invoice shows pending until the bot answers, or until Telegram's wait passes without an answer.
   */
  pay(from: FakeUser, chatId: number, messageId: number) {
    const chat = this.chatFor(from, chatId);
    const message = { chatId: Number(chat.id), messageId };
    const invoice = this.state.invoiceMessages.get(invoiceKey(message));
    if (!invoice) throw badRequest("the message has no invoice");
    const id = openCheckout(this, this.state, from, chat, invoice, message);
    // an earlier checkout of this invoice that openCheckout found expired: its wait is over
    for (const [other, wait] of this.waits) if (invoiceKey(wait.invoice) === invoiceKey(message)) this.endWait(other);
    const timer = setTimeout(() => {
      if (!this.endWait(id)) return;
      this.state.checkouts.delete(id);
      this.transcript.checkoutEnded(message.chatId, message.messageId, { expired: true });
    }, CHECKOUT_WAIT_MS);
    this.waits.set(id, { invoice: message, timer });
    this.transcript.paying(message.chatId, message.messageId);
  }

  /** Ends the wait of checkout `id`; answers its invoice message, or undefined when it had none. */
  private endWait(id: string): InvoiceRef | undefined {
    const wait = this.waits.get(id);
    if (!wait) return undefined;
    clearTimeout(wait.timer);
    this.waits.delete(id);
    return wait.invoice;
  }

  /** The user asks to join group `groupId` (chat_join_request; the bot may answer in the private chat). */
  joinRequest(from: FakeUser, groupId: number) {
    this.dir.remember(from);
    const chat = this.dir.chat(groupId);
    this.state.updates.push({ chat_join_request: { chat, from: userObject(from), user_chat_id: from.id, date: nowSeconds() } });
  }

  /** The user joins group `groupId` (chat_member: left → member). */
  joinGroup(from: FakeUser, groupId: number) {
    this.dir.remember(from);
    const chat = this.dir.chat(groupId);
    const user = userObject(from);
    this.dir.setMember(groupId, from.id, { status: "member" });
    this.state.updates.push({ chat_member: { chat, from: user, date: nowSeconds(), old_chat_member: { status: "left", user }, new_chat_member: { status: "member", user } } });
  }

  /** The user leaves group `groupId` or is made its administrator (chat_member, from the status they had). */
  memberChange(from: FakeUser, groupId: number, status: "left" | "administrator") {
    this.dir.remember(from);
    const chat = this.dir.chat(groupId);
    const user = userObject(from);
    const before = this.dir.member(groupId, from.id);
    this.dir.setMember(groupId, from.id, { status });
    const after = status === "administrator" ? { status, user, can_be_edited: false, is_anonymous: false } : { status, user };
    this.state.updates.push({ chat_member: { chat, from: user, date: nowSeconds(), old_chat_member: { ...before, user }, new_chat_member: after } });
  }

  /** Commands the bot registered for this user in this chat (chat scope first, as Telegram picks). */
  commandsFor(userId: number, chatId: number): { command: string; description: string }[] {
    const scoped = (scope: Record<string, any>) => this.state.commands.get(`${JSON.stringify(scope)}|`);
    return (
      scoped({ type: "chat", chat_id: chatId }) ??
      (chatId < 0 ? scoped({ type: "all_group_chats" }) : scoped({ type: "all_private_chats" })) ??
      scoped({ type: "default" }) ??
      this.state.commands.get(`${JSON.stringify({ type: "default" })}|`) ??
      []
    );
  }

  pinnedIn(chatId: number) {
    return this.dir.pinned(chatId);
  }

  fileById(fileId: string) {
    return this.files.get(fileId);
  }
}
