// BOT_ISOLATION=runner (the default): bots run inside a small pool of runner processes, each hosting
// many bots of ONE owner with one copy of grammY and of the interpreter (runner/main.ts). Per bot
// the runner keeps only its tables, state and connections. This side places bots, relays their
// output, and watches each runner: a runner whose event loop is blocked or whose memory is over the
// limit is killed; the bot that caused it is named in its log and gets a runner of its own when it
// starts again, and the others are started again at once (docs/bots.md#running-bots, docs/bots.md#running-bots).
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { Config } from "../config";
import type { Logger } from "../log";
import { maskSecrets } from "../log";
import { renderInterpreter, RUNNER_OUTBOX_MODULE } from "../scenario";
import { ensureBotModules, writeIfChanged } from "./bot-modules";
import { foldersOfToken } from "./folders";
import type { BotEnd, BotHost, BotInstance, LineSink } from "./instance";
import { readLines } from "./lines";
import { BOT_NICE, lowerPriority, toBackgroundCpus } from "../lib/priority";
import { PRIVATE_DIR_MODE } from "../lib/file-modes";
import type { BotProgram } from "./program";
import type { RunnerCommand, RunnerEventRead } from "./runner/protocol";
// The runner's own sources are embedded as text (also in the compiled binary) and written beside
// the interpreter. tsc does not model text imports of .ts files, hence the directives.
// @ts-expect-error TS1192: the default export of a text import is the file's text
import runnerMain from "./runner/main.ts" with { type: "text" };
// @ts-expect-error TS1192: as above
import runnerWatchdog from "./runner/watchdog.ts" with { type: "text" };

/** How often each runner is asked for a sign of life (its memory is watched inside it, runner/watchdog.ts). */
const PING_MS = 1000;
/**
 * A runner that has not answered for its block limit plus this long of the time this side was
 * watching is killed even unnamed (its watchdog thread said nothing: the process is frozen).
 */
const PING_SLACK_MS = 3000;
/** A runner left without bots is ended after this long (a restart of its only bot reuses it). */
export const RUNNER_IDLE_MS = 10_000;

interface Hosted {
  tokenId: number;
  onLine: LineSink;
  settle: (end: BotEnd) => void;
  done: boolean;
}

interface Runner {
  key: string;
  proc: ReturnType<typeof Bun.spawn>;
  bots: Map<number, Hosted>;
  /** bots let go after they did not stop in time, still in the runner until it says they ended (with their log) */
  lingering: Map<number, LineSink>;
  /** it answered a ping since the last watch */
  ponged: boolean;
  /** how long this side watched it without an answer (see watch: the server's own stalls are not counted) */
  silentMs: number;
  /** the number of the last ping it answered */
  answeredPing: number;
  /** the bot that made us kill this runner, and why */
  culprit: { tokenId: number; why: string } | null;
  idleTimer: ReturnType<typeof setTimeout> | null;
  /** its stdin is closed: it takes no more bots while it exits */
  ending: boolean;
  exited: Promise<void>;
}

export class RunnerPool implements BotHost {
  private readonly runners = new Set<Runner>();
  /** Bots that blocked or overfilled a shared runner: from then on each gets a runner of its own. */
  private readonly alone = new Set<number>();
  private readonly pinger: ReturnType<typeof setInterval>;
  private pingCount = 0;
  private lastWatch = performance.now();
  private closed = false;
  /** Tests shorten it to reach an idle runner's end without waiting 10 s. */
  idleMs = RUNNER_IDLE_MS;

  constructor(
    private readonly config: Config,
    private readonly log: Logger,
  ) {
    this.pinger = setInterval(() => this.watch(), PING_MS);
    this.pinger.unref();
  }

  /** Runner processes now (for tests and the status of the instance). */
  get processes(): number[] {
    return [...this.runners].map((r) => r.proc.pid);
  }

