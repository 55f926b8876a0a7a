// Preview sessions of the Studio (docs/preview.md): start the current scenario of a project as a
// throwaway bot against the in-product emulator, act as its users, read what it said. Sessions
// are per user, few, and end on stop, on logout, after 30 minutes without use and on shutdown.
import type { AppContext } from "../../context";
import type { PreviewLimits } from "../../bots/preview-process";
import type { EmulatorLimits } from "../../emulator/session";
import { AppError, badRequest, notFound } from "../../errors";
import { randomBase62 } from "../../lib/crypto";
import { scenarioLimitProblem } from "../../lib/json-limits";
import { PreviewHost } from "./host";
import type { HostRequest, Seat } from "./host-protocol";
import type { ScenarioSource } from "./program";
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

let nextBotId = 8_100_000_001;

/**
 * A session as the event loop knows it: whose it is, who its user acts as, the scenario it runs.
 * Its emulator and bot live in the preview thread (host.ts), under the same id.
 */
interface Preview {
  readonly id: string;
  readonly userId: number;
  readonly projectId: number;
  readonly createdAt: number;
  lastActive: number;
  actor: PreviewActor;
  source: ScenarioSource;
  warnings: string[];
  readonly bot: { id: number; username: string; firstName: string };
  /** stopped (or being stopped): the thread no longer has it */
  ended: boolean;
}

export class PreviewService {
  private sessions = new Map<string, Preview>();
  private sweeper: ReturnType<typeof setTimeout> | null = null;
  private sweepAt = 0;
  private hosted: PreviewHost | null = null;
  readonly options: PreviewOptions;

  constructor(
    private readonly ctx: Pick<AppContext, "config" | "projects" | "access" | "log" | "state">,
    options: Partial<PreviewOptions> = {},
  ) {
    this.options = { ...DEFAULT_PREVIEW_OPTIONS, ...options };
  }

  private get host(): PreviewHost {
    const { botsDir, uploadsDir, egressAllow, childEnv } = this.ctx.config;
    return (this.hosted ??= new PreviewHost({ botsDir, uploadsDir, egressAllow, childEnv }, (gone) => this.lost(gone)));
  }

  /** The preview thread died with these sessions: they are over (a later request is a 404, the limits free). */
  private lost(ids: string[]) {
    for (const id of ids) {
      const s = this.sessions.get(id);
      if (s) s.ended = true;
      this.sessions.delete(id);
    }
  }

  async create(userId: number, projectId: number, document?: unknown) {
    // The stored scenario as its text (kept per project): the generator's worker parses it.
    const project = this.ctx.projects.getStoredScenario(projectId, userId);
    if (document !== undefined) checkLimits(document);
    return this.open(userId, projectId, {
      projectName: project.name,
      userDatabaseEnabled: project.userDatabaseEnabled === 1,
      ...(document === undefined ? { json: project.data, stored: { fingerprint: project.fingerprint } } : { json: JSON.stringify(document) }),
    });
  }

  /** "Try it" on a template's page: the template's scenario runs without a project (project id 0). */
  async createForTemplate(userId: number, template: { name: string; data: unknown }) {
    checkLimits(template.data);
    return this.open(userId, TEMPLATE_PROJECT, { projectName: template.name, userDatabaseEnabled: true, json: JSON.stringify(template.data) });
  }

  private async open(userId: number, projectId: number, source: ScenarioSource) {
    // The generator's and the hooks' code loads with the first preview, not with the server (cold start).
    const { previewProgram } = await import("./program");
    // Checked and taken in one synchronous step (parallel starts must not all see the same free
    // slots): the user's oldest sessions beyond the limit leave the map now, this one enters it.
    const mine = [...this.sessions.values()].filter((s) => s.userId === userId).sort((a, b) => a.createdAt - b.createdAt);
    const evicted = mine.slice(0, Math.max(0, mine.length - this.options.perUser + 1));
    if (this.sessions.size - evicted.length >= this.options.total) throw new AppError(503, "INTERNAL", "Too many previews are running on this server; try again in a few minutes");
    const ending = evicted.map((s) => this.end(s));
    const botId = nextBotId++;
    const now = Date.now();
    const session: Preview = {
      id: randomBase62(16),
      userId,
      projectId,
      createdAt: now,
      lastActive: now,
      actor: { user: "user", chat: "private" },
      source,
      warnings: [],
      bot: { id: botId, username: `preview_${botId}_bot`, firstName: source.projectName || "Preview bot" },
      ended: false,
    };
    this.sessions.set(session.id, session);
    const opened = this.host.call({ op: "open", id: session.id, projectId, bot: session.bot, limits: this.options.bot, emulator: this.options.emulator, platformUrl: this.ctx.state.localUrl });
    try {
      await Promise.all([opened, ...ending]);
      const { code, warnings } = await previewProgram(projectId, source);
      session.warnings = warnings;
      // A newer start of the same user ended this one meanwhile: nothing to start.
      if (!session.ended) await this.host.call({ op: "start", id: session.id, code });
    } catch (e) {
      await this.end(session);
      throw e;
    }
    this.sweep();
    return this.view(session);
  }

  /** The caller's own session, still allowed on its project; touched (it is in use). */
  private session(userId: number, id: string): Preview {
    const s = this.sessions.get(id);
    if (!s || s.userId !== userId) throw notFound("Preview not found");
    if (s.projectId !== TEMPLATE_PROJECT && this.ctx.access.roleOf(s.projectId, userId) == null) {
      void this.end(s);
      throw notFound("Preview not found");
    }
    s.lastActive = Date.now();
    return s;
  }

