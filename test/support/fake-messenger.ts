// A fake Telegram Bot API for tests: the platform's client and real grammY bots talk to it over
// HTTP (MESSENGER_API_ROOT = fake.url), and the test plays the user. Behaviour that bots depend on
// (long polling, webhooks, Telegram's validation errors) is imitated; everything a bot calls is
// recorded. Run standalone with `bun test/support/fake-messenger.ts [--port N]`; tests in another
// process then drive it through /__control (see fake-messenger/control.ts).
import type { Server } from "bun";
import { BotState, Directory } from "../../src/emulator/bot-api/chats";
import type { CallContext } from "../../src/emulator/bot-api/context";
import { Described } from "../../src/emulator/bot-api/context";
import { CallLog } from "./fake-messenger/call-log";
import { until } from "./process";
import { handleControl } from "./fake-messenger/control";
import { FileStore } from "../../src/emulator/bot-api/files";
import { findMethod, notFound } from "../../src/emulator/bot-api/methods";
import { forRecord, readParams } from "../../src/emulator/bot-api/params";
import { ApiError, type FakeBot, type FakeUser, type RecordedCall, type Update } from "../../src/emulator/bot-api/types";
import { contactFields, documentFields, groupMessage, openCheckout, photoFields, press, textFields, userMessage } from "../../src/emulator/bot-api/user-actions";

export type { FakeBot, FakeUser, RecordedCall, Update } from "../../src/emulator/bot-api/types";

export interface FakeMessenger {
  /** e.g. "http://127.0.0.1:43123"; use as MESSENGER_API_ROOT / grammY `client.apiRoot` */
  url: string;
  addBot(opts?: { token?: string; id?: number; username?: string; firstName?: string; hasPhoto?: boolean }): FakeBot;
  removeBot(token: string): void;
  setUserPhoto(userId: number, hasPhoto: boolean): void;
  sendText(token: string, from: FakeUser, text: string): Update;
  sendPhoto(token: string, from: FakeUser, opts?: { caption?: string }): Update;
  /** bytes: the file's content (getFile + download return it); default a small PNG */
  sendDocument(token: string, from: FakeUser, opts?: { fileName?: string; mimeType?: string; bytes?: Uint8Array }): Update;
  sendContact(token: string, from: FakeUser, phone: string): Update;
  /** any other message kind: `fields` are merged into the Message (e.g. {location:{...}}) */
  sendUserMessage(token: string, from: FakeUser, fields: Record<string, any>): Update;
  pressButton(token: string, from: FakeUser, data: string, messageId?: number): Update;
  /** a message by `from` in group chat `chatId` (< 0); a text, or other `fields` of the Message */
  sendGroupMessage(token: string, chatId: number, from: FakeUser, content: string | Record<string, any>): Update;
  /** the user blocks (or unblocks) every bot: sends to them fail with 403 */
  setBlocked(userId: number, blocked: boolean): void;
  /** makes a supergroup a forum (createForumTopic then works there) */
  setForum(chatId: number): void;
  /** a user's status in a group as moderation methods left it */
  member(chatId: number, userId: number): Record<string, any>;
  /** ids of the pinned messages of a chat, oldest first */
  pinned(chatId: number): number[];
  pushUpdate(token: string, update: any): void;
  /**
   * The user presses Pay on an invoice of `amount` Stars with `payload` (the test's own, not a sent
   * message): a pre_checkout_query the bot may answer once; accepted, the payment follows as
   * Telegram's successful_payment message. Answers the query's id.
   */
  checkout(token: string, from: FakeUser, invoice: { amount: number; payload: string }): string;
  /** updates not yet confirmed by the bot (polling) or delivered to its webhook */
  pending(token: string): number;
  /**
   * Resolves once every update so far is confirmed (by the bot's next poll) or delivered to its
   * webhook. An update not yet confirmed comes again when a killed bot starts, as Telegram's do, and
   * is answered twice: a test that kills a bot to prove something survives waits for this first.
   */
  waitForConfirmed(token: string, timeoutMs?: number): Promise<void>;
  /** every call the bot made (getUpdates included), oldest first */
  calls(token: string, method?: string): RecordedCall[];
  /** successful send*, copyMessage, forwardMessage, editMessage*, deleteMessage(s); not sendChatAction */
  sent(token: string, chatId?: number): RecordedCall[];
  /** resolves with the first recorded call matching `pred`, including calls made before the wait */
  waitForCall(token: string, pred: (c: RecordedCall) => boolean, timeoutMs?: number): Promise<RecordedCall>;
  /** the next `count` send-calls to the chat after those returned by earlier waits (a queue per chat) */
  waitForSent(token: string, chatId: number, count?: number, timeoutMs?: number): Promise<RecordedCall[]>;
  /** the next call to `method` answers with this error instead (e.g. 429 with retry_after) */
  failNext(token: string, method: string, error: { error_code: number; description: string; retry_after?: number }): void;
  /** calls to `method` are carried out and recorded at once but answered `ms` later (0 ends it): a send in flight */
  holdAnswers(token: string, method: string, ms: number): void;
  /** calls to this chat are carried out and recorded at once but answered only when the returned function is called: a slow answer to one recipient */
  holdChat(token: string, chatId: number): () => void;
  /** forgets recorded calls and waitForSent positions; chats, queues and webhooks stay */
  clear(token?: string): void;
  webhookOf(token: string): { url: string; secretToken?: string } | null;
  stop(): Promise<void>;
}

