// Runs each token's bot as its own process (the same executable, BUN_BE_BUN=1) and supervises it:
// exclusive ownership of a token, crash restarts with exponential backoff, give-up after repeated
// crashes, logs and launch history, and bots brought back after a server restart (DESIGN.md §6).
import { eq } from "drizzle-orm";
import type { Config } from "../config";
import type { Db } from "../db/client";
import { botTokens, projects } from "../db/schema";
import type { EventBus } from "../events";
import { AppError, conflict } from "../http/errors";
import { maskSecrets, registerSecret, type Logger } from "../log";
import type { MessengerClient } from "../messenger/client";
import type { BotController, BotInstanceState } from "./controller";
import { foldersOfToken, folderName, writeBotFolder } from "./folders";
import { ensureGrammyModule } from "./grammy-module";
import { LaunchHistory } from "./launches";
import { LogWriter } from "./log-writer";
import { buildBotProgram, type BotProgram } from "./program";
import { rmSync } from "node:fs";
import { join } from "node:path";

export interface SupervisionPolicy {
  backoffBaseMs: number;
  backoffCapMs: number;
  crashLimit: number;
  crashWindowMs: number;
  stopGraceMs: number;
  listenTimeoutMs: number;
}

export const DEFAULT_POLICY: SupervisionPolicy = { backoffBaseMs: 1000, backoffCapMs: 60_000, crashLimit: 5, crashWindowMs: 10 * 60_000, stopGraceMs: 5000, listenTimeoutMs: 15_000 };

interface Bot {
  program: BotProgram;
  proc: ReturnType<typeof Bun.spawn> | null;
  launchId: number | null;
  status: BotInstanceState["status"];
  startedAt: number | null;
  stopping: boolean;
  /** How the launch of a process we are stopping is closed (onExit writes it). */
  stopAs: { status: "stopped" | "error"; reason: string | null };
  crashes: number[];
  restartTimer: ReturnType<typeof setTimeout> | null;
  stderrTail: string[];
}

export interface BotManagerDeps {
  config: Config;
  db: Db;
  log: Logger;
  messenger: MessengerClient;
  events: EventBus;
  /** The platform's loopback URL once it listens (PLATFORM_URL of bots), or null. */
  platformUrl?: () => string | null;
}

const STOPPED: BotInstanceState = { status: "stopped", startedAt: null, pid: null };

export class BotManager implements BotController {
  private readonly bots = new Map<number, Bot>();
  /** Tokens whose bot gave up (status error) and has not been started or stopped since. */
  private readonly errored = new Set<number>();
  private readonly launches: LaunchHistory;
  private readonly logs: LogWriter;
  private closed = false;

  constructor(
    private readonly deps: BotManagerDeps,
    private readonly policy: SupervisionPolicy = DEFAULT_POLICY,
  ) {
    this.launches = new LaunchHistory(deps.db);
    this.logs = new LogWriter(deps.db);
    for (const { id } of deps.db.select({ id: botTokens.id }).from(botTokens).where(eq(botTokens.status, "error")).all()) this.errored.add(id);
    deps.events.on("bot:table_updated", ({ projectId, restartOnUpdate }) => {
      if (restartOnUpdate) void this.restartProject(projectId);
    });
  }

  state(tokenId: number): BotInstanceState {
    const b = this.bots.get(tokenId);
    if (!b) return this.errored.has(tokenId) ? { status: "error", startedAt: null, pid: null } : STOPPED;
    return { status: b.status, startedAt: b.status === "running" ? b.startedAt : null, pid: b.proc?.pid ?? null };
  }

  /** Starts every bot that was running when the server last stopped. */
  async resumeAll() {
    this.launches.closeDangling();
    const rows = this.deps.db.select({ id: botTokens.id }).from(botTokens).where(eq(botTokens.desiredState, "running")).all();
    for (const { id } of rows) {
      try {
        await this.start(id);
      } catch (e) {
        this.deps.log.warn(`could not resume bot of token ${id}: ${e instanceof Error ? e.message : e}`);
        this.mark(id, "error");
      }
    }
  }