  /** Whether a runner let a whole ping interval pass unanswered: its event loop is blocked (for tests). */
  missedPing(pid: number): boolean {
    const r = [...this.runners].find((x) => x.proc.pid === pid);
    return r !== undefined && this.pingCount - r.answeredPing >= 2;
  }

  /** Runner processes told to end (stdin closed) that have not exited yet (for tests). */
  get ending(): number[] {
    return [...this.runners].filter((r) => r.ending).map((r) => r.proc.pid);
  }

  launch(p: BotProgram, onLine: LineSink): BotInstance {
    if (!("tables" in p.run)) throw new Error("a shared runner needs the bot as tables");
    if (this.closed) throw new Error("the runner pool is closed");
    // A folder the bot had as a process of its own (BOT_ISOLATION=process before) holds its token in .env.
    for (const old of foldersOfToken(this.config.botsDir, p.tokenId, p.projectId)) rmSync(join(this.config.botsDir, old), { recursive: true, force: true });
    const runner = this.place(p);
    const ended = Promise.withResolvers<BotEnd>();
    const hosted: Hosted = {
      tokenId: p.tokenId,
      onLine,
      done: false,
      settle: (end) => {
        if (hosted.done) return;
        hosted.done = true;
        if (runner.bots.get(p.tokenId) === hosted) runner.bots.delete(p.tokenId);
        if (runner.bots.size === 0) this.idle(runner);
        ended.resolve(end);
      },
    };
    runner.bots.set(p.tokenId, hosted);
    if (runner.idleTimer) clearTimeout(runner.idleTimer);
    runner.idleTimer = null;
    this.send(runner, { op: "start", id: p.tokenId, tables: p.run.tables, env: p.env });
    return {
      pid: runner.proc.pid,
      ended: ended.promise,
      hasEnded: () => hosted.done,
      stop: () => this.send(runner, { op: "stop", id: p.tokenId }),
      tell: (command) => this.send(runner, { op: "tell", id: p.tokenId, command }),
      // A runner cannot end one bot by force without ending the others; the bot is let go (the
      // runner's own 3 s guard reports it) and its slot is free for its next start.
      kill: () => {
        if (!hosted.done) runner.lingering.set(p.tokenId, onLine);
        hosted.settle({ code: null, reason: "did not stop in time" });
      },
    };
  }

  async close() {
    this.closed = true;
    clearInterval(this.pinger);
    const all = [...this.runners];
    for (const r of all) this.end(r);
    await Promise.all(all.map((r) => Promise.race([r.exited, Bun.sleep(5000)])));
    for (const r of all) r.proc.kill("SIGKILL");
  }

  // --- placement --------------------------------------------------------------------------------

  /**
   * The owner's runner with the fewest bots; a new one while every runner of the owner is at
   * capacity and the owner has fewer than runnersPerOwner. A bot that once blocked or overfilled a
   * runner gets one of its own.
   */
  private place(p: BotProgram): Runner {
    const key = this.alone.has(p.tokenId) ? `alone:${p.tokenId}` : `owner:${p.ownerId}`;
    const mine = [...this.runners].filter((r) => r.key === key && r.culprit === null && !r.ending && !r.lingering.has(p.tokenId) && r.proc.exitCode === null && r.proc.signalCode === null);
    const least = mine.sort((a, b) => a.bots.size - b.bots.size)[0];
    const { runnersPerOwner, runnerCapacity } = this.config.bots;
    if (least && (least.bots.size < runnerCapacity || mine.length >= runnersPerOwner)) return least;
    return this.spawn(key);
  }

