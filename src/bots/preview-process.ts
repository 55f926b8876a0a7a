// A preview bot: the generated program run like a production bot (same executable, BUN_BE_BUN=1,
// supervised through stdin), but in a throwaway folder with its own database and limits: a
// watchdog reads /proc and ends a bot that uses too much memory or CPU time. Its process is started
// and read by a thread of its own (spawn-thread.ts), not by the event loop.
import { readFileSync } from "node:fs";
import { mkdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { ensureBotModules } from "./bot-modules";
import { BACKGROUND_NICE, lowerProcessPriority, waitedForNice } from "../lib/priority";
import type { BotCommand } from "./runner/protocol";
import { spawnOffThread, type ChildProcess } from "./spawn-thread";

export interface PreviewLimits {
  /** resident memory a preview bot may use */
  maxRssBytes: number;
  /** CPU time (user + system) a preview bot may use in all */
  maxCpuMs: number;
}

export interface PreviewBotSpec {
  /** folder under BOTS_DIR (so the program's imports resolve from BOTS_DIR/node_modules) */
  botsDir: string;
  name: string;
  /** the program: text, or its UTF-8 bytes as they came from the generator */
  code: string | Uint8Array;
  env: Record<string, string>;
  limits: PreviewLimits;
  /** a line the bot printed (the token already masked) */
  onLine: (level: "stdout" | "stderr", line: string) => void;
  /** the process ended without being asked to */
  onExit: (reason: string) => void;
}

const CLOCK_TICKS = 100; // USER_HZ on Linux
const PAGE = 4096;

/** [rss bytes, cpu ms] of a process from /proc; null when it is gone or /proc is absent. */
function usage(pid: number): [number, number] | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const cpuMs = ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
    const rss = Number(readFileSync(`/proc/${pid}/statm`, "utf8").split(" ")[1]) * PAGE;
    return [rss, cpuMs];
  } catch {
    return null;
  }
}

export class PreviewBot {
  readonly dir: string;
  private proc: ChildProcess | null = null;
  private exited: Promise<void> = Promise.resolve();
  private watchdog: ReturnType<typeof setInterval> | null = null;
  private stopping = false;
  /** the program being written before a process starts */
  private starting: Promise<void> = Promise.resolve();
  private endedResolve: () => void = () => {};
  /** settles when the current process has ended (for whatever reason) */
  ended: Promise<void> = new Promise((r) => (this.endedResolve = r));

  constructor(private readonly spec: PreviewBotSpec) {
    this.dir = join(spec.botsDir, ".preview", spec.name);
  }

  get pid(): number | null {
    return this.proc && !this.proc.ended ? this.proc.pid : null;
  }

  get databasePath() {
    return join(this.dir, "preview.db");
  }

  /** Writes the program and starts the process; `ended` is the new process's from the call on. */
  start(): Promise<void> {
    this.stopping = false;
    this.ended = new Promise((r) => (this.endedResolve = r));
    this.starting = this.write().then(async () => {
      // Stopped while the program was written: nothing to start.
      if (this.stopping) this.endedResolve();
      else await this.spawn();
    });
    return this.starting;
  }

  /** The program (about 0.75 MB for a 2,000-node scenario) goes to disk. */
  private async write() {
    ensureBotModules(this.spec.botsDir);
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    await Bun.write(join(this.dir, "bot.ts"), this.spec.code);
  }

  private async spawn() {
    const { spec } = this;
    const token = spec.env.BOT_TOKEN ?? "";
    const mask = (l: string) => (token ? l.split(token).join("***") : l);
    let proc: ChildProcess;
    try {
      proc = await spawnOffThread({
        cmd: [process.execPath, "--no-install", "bot.ts"],
        cwd: this.dir,
        // the token lives only in the process environment: a preview folder holds no secret
        env: { ...spec.env, DATABASE_PATH: this.databasePath, BUN_BE_BUN: "1", BOTLOOM_SUPERVISED: "1" },
        // Its start is waited for (the preview opens when it answers); settle() then makes it a trial run.
        nice: waitedForNice(),
        onLine: (level, l) => spec.onLine(level, mask(l)),
      });
    } catch (e) {
      if (!this.stopping) spec.onExit(`the preview bot could not start: ${e instanceof Error ? e.message : String(e)}`);
      this.endedResolve();
      return;
    }
    this.proc = proc;
    let killedFor: string | null = null;
    this.watchdog = setInterval(() => {
      const u = usage(proc.pid);
      if (!u) return;
      if (u[0] > spec.limits.maxRssBytes) killedFor = `the preview bot used more than ${Math.round(spec.limits.maxRssBytes / 1048576)} MB of memory`;
      else if (u[1] > spec.limits.maxCpuMs) killedFor = `the preview bot used more than ${spec.limits.maxCpuMs / 1000} s of CPU time`;
      if (killedFor) proc.kill("SIGKILL");
    }, 1000);
    // the thread delivers the process's last lines before its exit
    this.exited = proc.exited.then(({ code }) => {
      if (this.watchdog) clearInterval(this.watchdog);
      this.watchdog = null;
      if (!this.stopping) spec.onExit(killedFor ?? `the preview bot exited (code ${code})`);
      this.endedResolve();
    });
  }

  /**
   * The bot answered (or had its time to): from now on it is a user's trial run, and when the cores
   * are busy the server's requests and the bots go first, however it burns the CPU.
   */
  settle() {
    const pid = this.pid;
    if (pid !== null) lowerProcessPriority(pid, BACKGROUND_NICE);
  }

  /** A command of the platform (an inbound webhook, docs/hooks.md), as a production bot's process gets it on stdin; false when no process runs. */
  tell(command: BotCommand): boolean {
    const proc = this.proc;
    if (!proc || proc.ended || this.stopping) return false;
    proc.write(JSON.stringify(command) + "\n");
    return true;
  }

  /** Ends the process (stdin closes, then SIGTERM, SIGKILL after `graceMs`). */
  async stop(graceMs = 2000) {
    this.stopping = true;
    await this.starting.catch(() => {});
    const proc = this.proc;
    if (!proc) return;
    if (!proc.ended) {
      proc.end();
      proc.kill("SIGTERM");
      const timer = setTimeout(() => proc.kill("SIGKILL"), graceMs);
      await this.exited;
      clearTimeout(timer);
    } else await this.exited;
    this.proc = null;
  }

  /** Stops the process and removes its folder (program, database and its WAL files). */
  async dispose() {
    await this.stop();
    // Off the event loop: removing a just-closed database and its WAL took milliseconds there.
    await rm(this.dir, { recursive: true, force: true });
  }
}