export interface FakeMessengerOptions {
  /** how long one webhook POST may take before it counts as failed (default 5000) */
  webhookTimeoutMs?: number;
  /** pauses between webhook retries; the update is dropped after the last (default [100, 400]) */
  webhookRetryDelaysMs?: number[];
  /** default 0 = any free port */
  port?: number;
}

const TOKEN_TAIL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-";
let nextBotId = 7_100_000_001;

function json(status: number, body: unknown) {
  return Response.json(body, { status });
}

function errorBody(e: ApiError) {
  return { ok: false, error_code: e.code, description: e.description, ...(e.parameters ? { parameters: e.parameters } : {}) };
}

class Fake implements FakeMessenger {
  url = "";
  server!: Server<undefined>;
  readonly dir = new Directory();
  readonly files = new FileStore();
  private bots = new Map<string, BotState>();
  private readonly log = new CallLog((token) =>
    this.bots.has(token) ? null : `(no bot with this token; known: ${[...this.bots.values()].map((s) => s.bot.username).join(", ")})`,
  );
  private failures = new Map<string, ApiError[]>();
  private holds = new Map<string, number>();
  private chatHolds = new Map<string, Promise<void>>();

  constructor(private readonly opts: FakeMessengerOptions) {}

  // ---- HTTP -------------------------------------------------------------------------------

  async fetch(req: Request): Promise<Response> {
    const url = new URL(req.url);
    if (url.pathname.startsWith("/__control/")) return handleControl(this, req, url);
    const api = /^\/bot([^/]+)\/([A-Za-z0-9_]*)\/?$/.exec(url.pathname);
    if (api) return this.apiCall(req, url, decodeURIComponent(api[1]!), api[2]!);
    const file = /^\/file\/bot([^/]+)\/(.+)$/.exec(url.pathname);
    if (file) return this.download(decodeURIComponent(file[1]!), decodeURIComponent(file[2]!));
    return json(404, { ok: false, error_code: 404, description: "Not Found" });
  }

  private async apiCall(req: Request, url: URL, token: string, method: string): Promise<Response> {
    const found = findMethod(method);
    const call: RecordedCall = { token, method: found?.name ?? method, params: {}, at: Date.now() };
    let recorded = false;
    try {
      const params = await readParams(req, url);
      call.params = forRecord(params);
      const state = this.bots.get(token);
      if (!state) throw new ApiError(401, "Unauthorized");
      if (!found) throw notFound();
      const injected = this.failures.get(`${token}|${found.name}`)?.shift();
      if (injected) throw injected;
      if (found.name === "getUpdates") {
        this.server.timeout(req, 0); // a long poll may outlast Bun's idle timeout
        this.record(call); // recorded on arrival: it may be held for seconds
        recorded = true;
      }
      const ctx: CallContext = { state, dir: this.dir, files: this.files, params, signal: req.signal };
      const result = await found.h(ctx);
      if (ctx.messageId !== undefined) call.messageId = ctx.messageId;
      if (!recorded) this.record(call);
      const hold = this.holds.get(`${token}|${found.name}`);
      if (hold) await Bun.sleep(hold);
      const chatHold = this.chatHolds.get(`${token}|${String(params.chat_id)}`);
      if (chatHold) await chatHold;
      return result instanceof Described
        ? json(200, { ok: true, result: result.result, description: result.description })
        : json(200, { ok: true, result });
    } catch (e) {
      const err = e instanceof ApiError ? e : new ApiError(500, `Internal Server Error: ${(e as Error)?.message ?? e}`);
      call.error = err.description;
      if (!recorded) this.record(call);
      return json(err.code, errorBody(err));
    }
  }

