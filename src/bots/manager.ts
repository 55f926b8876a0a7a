// Runs each token's bot (in a shared runner, or as its own process: see BotHost) and supervises it:
// exclusive ownership of a token, crash restarts with exponential backoff, give-up after repeated
// crashes, logs and launch history, and bots brought back after a server restart (docs/bots.md#running-bots).
import type { Config } from "../config";
import type { Db } from "../db/client";
import type { ProjectDatabases } from "../db/project-db";
import type { EventBus } from "../events";
import { BotError } from "../errors";
import { registerSecret, type Logger } from "../log";
import type { MessengerClient } from "../messenger/client";
import type { BotController, BotInstanceState } from "./controller";
import type { BotEnd, BotHost, BotInstance } from "./instance";
import type { BotCommand } from "./runner/protocol";
import { ProcessHost } from "./process-host";
import { RunnerPool } from "./runner-pool";
import { LaunchHistory } from "./launches";
import { LogWriter } from "./log-writer";
import { outputOf } from "./output";
import { crashVerdict, DEFAULT_POLICY, RESUME_CONCURRENCY, type SupervisionPolicy } from "./policy";
import { clearWebhookForPolling, releaseWebhook, waitForPort } from "./webhook-mode";
import { buildBotProgram } from "./program";
import { runtimeStatements } from "./queries";
import type { SupervisedBot as Bot } from "./supervised";

export interface BotManagerDeps {
  config: Config;
  db: Db;
  log: Logger;
  messenger: MessengerClient;
  events: EventBus;
  /** The per-project database files: a bot gets the path of its project's file, never the platform's database. */
  projectFiles: ProjectDatabases;
  /** The platform's loopback URL once it listens (PLATFORM_URL of bots), or null. */
  platformUrl?: () => string | null;
  /** The platform database's file when bot log lines are written from a thread of their own (the server's); absent: on the event loop. */
  logsFile?: string;
}

const STOPPED: BotInstanceState = { status: "stopped", startedAt: null, pid: null };

export class BotManager implements BotController {
  private readonly bots = new Map<number, Bot>();
  /** Tokens whose bot gave up (status error) and has not been started or stopped since. */
  private readonly errored = new Set<number>();
  /** Tokens to be started again after a server restart and not started yet (they count as starting). */
  private readonly resuming = new Set<number>();
  /** The tail of each token's queue of operations (see serial). */
  private readonly ops = new Map<number, Promise<void>>();
  private readonly launches: LaunchHistory;
  /** Launches up to this id are an earlier server's (read before this one could open any). */
  private readonly earlierLaunches: number;
  private readonly logs: LogWriter;
  /** where bots run: shared runners, or a process each (BOT_ISOLATION) */
  readonly host: BotHost;
  private closed = false;

  constructor(
    private readonly deps: BotManagerDeps,
    private readonly policy: SupervisionPolicy = DEFAULT_POLICY,
  ) {
    this.launches = new LaunchHistory(deps.db);
    this.earlierLaunches = this.launches.lastId();
    this.logs = new LogWriter(deps.db, deps.logsFile);
    this.host = deps.config.bots.isolation === "process" ? new ProcessHost(deps.config) : new RunnerPool(deps.config, deps.log);
    for (const { id } of runtimeStatements(deps.db).erroredTokens.all()) this.errored.add(id);
    deps.events.on("bot:table_updated", ({ projectId, restartOnUpdate }) => {
      if (restartOnUpdate) void this.restartProject(projectId);
    });
  }

  state(tokenId: number): BotInstanceState {
    const b = this.bots.get(tokenId);
    if (!b && this.resuming.has(tokenId)) return { status: "starting", startedAt: null, pid: null };
    if (!b) return this.errored.has(tokenId) ? { status: "error", startedAt: null, pid: null } : STOPPED;
    return { status: b.status, startedAt: b.status === "running" ? b.startedAt : null, pid: b.instance?.pid ?? null };
  }

