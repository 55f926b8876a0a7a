// One preview as the preview thread hosts it (host-worker.ts): an emulator (the bot's messenger)
// and the preview bot process running the program the event loop generated. Who the preview user
// is, access and the program itself stay with the service on the event loop. No HTTP here.
import { egressPolicy } from "../../lib/shared-runtime";
import { PreviewBot, type PreviewLimits } from "../../bots/preview-process";
import { projectMediaDir } from "../../bots/program";
import { readChatVariables, writeChatVariables } from "../../db/preview-state";
import { EmulatorSession, type EmulatorLimits } from "../../emulator/session";
import { Upload } from "../../emulator/bot-api/params";
import { ApiError } from "../../emulator/bot-api/types";
import type { TranscriptEntry } from "../../emulator/transcript";
import { pollFields, webAppDataFields } from "../../emulator/bot-api/user-actions";
import { AppError, badRequest } from "../../errors";
import { randomBase62 } from "../../lib/crypto";
import type { HookValue } from "../../scenario/hook-request";
import type { HostConfig, HostedView, PreviewBotIdentity, Seat } from "./host-protocol";
import type { PreviewAction, PreviewTranscript } from "./model";
import { PREVIEW_GROUP_ID, PREVIEW_PEOPLE } from "./people";

const READY_TIMEOUT_MS = 15_000;
const MAX_LOG_LINES = 200;

export interface SessionDeps {
  config: HostConfig;
  limits: PreviewLimits;
  emulatorLimits?: EmulatorLimits;
  platformUrl: string | null;
  /** a bot process of the session started, or ended */
  onProcess: (pid: number, running: boolean) => void;
}

