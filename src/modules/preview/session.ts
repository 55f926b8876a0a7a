// One preview: an emulator (the bot's messenger), the preview bot process built from the scenario
// with the preview hooks, and who the preview user currently is. No HTTP here.
import type { Config } from "../../config";
import { egressPolicy } from "../../lib/shared-runtime";
import { PreviewBot, type PreviewLimits } from "../../bots/preview-process";
import { projectMediaDir } from "../../bots/program";
import { readChatVariables, writeChatVariables } from "../../db/preview-state";
import { EmulatorSession, type EmulatorLimits } from "../../emulator/session";
import { Upload } from "../../emulator/bot-api/params";
import { ApiError, type FakeUser } from "../../emulator/bot-api/types";
import { pollFields, webAppDataFields } from "../../emulator/bot-api/user-actions";
import { AppError, badRequest, ScenarioError } from "../../errors";
import { randomBase62 } from "../../lib/crypto";
import { generateBot } from "../../scenario";
import { generateJsonOffThread, projectScope } from "../../scenario/codegen/off-thread";
import { readStoredScenario, STORED_SCENARIO, storedOverLimit } from "../projects/document";
import type { PreviewAction, PreviewActor } from "./model";
import { answerOf, hookSettingsIn } from "../hooks/service";
import { hookVarsOf } from "../../scenario/hook-request";
import { normalizeDocument } from "../../scenario/model";
import { PREVIEW_GROUP_ID, PREVIEW_PEOPLE } from "./people";

export interface ScenarioSource {
  projectName: string;
  userDatabaseEnabled: boolean;
  /** the scenario as JSON text: the stored row as it is, or an unsaved document the client sent */
  json: string;
  /** the stored row (checked against the limits in the worker; a corrupt row reads as empty) */
  stored: boolean;
}

const READY_TIMEOUT_MS = 15_000;
const MAX_LOG_LINES = 200;
let nextBotId = 8_100_000_001;

