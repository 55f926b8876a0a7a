// Preview sessions of the Studio (docs/preview.md): start the current scenario of a project as a
// throwaway bot against the in-product emulator, act as its users, read what it said. Sessions
// are per user, few, and end on stop, on logout, after 30 minutes without use and on shutdown.
import type { AppContext } from "../../context";
import type { PreviewLimits } from "../../bots/preview-process";
import type { EmulatorLimits } from "../../emulator/session";
import type { TranscriptEntry } from "../../emulator/transcript";
import { AppError, badRequest, notFound } from "../../errors";
import { scenarioLimitProblem } from "../../lib/json-limits";
import type { PreviewSession, ScenarioSource } from "./session";
import { PREVIEW_GROUP_ID, PREVIEW_PEOPLE } from "./people";
import type { PreviewAction, PreviewActor, PreviewTranscript, PreviewUserKey, PreviewView } from "./model";

export interface PreviewOptions {
  /** sessions one user may have; a new one ends his oldest */
  perUser: number;
  /** sessions on the server in all; beyond that a new one is refused */
  total: number;
  idleMs: number;
  bot: PreviewLimits;
  emulator?: EmulatorLimits;
}

export const DEFAULT_PREVIEW_OPTIONS: PreviewOptions = {
  perUser: 2,
  total: 16,
  idleMs: 30 * 60_000,
  bot: { maxRssBytes: 256 * 1024 * 1024, maxCpuMs: 120_000 },
};

const MAX_WAIT_MS = 25_000;

/** The project id of a template's try-it session: no project, so no access check beyond its owner. */
export const TEMPLATE_PROJECT = 0;

export class PreviewService {
  private sessions = new Map<string, PreviewSession>();
  private sweeper: ReturnType<typeof setTimeout> | null = null;
  private sweepAt = 0;
  readonly options: PreviewOptions;

  constructor(
    private readonly ctx: Pick<AppContext, "config" | "projects" | "access" | "log" | "state">,
    options: Partial<PreviewOptions> = {},
  ) {
    this.options = { ...DEFAULT_PREVIEW_OPTIONS, ...options };
  }

  async create(userId: number, projectId: number, document?: unknown) {
    // The stored scenario as its text: parsing and re-serialising a large one here held the event
    // loop for 5–20 ms a start (bench/health-under-load.ts); the generator's worker parses it.
    const project = this.ctx.projects.getStoredScenario(projectId, userId);
    if (document !== undefined) checkLimits(document);
    return this.open(userId, projectId, {
      projectName: project.name,
      userDatabaseEnabled: project.userDatabaseEnabled === 1,
      ...(document === undefined ? { json: project.data, stored: true } : { json: JSON.stringify(document), stored: false }),
    });
  }

  /** "Try it" on a template's page: the template's scenario runs without a project (project id 0). */
  async createForTemplate(userId: number, template: { name: string; data: unknown }) {
    checkLimits(template.data);
    return this.open(userId, TEMPLATE_PROJECT, { projectName: template.name, userDatabaseEnabled: true, json: JSON.stringify(template.data), stored: false });
  }

  private async open(userId: number, projectId: number, source: ScenarioSource) {
    // The emulator and the preview bot load with the first preview, not with the server (cold
    // start).
    const { PreviewSession } = await import("./session");
    // Checked and taken in one synchronous step (parallel starts must not all see the same free
    // slots): the user's oldest sessions beyond the limit leave the map now, this one enters it.
    const mine = [...this.sessions.values()].filter((s) => s.userId === userId).sort((a, b) => a.createdAt - b.createdAt);
    const evicted = mine.slice(0, Math.max(0, mine.length - this.options.perUser + 1));
    if (this.sessions.size - evicted.length >= this.options.total) throw new AppError(503, "INTERNAL", "Too many previews are running on this server; try again in a few minutes");
    const ending = evicted.map((s) => this.end(s));
    const session = new PreviewSession(
      userId,
      projectId,
      source,
      { config: this.ctx.config, limits: this.options.bot, emulatorLimits: this.options.emulator, platformUrl: () => this.ctx.state.localUrl },
    );
    this.sessions.set(session.id, session);
    await Promise.all(ending);
    // A newer start of the same user ended this one while the old ones stopped: nothing to start.
    if (!this.sessions.has(session.id)) return this.view(session);
    try {
      await session.start();
    } catch (e) {
      await this.end(session);
      throw e;
    }
    this.sweep();
    return this.view(session);
  }

  /** The caller's own session, still allowed on its project; touched (it is in use). */
  private session(userId: number, id: string): PreviewSession {
    const s = this.sessions.get(id);
    if (!s || s.userId !== userId) throw notFound("Preview not found");
    if (s.projectId !== TEMPLATE_PROJECT && this.ctx.access.roleOf(s.projectId, userId) == null) {
      void this.end(s);
      throw notFound("Preview not found");
    }
    s.lastActive = Date.now();
    return s;
  }

  get(userId: number, id: string) {
    return this.view(this.session(userId, id));
  }

  view(s: PreviewSession): PreviewView {
    const me = s.person;
    return {
      id: s.id,
      projectId: s.projectId,
      status: s.status,
      error: s.error,
      warnings: s.warnings,
      bot: { id: s.emulator.bot.id, username: s.emulator.bot.username, firstName: s.emulator.bot.firstName },
      actor: { ...s.actor, userId: me.id, chatId: s.chatId },
      users: Object.entries(PREVIEW_PEOPLE).map(([key, u]) => ({ key: key as PreviewUserKey, id: u.id, firstName: u.first_name, lastName: u.last_name ?? null, admin: key === "admin" })),
      groupChatId: PREVIEW_GROUP_ID,
      commands: s.emulator.commandsFor(me.id, s.chatId),
      idleTimeoutSeconds: Math.round(this.options.idleMs / 1000),
    };
  }