  async start(tokenId: number): Promise<BotInstanceState> {
    if (this.closed) throw new AppError(503, "INTERNAL", "The server is shutting down");
    const existing = this.bots.get(tokenId);
    if (existing && (existing.status === "running" || existing.status === "starting" || existing.restartTimer)) throw conflict("This bot is already running");
    const program = buildBotProgram(this.deps.config, this.deps.db, tokenId, this.deps.platformUrl?.() ?? null);
    for (const [id, other] of this.bots) {
      if (id !== tokenId && other.program.token === program.token && other.status !== "stopped" && other.status !== "error") {
        // The other project may be someone else's: say what happened without naming it.
        throw conflict("This bot is already running in another project; a bot token can have only one poller or webhook at a time");
      }
    }
    registerSecret(program.token);
    const bot: Bot = { program, proc: null, launchId: null, status: "starting", startedAt: null, stopping: false, stopAs: { status: "stopped", reason: null }, crashes: existing?.crashes ?? [], restartTimer: null, stderrTail: [] };
    this.bots.set(tokenId, bot);
    try {
      await this.spawn(bot);
    } catch (e) {
      bot.status = "error";
      this.mark(tokenId, "error", "stopped");
      throw e;
    }
    this.mark(tokenId, "running", "running");
    return this.state(tokenId);
  }

  async stop(tokenId: number): Promise<BotInstanceState> {
    await this.halt(tokenId, "stopped");
    return this.state(tokenId);
  }

  async restart(tokenId: number): Promise<BotInstanceState> {
    await this.halt(tokenId, "stopped");
    return this.start(tokenId);
  }