export class PreviewSession {
  readonly id = randomBase62(16);
  readonly createdAt = Date.now();
  lastActive = Date.now();
  status: "starting" | "running" | "error" | "stopped" = "starting";
  error: string | null = null;
  actor: PreviewActor = { user: "user", chat: "private" };
  readonly log: { level: string; line: string }[] = [];
  warnings: string[] = [];
  readonly emulator: EmulatorSession;
  private bot: PreviewBot | null = null;
  private source: ScenarioSource;
  /** serialises restarts (new document, edited variables) */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    readonly userId: number,
    readonly projectId: number,
    source: ScenarioSource,
    private readonly deps: { config: Config; limits: PreviewLimits; emulatorLimits?: EmulatorLimits; platformUrl: () => string | null },
  ) {
    this.source = source;
    const botId = nextBotId++;
    const token = `${botId}:${randomBase62(26)}`;
    this.emulator = new EmulatorSession({ token, id: botId, username: `preview_${botId}_bot`, firstName: source.projectName || "Preview bot" }, deps.emulatorLimits, egressPolicy(deps.config.egressAllow));
  }

  /** Generates the program off the event loop (a 400 for an unusable scenario before anything runs). */
  private async program(): Promise<string> {
    try {
      const opts = { projectName: this.source.projectName, userDatabaseEnabled: this.source.userDatabaseEnabled, enableLogging: true, preview: true };
      // A stored scenario's program is cached per project (an unchanged one starts and restarts
      // without generating again); a document the client sent is generated each time.
      const { stored, json } = this.source;
      const out = await generateJsonOffThread(json, opts, stored ? STORED_SCENARIO : undefined, stored ? projectScope(this.projectId) : undefined);
      if ("limit" in out) throw storedOverLimit(out.limit);
      // A corrupt stored row reads as the empty document (readStoredScenario): small, generated here.
      const bot = "bot" in out ? out.bot : generateBot(readStoredScenario(this.source.json), opts);
      this.warnings = bot.warnings.map((w) => (w.nodeId ? `${w.nodeId}: ${w.message}` : w.message));
      return bot.code;
    } catch (e) {
      if (e instanceof ScenarioError) throw badRequest(`The scenario cannot run: ${e.message}`, { issues: e.issues });
      throw e;
    }
  }

  async start() {
    const code = await this.program();
    // Stopped while the program was generated (a newer preview of the user ended this one).
    if (this.status === "stopped") return;
    this.emulator.start();
    await this.launch(code);
  }

  private async launch(code: string) {
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
        ...(this.deps.platformUrl() ? { PLATFORM_URL: this.deps.platformUrl()! } : {}),
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
    const started = await Promise.race([polled.then(() => true), Bun.sleep(READY_TIMEOUT_MS).then(() => false), bot.ended.then(() => false)]);
    if (started && this.status === "starting") this.status = "running";
    else if (this.status === "starting") {
      this.status = "error";
      this.error ??= "the preview bot did not start in time";
    }
  }

  /** Runs `job` with the bot stopped and starts it again (with the newest program). */
  private restart(job: () => void, code?: string) {
    const run = this.queue.then(async () => {
      const next = code ?? (await this.program());
      await this.bot?.stop();
      job();
      await this.launch(next);
    });
    this.queue = run.catch(() => {});
    return run;
  }

  /** A new (unsaved) document: same chats, same variables, the next reply comes from the new program. */
  async replaceDocument(document: unknown) {
    const previous = this.source;
    this.source = { ...previous, json: JSON.stringify(document), stored: false };
    let code: string;
    try {
      code = await this.program();
    } catch (e) {
      this.source = previous;
      throw e;
    }
    await this.restart(() => {}, code);
  }

  get person(): FakeUser {
    return PREVIEW_PEOPLE[this.actor.user];
  }

  get chatId(): number {
    return this.actor.chat === "group" ? PREVIEW_GROUP_ID : this.person.id;
  }

  /** The emulator answers like Telegram (ApiError); the preview API speaks the product's errors. */
  act(action: PreviewAction) {
    try {
      return this.actOnEmulator(action);
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      if (e.code === 413) throw new AppError(413, "PAYLOAD_TOO_LARGE", "The preview keeps no more files: stop it and start a new one");
      throw badRequest(e.description.replace(/^Bad Request: /, ""));
    }
  }

  private actOnEmulator(action: PreviewAction) {
    const e = this.emulator;
    const from = this.person;
    const chat = this.chatId;
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

  variables(): Record<string, unknown> {
    return this.bot ? readChatVariables(this.bot.databasePath, this.chatId) : {};
  }

  /** The bot keeps chat state in memory, so it is stopped while its database is written. */
  async setVariables(vars: Record<string, unknown>) {
    let written = false;
    await this.restart(() => {
      written = this.bot !== null && writeChatVariables(this.bot.databasePath, this.chatId, vars);
    });
    if (!written) throw badRequest("The preview bot has no variables yet: send it a message first");
  }

  /**
   * Fires a webhook_trigger of the running document as if its URL had been called (docs/hooks.md
   * "In the preview"): the flow runs in the current preview chat, whatever user the body names.
   */
  fireHook(nodeId: string, body: Record<string, unknown>) {
    const settings = hookSettingsIn(normalizeDocument(readStoredScenario(this.source.json)), nodeId);
    const vars = hookVarsOf(settings, body);
    const chatId = String(this.chatId);
    if (this.status !== "running" || !this.bot?.tell({ op: "hook", chatId, nodeId, vars })) throw new AppError(409, "BOT_NOT_RUNNING", "The preview bot is not running");
    this.lastActive = Date.now();
    return { ...answerOf(settings, vars), chatId };
  }

  /** Where the process and its files are, for tests and the resource check of stop. */
  get resources() {
    return { pid: this.bot?.pid ?? null, port: this.emulator.port, dir: this.bot?.dir ?? null };
  }

  async stop() {
    this.status = "stopped";
    await this.queue;
    await this.bot?.dispose();
    await this.emulator.stop();
  }
}

function decode(b64: string): Uint8Array {
  const bytes = new Uint8Array(Buffer.from(b64, "base64"));
  if (bytes.length > 5 * 1024 * 1024) throw badRequest("files sent in a preview may be 5 MB at most");
  return bytes;
}