export class PreviewSession {
  status: "starting" | "running" | "error" | "stopped" = "starting";
  error: string | null = null;
  readonly log: { level: string; line: string }[] = [];
  readonly emulator: EmulatorSession;
  private bot: PreviewBot | null = null;
  /** the program running (or last run): a restart for edited variables runs it again */
  private code: Uint8Array = new Uint8Array();
  /** serialises restarts (new program, edited variables) */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    readonly id: string,
    readonly projectId: number,
    bot: PreviewBotIdentity,
    private readonly deps: SessionDeps,
  ) {
    // the token lives in this thread and the bot's environment only
    this.emulator = new EmulatorSession({ ...bot, token: `${bot.id}:${randomBase62(26)}` }, deps.emulatorLimits, egressPolicy(deps.config.egressAllow));
  }

  async start(code: Uint8Array) {
    this.code = code;
    this.emulator.start();
    await this.launch(code);
  }

  private async launch(code: Uint8Array) {
    const { config, limits } = this.deps;
    this.status = "starting";
    this.error = null;
    const polled = this.emulator.nextPoll();
    const bot = new PreviewBot({
      botsDir: config.botsDir,
      name: this.id,
      code,
      limits,
      env: {
        ...config.childEnv,
        BOT_TOKEN: this.emulator.bot.token,
        MESSENGER_API_ROOT: this.emulator.url,
        ADMIN_IDS: String(PREVIEW_PEOPLE.admin.id),
        PROJECT_ID: String(this.projectId),
        TOKEN_ID: "0",
        LAUNCH_MODE: "polling",
        BOTLOOM_EGRESS_ALLOW: config.egressAllow,
        // the project's media, as its production bots see them (read-only for the bot)
        MEDIA_DIR: projectMediaDir(config.uploadsDir, this.projectId),
        ...(this.deps.platformUrl ? { PLATFORM_URL: this.deps.platformUrl } : {}),
      },
      onLine: (level, line) => {
        this.log.push({ level, line: line.slice(0, 2000) });
        if (this.log.length > MAX_LOG_LINES) this.log.shift();
      },
      onExit: (reason) => {
        this.status = "error";
        const tail = this.log.filter((l) => l.level === "stderr").slice(-3).map((l) => l.line);
        this.error = [reason, ...tail].join("\n");
      },
    });
    this.bot = bot;
    await bot.start();
    const pid = bot.pid;
    if (pid !== null) {
      this.deps.onProcess(pid, true);
      void bot.ended.then(() => this.deps.onProcess(pid, false));
    }
    const started = await Promise.race([polled.then(() => true), Bun.sleep(READY_TIMEOUT_MS).then(() => false), bot.ended.then(() => false)]);
    bot.settle();
    if (started && this.status === "starting") this.status = "running";
    else if (this.status === "starting") {
      this.status = "error";
      this.error ??= "the preview bot did not start in time";
    }
  }

  /** Runs `job` with the bot stopped and starts it again (with `code`, or the program it ran). */
  private restart(job: () => void, code?: Uint8Array) {
    const run = this.queue.then(async () => {
      await this.bot?.stop();
      job();
      if (code) this.code = code;
      await this.launch(this.code);
    });
    this.queue = run.catch(() => {});
    return run;
  }

  /** A new program (an unsaved document): same chats, same variables, the next reply comes from it. */
  replaceProgram(code: Uint8Array) {
    return this.restart(() => {}, code);
  }

  view(seat: Seat): HostedView {
    return { status: this.status, error: this.error, commands: this.emulator.commandsFor(seat.person.id, seat.chatId) };
  }

  /** The chat (or every chat), waiting up to `waitMs` for a change after `after` so a client can long-poll. */
  async transcript(chatId: number, opts: { after?: number; waitMs: number; all: boolean; changes: boolean }): Promise<PreviewTranscript> {
    const t = this.emulator.transcript;
    if (opts.after !== undefined) await t.waitForChange(opts.after, opts.waitMs);
    const all = t.list(opts.all ? undefined : chatId);
    // changes: only entries added or changed after `after` (a client that keeps the chat merges them)
    const entries = opts.changes && opts.after !== undefined ? all.filter((e) => e.v > opts.after!) : all;
    return {
      version: t.version,
      status: this.status,
      error: this.error,
      chatId,
      typing: t.isTyping(chatId),
      replyKeyboard: replyKeyboardOf(all),
      pinned: this.emulator.pinnedIn(chatId),
      entries,
    };
  }

  /** The emulator answers like Telegram (ApiError); the preview API speaks the product's errors. */
  act(seat: Seat, action: PreviewAction) {
    let entry: TranscriptEntry | null;
    try {
      entry = this.actOnEmulator(seat, action) ?? null;
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      if (e.code === 413) throw new AppError(413, "PAYLOAD_TOO_LARGE", "The preview keeps no more files: stop it and start a new one");
      throw badRequest(e.description.replace(/^Bad Request: /, ""));
    }
    return { entry, version: this.emulator.transcript.version };
  }

  private actOnEmulator({ person: from, chatId: chat }: Seat, action: PreviewAction) {
    const e = this.emulator;
    switch (action.type) {
      case "text":
        return e.text(from, chat, action.text);
      case "button":
        e.press(from, chat, action.messageId, action.data);
        return null;
      case "photo":
        return e.photo(from, chat, action.data ? new Upload(action.fileName ?? "photo.jpg", "image/jpeg", decode(action.data)) : undefined, action.caption);
      case "document":
        return e.document(from, chat, new Upload(action.fileName, action.mimeType ?? "application/octet-stream", decode(action.data)), action.caption);
      case "location":
        return e.userMessage(from, chat, { location: { latitude: action.latitude, longitude: action.longitude } });
      case "contact": {
        const contact: Record<string, unknown> = { phone_number: action.phone, first_name: from.first_name, user_id: from.id };
        if (from.last_name) contact.last_name = from.last_name;
        return e.userMessage(from, chat, { contact });
      }
      case "poll":
        return e.userMessage(from, chat, pollFields(action.question));
      case "reaction":
        e.react(from, chat, action.messageId, action.emoji);
        return null;
      case "pay":
        e.pay(from, chat, action.messageId);
        return null;
      case "join_request":
        e.joinRequest(from, PREVIEW_GROUP_ID);
        return null;
      case "join_group":
        e.joinGroup(from, PREVIEW_GROUP_ID);
        return null;
      case "leave_group":
        e.memberChange(from, PREVIEW_GROUP_ID, "left");
        return null;
      case "promote":
        e.memberChange(from, PREVIEW_GROUP_ID, "administrator");
        return null;
      case "web_app_data":
        return e.userMessage(from, chat, webAppDataFields(action.buttonText, action.data));
    }
  }

  variables(chatId: number): Record<string, unknown> {
    return this.bot ? readChatVariables(this.bot.databasePath, chatId) : {};
  }

  /** The bot keeps chat state in memory, so it is stopped while its database is written. */
  async setVariables(chatId: number, vars: Record<string, unknown>) {
    let written = false;
    await this.restart(() => {
      written = this.bot !== null && writeChatVariables(this.bot.databasePath, chatId, vars);
    });
    if (!written) throw badRequest("The preview bot has no variables yet: send it a message first");
    return this.variables(chatId);
  }

  /** A webhook_trigger's flow in `chatId` (docs/hooks.md "In the preview"); false when no bot runs. */
  hook(chatId: number, nodeId: string, vars: Record<string, HookValue>): boolean {
    return this.status === "running" && this.bot !== null && this.bot.tell({ op: "hook", chatId: String(chatId), nodeId, vars });
  }

  /** Where the process and its files are, for tests and the resource check of stop. */
  get resources() {
    return { pid: this.bot?.pid ?? null, port: this.emulator.port, dir: this.bot?.dir ?? null, database: this.bot?.databasePath ?? null };
  }

  async stop() {
    this.status = "stopped";
    await this.queue;
    await this.bot?.dispose();
    await this.emulator.stop();
  }
}

/** The reply keyboard the user sees: set by the bot's latest message that sent or removed one. */
function replyKeyboardOf(entries: TranscriptEntry[]) {
  let answered = false; // a one-time keyboard hides once the user has written after it
  for (let i = entries.length - 1; i >= 0; i--) {
    const e = entries[i]!;
    if (e.from === "user" && e.kind === "message") answered = true; // a payment's service line is not the user writing
    const m = e.from === "bot" ? e.replyMarkup : undefined;
    if (!m) continue;
    if (Array.isArray(m.keyboard)) return m.one_time_keyboard === true && answered ? null : { rows: m.keyboard, oneTime: m.one_time_keyboard === true, resize: m.resize_keyboard === true };
    if (m.remove_keyboard) return null;
  }
  return null;
}

function decode(b64: string): Uint8Array {
  const bytes = new Uint8Array(Buffer.from(b64, "base64"));
  if (bytes.length > 5 * 1024 * 1024) throw badRequest("files sent in a preview may be 5 MB at most");
  return bytes;
}