  private download(token: string, path: string): Response {
    if (!this.bots.has(token)) return json(401, { ok: false, error_code: 401, description: "Unauthorized" });
    const f = this.files.atPath(path);
    this.record({ token, method: "downloadFile", params: { file_path: path }, at: Date.now(), ...(f ? {} : { error: "Not Found" }) });
    if (!f) return json(404, { ok: false, error_code: 404, description: "Not Found" });
    return new Response(f.bytes.slice(), { headers: { "content-type": f.mime_type, "content-length": String(f.bytes.length) } });
  }

  /** A call Telegram makes on the bot's behalf (webhook reply): same handlers, same record. */
  private invokeFromWebhookReply(token: string, body: Record<string, any>) {
    const state = this.bots.get(token);
    const { method, ...params } = body;
    const found = findMethod(String(method));
    const call: RecordedCall = { token, method: found?.name ?? String(method), params, at: Date.now() };
    try {
      if (!state || !found || found.name === "getUpdates") throw notFound();
      const ctx: CallContext = { state, dir: this.dir, files: this.files, params, signal: new AbortController().signal };
      const r = found.h(ctx);
      if (r instanceof Promise) r.catch(() => {});
      if (ctx.messageId !== undefined) call.messageId = ctx.messageId;
    } catch (e) {
      call.error = e instanceof ApiError ? e.description : String(e);
    }
    this.record(call);
  }

  private record(call: RecordedCall) {
    this.log.record(call);
  }

  // ---- bots and users ---------------------------------------------------------------------

  addBot(opts: Parameters<FakeMessenger["addBot"]>[0] = {}): FakeBot {
    const fromToken = opts.token ? Number(opts.token.split(":")[0]) : NaN;
    const id = opts.id ?? (Number.isSafeInteger(fromToken) && fromToken > 0 ? fromToken : nextBotId++);
    const token = opts.token ?? `${id}:${randomTail(35)}`;
    const existing = this.bots.get(token);
    const bot: FakeBot = {
      token,
      id,
      username: opts.username ?? existing?.bot.username ?? `fake${id}_bot`,
      firstName: opts.firstName ?? existing?.bot.firstName ?? `Fake Bot ${id}`,
      hasPhoto: opts.hasPhoto ?? existing?.bot.hasPhoto ?? false,
    };
    if (existing) existing.bot = bot;
    else {
      const hook = {
        timeoutMs: this.opts.webhookTimeoutMs ?? 5000,
        retryDelaysMs: this.opts.webhookRetryDelaysMs ?? [100, 400],
        onReply: (body: Record<string, any>) => this.invokeFromWebhookReply(token, body),
      };
      this.bots.set(token, new BotState(bot, hook));
    }
    return { ...bot };
  }

  removeBot(token: string) {
    this.bots.get(token)?.updates.close(new ApiError(401, "Unauthorized"));
    this.bots.delete(token);
  }

  setUserPhoto(userId: number, hasPhoto: boolean) {
    this.dir.photos.set(userId, hasPhoto);
    for (const s of this.bots.values()) if (s.bot.id === userId) s.bot.hasPhoto = hasPhoto;
  }

  private state(token: string): BotState {
    const s = this.bots.get(token);
    if (!s) throw new Error(`fake messenger: no bot with token ${token.slice(0, 12)}…; call addBot first`);
    return s;
  }

  sendText(token: string, from: FakeUser, text: string) {
    return userMessage(this, this.state(token), from, textFields(text));
  }

  sendPhoto(token: string, from: FakeUser, opts: { caption?: string } = {}) {
    return userMessage(this, this.state(token), from, photoFields(this, opts.caption));
  }

  sendDocument(token: string, from: FakeUser, opts: { fileName?: string; mimeType?: string; bytes?: Uint8Array } = {}) {
    return userMessage(this, this.state(token), from, documentFields(this, opts.fileName, opts.mimeType, opts.bytes));
  }

  sendGroupMessage(token: string, chatId: number, from: FakeUser, content: string | Record<string, any>) {
    return groupMessage(this, this.state(token), chatId, from, typeof content === "string" ? textFields(content) : content);
  }