  /** The request for the session's hosted part; a session stopped meanwhile is not found. */
  private ask<R extends HostRequest>(s: Preview, request: R) {
    if (s.ended) throw notFound("Preview not found");
    return this.host.call(request);
  }

  private seat(s: Preview): Seat {
    return { person: PREVIEW_PEOPLE[s.actor.user], chatId: chatOf(s) };
  }

  async get(userId: number, id: string) {
    return this.view(this.session(userId, id));
  }

  private async view(s: Preview): Promise<PreviewView> {
    const me = PREVIEW_PEOPLE[s.actor.user];
    const hosted = s.ended ? null : await this.host.call({ op: "view", id: s.id, seat: this.seat(s) }).catch(() => null);
    return {
      id: s.id,
      projectId: s.projectId,
      status: hosted?.status ?? "stopped",
      error: hosted?.error ?? null,
      warnings: s.warnings,
      bot: s.bot,
      actor: { ...s.actor, userId: me.id, chatId: chatOf(s) },
      users: Object.entries(PREVIEW_PEOPLE).map(([key, u]) => ({ key: key as PreviewUserKey, id: u.id, firstName: u.first_name, lastName: u.last_name ?? null, admin: key === "admin" })),
      groupChatId: PREVIEW_GROUP_ID,
      commands: hosted?.commands ?? [],
      idleTimeoutSeconds: Math.round(this.options.idleMs / 1000),
    };
  }

  /**
   * The chat of the current preview user (or every chat), waiting up to `waitMs` for a change
   * after `after` (the version of an earlier answer) so a client can long-poll.
   */
  transcript(userId: number, id: string, opts: { after?: number; waitMs?: number; all?: boolean; changes?: boolean } = {}): Promise<PreviewTranscript> {
    const s = this.session(userId, id);
    const waitMs = opts.after === undefined ? 0 : Math.min(opts.waitMs ?? 0, MAX_WAIT_MS);
    return this.ask(s, { op: "transcript", id, chatId: chatOf(s), after: opts.after, waitMs, all: opts.all === true, changes: opts.changes === true });
  }

  act(userId: number, id: string, action: PreviewAction) {
    const s = this.session(userId, id);
    return this.ask(s, { op: "act", id, seat: this.seat(s), action });
  }

  setActor(userId: number, id: string, actor: PreviewActor) {
    const s = this.session(userId, id);
    s.actor = actor;
    return this.view(s);
  }

  async replaceDocument(userId: number, id: string, document: unknown) {
    const s = this.session(userId, id);
    checkLimits(document);
    const { previewProgram } = await import("./program");
    const source = { ...s.source, json: JSON.stringify(document), stored: undefined };
    const { code, warnings } = await previewProgram(s.projectId, source);
    // the thread runs this program from now on, even should its start fail: hooks read the same document
    s.source = source;
    s.warnings = warnings;
    await this.ask(s, { op: "replace", id, code });
    return this.view(s);
  }

  async variables(userId: number, id: string) {
    const s = this.session(userId, id);
    const chatId = chatOf(s);
    return { chatId, variables: await this.ask(s, { op: "variables", id, chatId }) };
  }

  async setVariables(userId: number, id: string, vars: Record<string, unknown>) {
    const s = this.session(userId, id);
    const chatId = chatOf(s);
    return { chatId, variables: await this.ask(s, { op: "setVariables", id, chatId, vars }) };
  }

  /**
   * Fires a webhook_trigger of the running document as if its URL had been called (docs/hooks.md
   * "In the preview"): the flow runs in the current preview chat, whatever user the body names.
   */
  async fireHook(userId: number, id: string, nodeId: string, body: Record<string, unknown>) {
    const s = this.session(userId, id);
    const { previewHook } = await import("./program");
    const { vars, answer } = previewHook(s.source, nodeId, body);
    const chatId = chatOf(s);
    if (!(await this.ask(s, { op: "hook", id, chatId, nodeId, vars }))) throw new AppError(409, "BOT_NOT_RUNNING", "The preview bot is not running");
    s.lastActive = Date.now();
    return { ...answer, chatId: String(chatId) };
  }

  async log(userId: number, id: string) {
    const s = this.session(userId, id);
    return { lines: await this.ask(s, { op: "log", id }) };
  }

  async file(userId: number, id: string, fileId: string) {
    const s = this.session(userId, id);
    const f = await this.ask(s, { op: "file", id, fileId });
    if (!f) throw notFound("File not found");
    return f;
  }

  /** For tests: where a session's process, port and folder are (null once it is stopped). */
  async resourcesOf(id: string) {
    const s = this.sessions.get(id);
    return s && !s.ended ? this.host.call({ op: "resources", id }) : null;
  }

  /** For tests: what the session's emulator keeps that no route shows. */
  internalsOf(id: string, member: { chatId: number; userId: number }) {
    return this.host.call({ op: "internals", id, member });
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

  private async end(s: Preview) {
    this.sessions.delete(s.id);
    if (s.ended) return;
    s.ended = true;
    try {
      await this.host.call({ op: "stop", id: s.id });
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

const chatOf = (s: Preview) => (s.actor.chat === "group" ? PREVIEW_GROUP_ID : PREVIEW_PEOPLE[s.actor.user].id);

/** An unsaved document meets the limits a saved one does (docs/api.md#limits: 64 levels, 20,000 nodes). */
function checkLimits(document: unknown) {
  const problem = scenarioLimitProblem(document, "document");
  if (problem) throw badRequest(problem);
}