  /**
   * The chat of the current preview user (or every chat), waiting up to `waitMs` for a change
   * after `after` (the version of an earlier answer) so a client can long-poll.
   */
  async transcript(userId: number, id: string, opts: { after?: number; waitMs?: number; all?: boolean; changes?: boolean } = {}): Promise<PreviewTranscript> {
    const s = this.session(userId, id);
    if (opts.after !== undefined) await s.emulator.transcript.waitForChange(opts.after, Math.min(opts.waitMs ?? 0, MAX_WAIT_MS));
    const t = s.emulator.transcript;
    const chatId = s.chatId;
    const all = t.list(opts.all ? undefined : chatId);
    // changes: only entries added or changed after `after` (a client that keeps the chat merges them)
    const entries = opts.changes && opts.after !== undefined ? all.filter((e) => e.v > opts.after!) : all;
    return {
      version: t.version,
      status: s.status,
      error: s.error,
      chatId,
      typing: t.isTyping(chatId),
      replyKeyboard: replyKeyboardOf(all),
      pinned: s.emulator.pinnedIn(chatId),
      entries,
    };
  }

  act(userId: number, id: string, action: PreviewAction) {
    const s = this.session(userId, id);
    if (s.status === "stopped") throw notFound("Preview not found");
    return { entry: s.act(action) ?? null, version: s.emulator.transcript.version };
  }

  setActor(userId: number, id: string, actor: PreviewActor) {
    const s = this.session(userId, id);
    s.actor = actor;
    return this.view(s);
  }

  async replaceDocument(userId: number, id: string, document: unknown) {
    const s = this.session(userId, id);
    checkLimits(document);
    await s.replaceDocument(document);
    return this.view(s);
  }

  variables(userId: number, id: string) {
    const s = this.session(userId, id);
    return { chatId: s.chatId, variables: s.variables() };
  }

  async setVariables(userId: number, id: string, vars: Record<string, unknown>) {
    const s = this.session(userId, id);
    await s.setVariables(vars);
    return { chatId: s.chatId, variables: s.variables() };
  }

  fireHook(userId: number, id: string, nodeId: string, body: Record<string, unknown>) {
    const s = this.session(userId, id);
    const { status, body: answer, chatId } = s.fireHook(nodeId, body);
    return { status, body: answer, chatId };
  }

  log(userId: number, id: string) {
    return { lines: [...this.session(userId, id).log] };
  }

  file(userId: number, id: string, fileId: string) {
    const f = this.session(userId, id).emulator.fileById(fileId);
    if (!f) throw notFound("File not found");
    return f;
  }

  /** For tests: where a session's process, port and folder are. */
  resourcesOf(id: string) {
    return this.sessions.get(id)?.resources ?? null;
  }

  async stop(userId: number, id: string) {
    await this.end(this.session(userId, id));
  }

  async stopAllOf(userId: number) {
    await Promise.all([...this.sessions.values()].filter((s) => s.userId === userId).map((s) => this.end(s)));
  }

  async stopAll() {
    if (this.sweeper) clearTimeout(this.sweeper);
    this.sweeper = null;
    await Promise.all([...this.sessions.values()].map((s) => this.end(s)));
  }

  get count() {
    return this.sessions.size;
  }

  private async end(s: PreviewSession) {
    this.sessions.delete(s.id);
    try {
      await s.stop();
    } catch (e) {
      this.ctx.log.warn(`preview ${s.id}: stop failed: ${e instanceof Error ? e.message : e}`);
    }
  }

  /** Ends idle sessions; runs while any session exists (each round reads the current idle limit). */
  private sweep() {
    const delay = Math.min(30_000, Math.max(50, this.options.idleMs / 4));
    if (this.sweeper && this.sweepAt <= Date.now() + delay) return;
    if (this.sweeper) clearTimeout(this.sweeper);
    const round = () => {
      const now = Date.now();
      for (const s of this.sessions.values()) if (now - s.lastActive > this.options.idleMs) void this.end(s);
      this.sweeper = null;
      if (this.sessions.size > 0) this.sweep();
    };
    this.sweepAt = Date.now() + delay;
    this.sweeper = setTimeout(round, delay);
    this.sweeper.unref?.();
  }
}

/** The reply keyboard the user sees: set by the bot's latest message that sent or removed one. */
function replyKeyboardOf(entries: TranscriptEntry[]) {
  let answered = false; // a one-time keyboard hides once the user has written after it
  for (let i = entries.length - 1; i >= 0; i--) {
    const e = entries[i]!;
    if (e.from === "user") answered = true;
    const m = e.from === "bot" ? e.replyMarkup : undefined;
    if (!m) continue;
    if (Array.isArray(m.keyboard)) return m.one_time_keyboard === true && answered ? null : { rows: m.keyboard, oneTime: m.one_time_keyboard === true, resize: m.resize_keyboard === true };
    if (m.remove_keyboard) return null;
  }
  return null;
}

/** An unsaved document meets the limits a saved one does (docs/api.md#limits: 64 levels, 20,000 nodes). */
function checkLimits(document: unknown) {
  const problem = scenarioLimitProblem(document, "document");
  if (problem) throw badRequest(problem);
}