  /**
   * Starts every bot that was running when the server last stopped: webhook bots first (the
   * messenger is already posting to them; the intake holds those updates while they count as
   * starting), a few at a time. A bot that fails to come back stays wanted, so the next server
   * start tries again. The app answers before this runs: a start or stop a user made meanwhile
   * wins, and the resume neither closes its launch nor repeats or undoes it.
   */
  async resumeAll() {
    this.launches.closeDangling(this.earlierLaunches);
    const rows = runtimeStatements(this.deps.db).wantedRunning.all();
    rows.sort((a, b) => Number(b.mode === "webhook") - Number(a.mode === "webhook"));
    for (const { id } of rows) this.resuming.add(id);
    const queue = rows.map((r) => r.id);
    const worker = async () => {
      for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
        try {
          if (!this.closed) await this.serial(id, () => this.resumeNow(id));
        } catch (e) {
          if (this.closed) return;
          this.deps.log.warn(`could not resume bot of token ${id}: ${e instanceof Error ? e.message : e}`);
          const st = this.bots.get(id)?.status;
          if (st !== "running" && st !== "starting") this.mark(id, "error", "running");
        } finally {
          this.resuming.delete(id);
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(RESUME_CONCURRENCY, queue.length) }, worker));
  }

  /** One bot of resumeAll, at its turn in the token's queue. */
  private async resumeNow(tokenId: number) {
    const bot = this.bots.get(tokenId);
    if (bot && (bot.status === "running" || bot.status === "starting" || bot.restartTimer)) return; // a user started it
    if (!this.wanted(tokenId)) return; // a user stopped it (or its start failed) since the server came up
    await this.startNow(tokenId);
  }

  start(tokenId: number): Promise<BotInstanceState> {
    return this.serial(tokenId, () => this.startNow(tokenId));
  }

  stop(tokenId: number): Promise<BotInstanceState> {
    return this.serial(tokenId, async () => {
      this.resuming.delete(tokenId); // a resume that has not reached it yet will not start it (resumeNow)
      await this.halt(tokenId, "stopped");
      return this.state(tokenId);
    });
  }

  restart(tokenId: number): Promise<BotInstanceState> {
    return this.serial(tokenId, async () => {
      await this.halt(tokenId, "stopped");
      return this.startNow(tokenId);
    });
  }

  /**
   * Operations on one token run one after another (start, stop, restart, crash restarts, shutdown):
   * a stop during a start's awaits, or two restarts at once, would otherwise each act on a process
   * the other one replaced and leave one running that nobody tracks.
   */
  private serial<T>(tokenId: number, op: () => Promise<T>): Promise<T> {
    const run = (this.ops.get(tokenId) ?? Promise.resolve()).then(op);
    const tail = run.then(
      () => {},
      () => {},
    );
    this.ops.set(tokenId, tail);
    void tail.then(() => {
      if (this.ops.get(tokenId) === tail) this.ops.delete(tokenId);
    });
    return run;
  }

  private async startNow(tokenId: number): Promise<BotInstanceState> {
    if (this.closed) throw new BotError("UNAVAILABLE", "The server is shutting down");
    const existing = this.bots.get(tokenId);
    if (existing && (existing.status === "running" || existing.status === "starting" || existing.restartTimer)) throw new BotError("CONFLICT", "This bot is already running");
    const program = buildBotProgram(this.deps.config, this.deps.db, this.deps.projectFiles, tokenId, this.deps.platformUrl?.() ?? null);
    for (const [id, other] of this.bots) {
      if (id !== tokenId && other.program.token === program.token && other.status !== "stopped" && other.status !== "error") {
        // The other project may be someone else's: say what happened without naming it.
        throw new BotError("CONFLICT", "This bot is already running in another project; a bot token can have only one poller or webhook at a time");
      }
    }
    registerSecret(program.token);
    const bot: Bot = { program, instance: null, launchId: null, status: "starting", startedAt: null, stopping: false, stopAs: { status: "stopped", reason: null }, crashes: existing?.crashes ?? [], restartTimer: null, stderrTail: [], exited: null };
    this.bots.set(tokenId, bot);
    try {
      await this.spawn(bot);
    } catch (e) {
      // A failed start ends everything it began (process, launch, webhook): no restart behind the answer.
      await this.haltBot(bot, "error", e instanceof Error ? e.message : String(e));
      throw e;
    }
    this.mark(tokenId, "running", "running");
    return this.state(tokenId);
  }

  async stopProject(projectId: number, whileStopped?: () => Promise<void>) {
    const ids = runtimeStatements(this.deps.db).tokensOfProject.all({ projectId });
    // Each token's queue is held after its stop until `whileStopped` is done.
    const gate = Promise.withResolvers<void>();
    const stopped = ids.map(
      ({ id }) =>
        new Promise<void>((resolve, reject) => {
          void this.serial(id, async () => {
            await this.halt(id, "stopped").then(resolve, reject);
            await gate.promise;
          });
        }),
    );
    try {
      await Promise.all(stopped);
      await whileStopped?.();
    } finally {
      gate.resolve();
    }
  }

  private async restartProject(projectId: number) {
    // A snapshot: restarting re-inserts the entry, which a live Map iteration would visit again.
    const ids = [...this.bots].filter(([, b]) => b.program.projectId === projectId && b.status === "running").map(([id]) => id);
    for (const id of ids) {
      try {
        await this.restart(id);
      } catch (e) {
        this.deps.log.warn(`restart after update failed for token ${id}: ${e instanceof Error ? e.message : e}`);
      }
    }
  }

  tell(tokenId: number, command: BotCommand): boolean {
    const b = this.bots.get(tokenId);
    if (!b?.instance || b.status !== "running" || b.instance.hasEnded()) return false;
    b.instance.tell(command);
    return true;
  }

  /** Server shutdown: stop every bot but remember it as wanted, so the next start brings it back. */
  async shutdown() {
    this.closed = true;
    // Tokens with an operation under way too: a start in flight is stopped once it is done.
    const ids = new Set([...this.bots.keys(), ...this.ops.keys()]);
    await Promise.all([...ids].map((id) => this.serial(id, () => this.halt(id, null))));
    await this.host.close();
    await this.logs.close();
  }

  // --- internals ------------------------------------------------------------------------------

  /** `moves`: how often this start was moved already (its runner stopped for another bot's fault). */
  private async spawn(bot: Bot, moves = 0): Promise<void> {
    const { config, messenger } = this.deps;
    const p = bot.program;
    if (p.launchMode === "polling") await clearWebhookForPolling(this.deps, p);
    const instance = this.host.launch(p, outputOf(bot, this.logs, this.deps.events));
    bot.instance = instance;
    bot.stopping = false;
    bot.stopAs = { status: "stopped", reason: null };
    bot.startedAt = Date.now();
    bot.launchId = this.launches.open(p.projectId, p.tokenId, instance.pid);
    bot.exited = instance.ended.then((end) => this.onExit(bot, instance, end, bot.stopping));
    if (p.launchMode === "webhook") {
      const moved = () => this.movedWhileStarting(bot, instance, moves);
      // docs/api.md#webhook-intake: register the webhook only once the bot listens, so no update meets the forced-200 rule.
      try {
        await waitForPort(instance, p.port!, this.policy.listenTimeoutMs);
      } catch (e) {
        if (await moved()) return this.spawn(bot, moves + 1);
        throw e;
      }
      const url = `${config.webhookBaseUrl}/api/webhook/${p.projectId}/${p.tokenId}`;
      try {
        await messenger.setWebhook(p.token, url, p.env.WEBHOOK_SECRET, p.allowedUpdates);
      } catch (e) {
        throw new BotError("MESSENGER", `The messenger platform refused the webhook: ${e instanceof Error ? e.message : e}`);
      }
      // onExit leaves a bot that dies while starting to this start: it must not be called running.
      if (await moved()) return this.spawn(bot, moves + 1);
      if (instance.hasEnded()) throw new BotError("FAILED", "The bot exited during start; see its logs");
    }
    bot.status = "running";
  }

  /**
   * A bot moved while it started (its runner stopped for another bot's fault) did nothing wrong:
   * it is started again, like a running one, a few times at most. Its launch entry is closed by
   * onExit first.
   */
  private async movedWhileStarting(bot: Bot, instance: BotInstance, moves: number): Promise<boolean> {
    if (moves >= 3 || !instance.hasEnded()) return false;
    if ((await instance.ended).moved === undefined) return false;
    await bot.exited;
    return true;
  }

  /** Ends a token's bot. `finalStatus` null = server shutdown (keep it wanted). */
  private async halt(tokenId: number, finalStatus: "stopped" | null) {
    const bot = this.bots.get(tokenId);
    if (bot) await this.haltBot(bot, finalStatus);
    else if (finalStatus) this.mark(tokenId, "stopped", "stopped");
  }

  private async haltBot(bot: Bot, finalStatus: "stopped" | "error" | null, reason?: string) {
    const tokenId = bot.program.tokenId;
    if (bot.restartTimer) clearTimeout(bot.restartTimer);
    bot.restartTimer = null;
    bot.stopping = true;
    bot.stopAs = { status: finalStatus === "error" ? "error" : "stopped", reason: reason ?? null };
    const instance = bot.instance;
    if (instance) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      if (!instance.hasEnded()) {
        instance.stop();
        timer = setTimeout(() => instance.kill(), this.policy.stopGraceMs);
      }
      await bot.exited;
      clearTimeout(timer);
    }
    await releaseWebhook(this.deps, bot.program);
    // onExit (already run by now for a live process) closed the launch; close it here otherwise.
    if (bot.launchId !== null) this.launches.close(bot.launchId, bot.stopAs.status, bot.stopAs.reason);
    bot.launchId = null;
    // a stop answers once the bot's last lines can be read (the log thread writes them)
    await this.logs.written();
    if (finalStatus) {
      if (this.bots.get(tokenId) === bot) this.bots.delete(tokenId);
      if (finalStatus === "error") this.mark(tokenId, "error", "stopped");
      else if (this.tokenExists(tokenId)) this.mark(tokenId, "stopped", "stopped");
    } else {
      bot.status = "stopped";
      this.mark(tokenId, "stopped");
    }
  }

  /** Records a token's runtime status (and what the operator wants) in the database and in memory. */
  private mark(tokenId: number, status: "running" | "stopped" | "error", desired?: "running" | "stopped") {
    if (status === "error") this.errored.add(tokenId);
    else this.errored.delete(tokenId);
    this.launches.setTokenStatus(tokenId, status, desired);
  }

  private wanted(tokenId: number) {
    return runtimeStatements(this.deps.db).desiredState.get({ tokenId })?.desired === "running";
  }

  private tokenExists(tokenId: number) {
    return runtimeStatements(this.deps.db).tokenExists.get({ tokenId }) !== undefined;
  }

  /** `asked`: the exit was requested (a stop was under way when the bot ended). */
  private onExit(bot: Bot, instance: BotInstance, end: BotEnd, asked: boolean) {
    if (bot.instance !== instance) return;
    this.logs.flush();
    if (asked) {
      if (bot.launchId !== null) this.launches.close(bot.launchId, bot.stopAs.status, bot.stopAs.reason);
      bot.launchId = null;
      return;
    }
    const tokenId = bot.program.tokenId;
    if (end.moved && (bot.status === "running" || bot.status === "starting") && !bot.stopping) {
      // Not this bot's fault: started again right away, no crash counted.
      this.logs.push(bot.program.projectId, tokenId, "stdout", end.moved);
      if (bot.launchId !== null) this.launches.close(bot.launchId, "stopped", end.moved.slice(0, 1000));
      bot.launchId = null;
      // A start under way (a webhook bot waiting for its port) launches it again itself (spawn).
      if (bot.status === "starting") return;
      bot.instance = null;
      bot.status = "starting";
      void this.serial(tokenId, () => this.respawn(bot));
      return;
    }
    const why = end.reason ?? `exited with code ${end.code}${bot.stderrTail.length ? `: ${bot.stderrTail.slice(-3).join(" | ")}` : ""}`;
    // A crash: every exit nobody asked for counts, whatever the code. One that died while starting
    // is the start's (or crash restart's) failure to report; no restart from here.
    const crashed = bot.status === "running" && !bot.stopping;
    const verdict = crashed ? crashVerdict(bot.crashes, Date.now(), this.policy) : null;
    if (verdict) bot.crashes = verdict.crashes;
    const givesUp = verdict?.givesUp === true;
    const reason = givesUp ? `gave up after ${bot.crashes.length} crashes in ${Math.round(this.policy.crashWindowMs / 60000)} minutes; last: ${why}` : why;
    if (bot.launchId !== null) this.launches.close(bot.launchId, "error", reason.slice(0, 1000));
    bot.launchId = null;
    if (!verdict) return;
    bot.instance = null;
    // The restart's setWebhook must come after this delete, or a slow delete would undo it.
    bot.webhookReleased = releaseWebhook(this.deps, bot.program);
    if (givesUp) {
      bot.status = "error";
      if (this.bots.get(tokenId) === bot) this.bots.delete(tokenId);
      this.mark(tokenId, "error", "stopped");
      this.deps.log.warn(`bot of token ${tokenId} crashed ${bot.crashes.length} times; giving up`);
      return;
    }
    const delay = verdict.delayMs;
    bot.status = "starting";
    this.deps.log.warn(`bot of token ${tokenId} ${why}; restarting in ${delay} ms`);
    bot.restartTimer = setTimeout(() => {
      bot.restartTimer = null;
      void this.serial(tokenId, () => this.respawn(bot));
    }, delay);
  }

  private async respawn(bot: Bot) {
    const tokenId = bot.program.tokenId;
    // Stopped, restarted or shut down while this restart waited for its turn.
    if (this.closed || bot.stopping || this.bots.get(tokenId) !== bot) return;
    try {
      // Rebuild from current data: the crash may have been fixed by an edit meanwhile.
      bot.program = buildBotProgram(this.deps.config, this.deps.db, this.deps.projectFiles, tokenId, this.deps.platformUrl?.() ?? null);
      bot.stderrTail = [];
      await bot.webhookReleased;
      await this.spawn(bot);
      this.mark(tokenId, "running", "running");
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      this.deps.log.warn(`restart of token ${tokenId} failed: ${message}`);
      await this.haltBot(bot, "error", `restart failed: ${message}`);
    }
  }
}