  private spawn(key: string): Runner {
    const dir = this.writeRunnerFiles();
    const { runnerBlockMs, runnerMemoryMb } = this.config.bots;
    const proc = Bun.spawn([process.execPath, "--no-install", "main.ts"], {
      cwd: dir,
      env: {
        ...this.config.childEnv,
        BUN_BE_BUN: "1",
        BOTLOOM_RUNNER_BLOCK_MS: String(runnerBlockMs),
        BOTLOOM_RUNNER_MEMORY_MB: String(runnerMemoryMb),
        // Every polling bot holds one long request open; Bun's default of 256 at once would queue
        // the rest (and their replies) behind them.
        BUN_CONFIG_MAX_HTTP_REQUESTS: "65535",
      },
      stdin: "pipe",
      stdout: "pipe",
      stderr: "pipe",
    });
    lowerPriority(proc.pid, BOT_NICE);
    toBackgroundCpus(proc.pid);
    const runner: Runner = { key, proc, bots: new Map(), lingering: new Map(), ponged: true, silentMs: 0, answeredPing: this.pingCount, culprit: null, idleTimer: null, ending: false, exited: Promise.resolve() };
    const output = Promise.all([
      readLines(proc.stdout as ReadableStream<Uint8Array>, (line) => this.onMessage(runner, line)),
      readLines(proc.stderr as ReadableStream<Uint8Array>, (line) => this.log.warn(`bot runner ${proc.pid}: ${maskSecrets(line)}`)),
    ]);
    runner.exited = proc.exited.then(async (code) => {
      await Promise.race([output, Bun.sleep(1000)]);
      this.onRunnerExit(runner, code);
    });
    this.runners.add(runner);
    return runner;
  }

  /** <BOTS_DIR>/.runner/: main.ts, outbox.ts, watchdog.ts and the interpreter, rewritten only when changed. */
  private writeRunnerFiles(): string {
    const dir = join(this.config.botsDir, ".runner");
    ensureBotModules(this.config.botsDir);
    mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
    const files: Record<string, string> = { "main.ts": runnerMain as unknown as string, "outbox.ts": RUNNER_OUTBOX_MODULE, "watchdog.ts": runnerWatchdog as unknown as string, "interpreter.ts": renderInterpreter() };
    for (const [name, content] of Object.entries(files)) writeIfChanged(join(dir, name), content);
    return dir;
  }

  // --- what runners say ---------------------------------------------------------------------------

  private onMessage(runner: Runner, line: string) {
    let m: RunnerEventRead;
    try {
      m = JSON.parse(line);
    } catch {
      return this.log.warn(`bot runner ${runner.proc.pid}: ${maskSecrets(line)}`);
    }
    const hosted = typeof m.id === "number" ? runner.bots.get(m.id) : undefined;
    switch (m.ev) {
      case "line":
        hosted?.onLine(m.err ? "stderr" : "stdout", String(m.text ?? ""));
        return;
      case "exit":
        if (typeof m.id === "number") runner.lingering.delete(m.id);
        hosted?.settle({ code: typeof m.code === "number" ? m.code : null });
        return;
      case "pong":
        runner.ponged = true;
        if (typeof m.n === "number") runner.answeredPing = m.n;
        return;
      case "error":
        // An error no handler caught, while this bot's code ran last: most likely its own.
        hosted?.onLine("stderr", `an error no handler caught (raised while this bot's code ran): ${String(m.text ?? "").split("\n")[0]}`);
        this.log.warn(`bot runner ${runner.proc.pid}: uncaught error while bot of token ${m.id} ran: ${maskSecrets(String(m.text ?? ""))}`);
        return;
      case "blocked":
        return this.recycle(runner, m.id, `blocked its runner's event loop for ${((m.ms ?? 0) / 1000).toFixed(1)} s`);
      case "memory":
        return this.recycle(runner, m.id, `was running when its runner's memory reached ${Math.round((m.rss ?? 0) / 1048576)} MB (limit ${this.config.bots.runnerMemoryMb} MB)`);
    }
  }

