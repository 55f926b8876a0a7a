// BOT_ISOLATION=process: each bot is its own process running its generated program (the same
// executable, BUN_BE_BUN=1) from its folder <BOTS_DIR>/<slug>_<projectId>_<tokenId>/.
import { rmSync } from "node:fs";
import { join } from "node:path";
import type { Config } from "../config";
import { ensureBotModules } from "./bot-modules";
import { foldersOfToken, folderName, writeBotFolder } from "./folders";
import type { BotEnd, BotHost, BotInstance, LineSink } from "./instance";
import { readLines } from "./lines";
import { BOT_NICE, lowerPriority, toBackgroundCpus } from "../lib/priority";
import type { BotProgram } from "./program";

export class ProcessHost implements BotHost {
  constructor(private readonly config: Config) {}

  launch(p: BotProgram, onLine: LineSink): BotInstance {
    if (!("code" in p.run)) throw new Error("a bot process needs its generated program");
    const { botsDir } = this.config;
    ensureBotModules(botsDir);
    const name = folderName(p.projectName, p.projectId, p.tokenId);
    for (const stale of foldersOfToken(botsDir, p.tokenId, p.projectId)) if (stale !== name) rmSync(join(botsDir, stale), { recursive: true, force: true });
    const dir = writeBotFolder(botsDir, name, p.run.code, p.env);
    const proc = Bun.spawn([process.execPath, "--no-install", "bot.ts"], {
      cwd: dir,
      env: { ...this.config.childEnv, ...p.env, BUN_BE_BUN: "1", BOTLOOM_SUPERVISED: "1" },
      stdin: "pipe",
      stdout: "pipe",
      stderr: "pipe",
    });
    lowerPriority(proc.pid, BOT_NICE);
    toBackgroundCpus(proc.pid);
    const output = Promise.all([
      readLines(proc.stdout as ReadableStream<Uint8Array>, (line) => onLine("stdout", line)),
      readLines(proc.stderr as ReadableStream<Uint8Array>, (line) => onLine("stderr", line)),
    ]);
    // The last stderr lines say why a bot died: read them before the end is reported (bounded).
    const ended = proc.exited.then(async (code): Promise<BotEnd> => {
      await Promise.race([output, Bun.sleep(1000)]);
      return { code };
    });
    return {
      pid: proc.pid,
      ended,
      hasEnded: () => proc.exitCode !== null || proc.signalCode !== null,
      tell(command) {
        const sink = proc.stdin as import("bun").FileSink;
        sink.write(JSON.stringify(command) + "\n");
        sink.flush();
      },
      stop() {
        try {
          (proc.stdin as import("bun").FileSink).end();
        } catch {}
        proc.kill("SIGTERM");
      },
      kill: () => proc.kill("SIGKILL"),
    };
  }

  async close() {}
}