  async stopProject(projectId: number) {
    const ids = this.deps.db.select({ id: botTokens.id }).from(botTokens).where(eq(botTokens.projectId, projectId)).all();
    await Promise.all(ids.map(({ id }) => this.halt(id, "stopped")));
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

  /** Server shutdown: stop every bot but remember it as wanted, so the next start brings it back. */
  async shutdown() {
    this.closed = true;
    await Promise.all([...this.bots.keys()].map((id) => this.halt(id, null)));
    this.logs.flush();
  }

  // --- internals ------------------------------------------------------------------------------

  private async spawn(bot: Bot) {
    const { config, log, messenger } = this.deps;
    const p = bot.program;
    ensureGrammyModule(config.botsDir);
    const name = folderName(p.projectName, p.projectId, p.tokenId);
    for (const stale of foldersOfToken(config.botsDir, p.tokenId, p.projectId)) if (stale !== name) rmSync(join(config.botsDir, stale), { recursive: true, force: true });
    const dir = writeBotFolder(config.botsDir, name, p.code, p.env);
    if (p.launchMode === "polling") {
      // Exclusive ownership: a webhook left registered would make getUpdates fail with 409.
      await messenger.deleteWebhook(p.token).catch((e) => log.warn(`deleteWebhook for token ${p.tokenId}: ${e.message}`));
    }
    const proc = Bun.spawn([process.execPath, "--no-install", "bot.ts"], {
      cwd: dir,
      env: { ...config.childEnv, ...p.env, BUN_BE_BUN: "1", BOTLOOM_SUPERVISED: "1" },
      stdin: "pipe",
      stdout: "pipe",
      stderr: "pipe",
    });
    bot.proc = proc;
    bot.stopping = false;
    bot.stopAs = { status: "stopped", reason: null };
    bot.startedAt = Date.now();
    bot.launchId = this.launches.open(p.projectId, p.tokenId, proc.pid);
    this.pipeLines(bot, proc.stdout as ReadableStream<Uint8Array>, "stdout");
    this.pipeLines(bot, proc.stderr as ReadableStream<Uint8Array>, "stderr");
    void proc.exited.then((code) => this.onExit(bot, proc, code));
    if (p.launchMode === "webhook") {
      // DESIGN.md: register the webhook only once the bot listens, so no update meets the forced-200 rule.
      await this.waitForPort(proc, p.port!);
      const url = `${config.webhookBaseUrl}/api/webhook/${p.projectId}/${p.tokenId}`;
      try {
        await messenger.setWebhook(p.token, url, p.env.WEBHOOK_SECRET);
      } catch (e) {
        await this.halt(p.tokenId, "error", `setWebhook failed: ${e instanceof Error ? e.message : e}`);
        throw new AppError(502, "BAD_GATEWAY", `The messenger platform refused the webhook: ${e instanceof Error ? e.message : e}`);
      }
    }
    bot.status = "running";
  }

  private async waitForPort(proc: ReturnType<typeof Bun.spawn>, port: number) {
    const deadline = Date.now() + this.policy.listenTimeoutMs;
    while (Date.now() < deadline) {
      if (proc.exitCode !== null) throw new AppError(500, "INTERNAL", "The bot exited during start; see its logs");
      try {
        const socket = await Bun.connect({ hostname: "127.0.0.1", port, socket: { data() {}, error() {} } });
        socket.end();
        return;
      } catch {
        await Bun.sleep(50);
      }
    }
    proc.kill("SIGKILL");
    throw new AppError(500, "INTERNAL", `The bot did not listen on port ${port} in time`);
  }

  private pipeLines(bot: Bot, stream: ReadableStream<Uint8Array>, level: "stdout" | "stderr") {
    const { projectId, tokenId, token } = bot.program;
    void (async () => {
      const decoder = new TextDecoder();
      let rest = "";
      const emit = (line: string) => {
        if (!line.trim()) return;
        const safe = maskSecrets(line.split(token).join("***"));
        this.logs.push(projectId, tokenId, level, safe);
        if (level === "stderr") {
          bot.stderrTail.push(safe);
          if (bot.stderrTail.length > 20) bot.stderrTail.shift();
        }
      };
      try {
        for await (const chunk of stream) {
          rest += decoder.decode(chunk, { stream: true });
          const lines = rest.split("\n");
          rest = lines.pop() ?? "";
          for (const l of lines) emit(l);
          // A process printing without newlines must not grow this buffer without bound.
          if (rest.length > 64 * 1024) {
            emit(rest);
            rest = "";
          }
        }
      } catch {}
      emit(rest);
    })();
  }

  /** Ends a bot's process. `finalStatus` null = server shutdown (keep it wanted). */
  private async halt(tokenId: number, finalStatus: "stopped" | "error" | null, reason?: string) {
    const bot = this.bots.get(tokenId);
    if (!bot) {
      if (finalStatus) this.mark(tokenId, "stopped", "stopped");
      return;
    }
    if (bot.restartTimer) clearTimeout(bot.restartTimer);
    bot.restartTimer = null;
    bot.stopping = true;
    bot.stopAs = { status: finalStatus === "error" ? "error" : "stopped", reason: reason ?? null };
    const proc = bot.proc;
    if (proc && proc.exitCode === null) {
      try {
        (proc.stdin as import("bun").FileSink).end();
      } catch {}
      proc.kill("SIGTERM");
      const timer = setTimeout(() => proc.kill("SIGKILL"), this.policy.stopGraceMs);
      await proc.exited;
      clearTimeout(timer);
    }
    await this.releaseWebhook(bot);
    // onExit (already run by now for a live process) closed the launch; close it here otherwise.
    if (bot.launchId !== null) this.launches.close(bot.launchId, bot.stopAs.status, bot.stopAs.reason);
    bot.launchId = null;
    this.logs.flush();
    if (finalStatus) {
      this.bots.delete(tokenId);
      if (finalStatus === "error") this.mark(tokenId, "error", "stopped");
      else if (this.tokenExists(tokenId)) this.mark(tokenId, "stopped", "stopped");
    } else {
      bot.status = "stopped";
      this.mark(tokenId, "stopped");
    }
  }

  /**
   * A webhook left registered while its bot is down would have the intake answer 200 to updates
   * nobody handles (API.md forced-200 rule): they would be lost. Without a webhook the messenger
   * keeps them until the bot is back (polling, or the webhook registered again on start).
   */
  private async releaseWebhook(bot: Bot) {
    if (bot.program.launchMode !== "webhook") return;
    const { token, tokenId } = bot.program;
    await Promise.race([
      this.deps.messenger.deleteWebhook(token).catch((e) => this.deps.log.warn(`deleteWebhook for token ${tokenId}: ${e.message}`)),
      Bun.sleep(3000),
    ]);
  }

  /** Records a token's runtime status (and what the operator wants) in the database and in memory. */
  private mark(tokenId: number, status: "running" | "stopped" | "error", desired?: "running" | "stopped") {
    if (status === "error") this.errored.add(tokenId);
    else this.errored.delete(tokenId);
    this.launches.setTokenStatus(tokenId, status, desired);
  }

  private tokenExists(tokenId: number) {
    return this.deps.db.select({ id: botTokens.id }).from(botTokens).where(eq(botTokens.id, tokenId)).get() !== undefined;
  }

  private onExit(bot: Bot, proc: ReturnType<typeof Bun.spawn>, code: number | null) {
    if (bot.proc !== proc) return;
    this.logs.flush();
    if (bot.stopping) {
      if (bot.launchId !== null) this.launches.close(bot.launchId, bot.stopAs.status, bot.stopAs.reason);
      bot.launchId = null;
      return;
    }
    // A crash: every exit nobody asked for counts, whatever the code.
    const now = Date.now();
    bot.crashes = [...bot.crashes.filter((t) => now - t < this.policy.crashWindowMs), now];
    const why = `exited with code ${code}${bot.stderrTail.length ? `: ${bot.stderrTail.slice(-3).join(" | ")}` : ""}`;
    const tokenId = bot.program.tokenId;
    if (bot.launchId !== null) this.launches.close(bot.launchId, "error", why.slice(0, 1000));
    bot.launchId = null;
    bot.proc = null;
    void this.releaseWebhook(bot);
    if (bot.crashes.length >= this.policy.crashLimit) {
      bot.status = "error";
      this.bots.delete(tokenId);
      const launchId = this.launches.open(bot.program.projectId, tokenId, null);
      this.launches.close(launchId, "error", `gave up after ${bot.crashes.length} crashes in ${Math.round(this.policy.crashWindowMs / 60000)} minutes; last: ${why}`.slice(0, 1000));
      this.mark(tokenId, "error", "stopped");
      this.deps.log.warn(`bot of token ${tokenId} crashed ${bot.crashes.length} times; giving up`);
      return;
    }
    const delay = Math.min(this.policy.backoffBaseMs * 2 ** (bot.crashes.length - 1), this.policy.backoffCapMs);
    bot.status = "starting";
    this.deps.log.warn(`bot of token ${tokenId} ${why}; restarting in ${delay} ms`);
    bot.restartTimer = setTimeout(() => {
      bot.restartTimer = null;
      if (this.closed) return;
      void this.respawn(bot);
    }, delay);
  }

  private async respawn(bot: Bot) {
    const tokenId = bot.program.tokenId;
    try {
      // Rebuild from current data: the crash may have been fixed by an edit meanwhile.
      bot.program = buildBotProgram(this.deps.config, this.deps.db, tokenId, this.deps.platformUrl?.() ?? null);
      bot.stderrTail = [];
      await this.spawn(bot);
      this.mark(tokenId, "running", "running");
    } catch (e) {
      this.deps.log.warn(`restart of token ${tokenId} failed: ${e instanceof Error ? e.message : e}`);
      bot.status = "error";
      this.bots.delete(tokenId);
      this.mark(tokenId, "error", "stopped");
    }
  }

  /** Names of projects, for folder cleanup decisions. */
  projectExists(projectId: number) {
    return this.deps.db.select({ id: projects.id }).from(projects).where(eq(projects.id, projectId)).get() !== undefined;
  }

  isRunning(tokenId: number) {
    const b = this.bots.get(tokenId);
    return b !== undefined && b.status !== "stopped" && b.status !== "error";
  }
}