  /** Kills a runner for a bot's fault; its other bots are started again elsewhere (onRunnerExit). */
  private recycle(runner: Runner, tokenId: number | undefined, why: string) {
    if (runner.culprit) return;
    // A bot let go by a stop while it blocked the runner is still the one to name.
    const named = tokenId !== undefined && (runner.bots.has(tokenId) || runner.lingering.has(tokenId)) ? tokenId : -1;
    runner.culprit = { tokenId: named, why };
    this.log.warn(`bot runner ${runner.proc.pid} killed: ${named > 0 ? `bot of token ${named} ${why}` : `no bot to name (${why})`}`);
    runner.proc.kill("SIGKILL");
  }

  private onRunnerExit(runner: Runner, code: number | null) {
    this.runners.delete(runner);
    if (runner.idleTimer) clearTimeout(runner.idleTimer);
    const culprit = runner.culprit;
    if (culprit && culprit.tokenId > 0) this.alone.add(culprit.tokenId);
    if (culprit && culprit.tokenId > 0) runner.lingering.get(culprit.tokenId)?.("stderr", `this bot ${culprit.why} after it was asked to stop; it gets a runner of its own from now on`);
    for (const hosted of [...runner.bots.values()]) {
      if (culprit && hosted.tokenId === culprit.tokenId) {
        const reason = `this bot ${culprit.why}; its runner was stopped and the bot gets a runner of its own`;
        hosted.onLine("stderr", reason);
        hosted.settle({ code: null, reason });
      } else if (culprit && culprit.tokenId > 0) {
        hosted.settle({ code: null, moved: `another bot ${culprit.why}; this bot was moved to another runner` });
      } else if (culprit) {
        // Killed by this side with no bot named (docs/operations.md "Runners and stalls"): a reason
        // outside any bot, so no bot's crash budget pays for it.
        hosted.settle({ code: null, moved: `its runner was stopped with no bot to name (${culprit.why}); this bot was moved to another runner` });
      } else {
        // It ended by itself or was killed from outside (out of memory before the watchdog saw it): every bot crashed.
        const reason = `its runner exited with code ${code}`;
        hosted.onLine("stderr", reason);
        hosted.settle({ code, reason });
      }
    }
  }

  // --- upkeep -------------------------------------------------------------------------------------

  /**
   * A runner's silence is counted only in time this side was watching: while the server's own event
   * loop stalls (a slow request, a long read), pongs wait unread in the pipe and pings go unsent, so
   * the wall-clock gap says nothing about the runner. Each watch adds at most one ping interval;
   * a stall of any length counts as one.
   */
  private watch() {
    const now = performance.now();
    const watched = Math.min(now - this.lastWatch, PING_MS);
    this.lastWatch = now;
    const limit = this.config.bots.runnerBlockMs + PING_SLACK_MS;
    this.pingCount++;
    for (const r of this.runners) {
      if (r.culprit) continue;
      r.silentMs = r.ponged ? 0 : r.silentMs + watched;
      r.ponged = false;
      if (r.silentMs > limit) this.recycle(r, undefined, `did not answer for ${(r.silentMs / 1000).toFixed(1)} s of the server's watch`);
      else this.send(r, { op: "ping", n: this.pingCount });
    }
  }

  private idle(runner: Runner) {
    if (runner.idleTimer || this.closed) return;
    runner.idleTimer = setTimeout(() => {
      runner.idleTimer = null;
      if (runner.bots.size === 0) this.end(runner);
    }, this.idleMs);
    runner.idleTimer.unref();
  }

  /** Closing stdin: the runner stops its bots and exits. */
  private end(runner: Runner) {
    runner.ending = true;
    try {
      (runner.proc.stdin as import("bun").FileSink).end();
    } catch {}
  }

  private send(runner: Runner, message: RunnerCommand) {
    try {
      const sink = runner.proc.stdin as import("bun").FileSink;
      sink.write(JSON.stringify(message) + "\n");
      sink.flush();
    } catch {
      // the runner is gone; onRunnerExit settles its bots
    }
  }
}