  setBlocked(userId: number, blocked: boolean) {
    if (blocked) this.dir.blocked.add(userId);
    else this.dir.blocked.delete(userId);
  }

  setForum(chatId: number) {
    this.dir.forums.add(chatId);
  }

  member(chatId: number, userId: number) {
    return this.dir.member(chatId, userId);
  }

  pinned(chatId: number) {
    return this.dir.pinned(chatId);
  }

  sendContact(token: string, from: FakeUser, phone: string) {
    return userMessage(this, this.state(token), from, contactFields(from, phone));
  }

  sendUserMessage(token: string, from: FakeUser, fields: Record<string, any>) {
    return userMessage(this, this.state(token), from, fields);
  }

  pressButton(token: string, from: FakeUser, data: string, messageId?: number) {
    return press(this, this.state(token), from, data, messageId);
  }

  pushUpdate(token: string, update: any) {
    this.state(token).updates.push(update);
  }

  checkout(token: string, from: FakeUser, invoice: { amount: number; payload: string }) {
    return openCheckout(this, this.state(token), from, this.dir.chat(from.id), invoice);
  }

  pending(token: string): number {
    return this.state(token).updates.pending;
  }

  async waitForConfirmed(token: string, timeoutMs = 15_000): Promise<void> {
    await until(() => this.pending(token) === 0, "every update confirmed", timeoutMs);
  }

  // ---- what the bot did -------------------------------------------------------------------

  calls(token: string, method?: string): RecordedCall[] {
    return this.log.calls(token, method);
  }

  sent(token: string, chatId?: number): RecordedCall[] {
    return this.log.sent(token, chatId);
  }

  waitForCall(token: string, pred: (c: RecordedCall) => boolean, timeoutMs = 5000): Promise<RecordedCall> {
    return this.log.waitForCall(token, pred, timeoutMs);
  }

  waitForSent(token: string, chatId: number, count = 1, timeoutMs = 5000): Promise<RecordedCall[]> {
    return this.log.waitForSent(token, chatId, count, timeoutMs);
  }

  holdAnswers(token: string, method: string, ms: number) {
    if (ms > 0) this.holds.set(`${token}|${method}`, ms);
    else this.holds.delete(`${token}|${method}`);
  }

  holdChat(token: string, chatId: number): () => void {
    const key = `${token}|${String(chatId)}`;
    const { promise, resolve } = Promise.withResolvers<void>();
    this.chatHolds.set(key, promise);
    return () => {
      if (this.chatHolds.get(key) === promise) this.chatHolds.delete(key);
      resolve();
    };
  }

  failNext(token: string, method: string, error: { error_code: number; description: string; retry_after?: number }) {
    const key = `${token}|${findMethod(method)?.name ?? method}`;
    const list = this.failures.get(key) ?? [];
    const params = error.retry_after !== undefined ? { retry_after: error.retry_after } : undefined;
    list.push(new ApiError(error.error_code, error.description, params));
    this.failures.set(key, list);
  }

  clear(token?: string) {
    this.log.clear(token);
  }

  webhookOf(token: string) {
    const h = this.bots.get(token)?.updates.webhook;
    return h ? { url: h.url, ...(h.secretToken ? { secretToken: h.secretToken } : {}) } : null;
  }

  async stop() {
    for (const s of this.bots.values()) s.updates.close();
    this.log.failAll(new Error("fake messenger stopped"));
    await this.server.stop(true);
  }
}

function randomTail(n: number) {
  const bytes = crypto.getRandomValues(new Uint8Array(n));
  return Array.from(bytes, (b) => TOKEN_TAIL[b % TOKEN_TAIL.length]).join("");
}

export async function startFakeMessenger(opts: FakeMessengerOptions = {}): Promise<FakeMessenger> {
  const fake = new Fake(opts);
  fake.server = Bun.serve({ hostname: "127.0.0.1", port: opts.port ?? 0, fetch: (req) => fake.fetch(req) });
  fake.url = `http://127.0.0.1:${fake.server.port}`;
  return fake;
}

if (import.meta.main) {
  const i = process.argv.indexOf("--port");
  const fake = await startFakeMessenger({ port: i > 0 ? Number(process.argv[i + 1]) : 0 });
  console.log(`FAKE_MESSENGER_URL=${fake.url}`);
  const quit = () => void fake.stop().then(() => process.exit(0));
  process.on("SIGINT", quit);
  process.on("SIGTERM", quit);
}
