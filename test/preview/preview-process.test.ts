// The preview bot's watchdog: a program that burns CPU is ended once it has used its CPU time, and
// the reason is reported; its folder goes with dispose().
import { expect, test } from "bun:test";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { getPriority, tmpdir } from "node:os";
import { join } from "node:path";
import { PreviewBot } from "../../src/bots/preview-process";
import { BACKGROUND_NICE, BOT_NICE, backgroundCpus } from "../../src/lib/priority";
import { until } from "../support/process";

const GB = 1024 * 1024 * 1024;
/** A preview bot of `code` in `botsDir`; the rest of the spec as the test needs it. */
const previewBot = (botsDir: string, name: string, code: string, token: string, more: Partial<ConstructorParameters<typeof PreviewBot>[0]> = {}) =>
  new PreviewBot({
    botsDir,
    name,
    code,
    env: { PATH: process.env.PATH ?? "", BOT_TOKEN: token },
    limits: { maxRssBytes: GB, maxCpuMs: 60_000 },
    onLine: () => {},
    onExit: () => {},
    ...more,
  });

test("a preview bot over its CPU time is ended with the reason; dispose removes its folder", async () => {
  const botsDir = mkdtempSync(join(tmpdir(), "botloom-preview-proc-"));
  try {
    let reason = "";
    const lines: string[] = [];
    const bot = previewBot(botsDir, "cpu", "let x = 0; for (;;) x++;\n", "1:secret-token", { limits: { maxRssBytes: GB, maxCpuMs: 300 }, onLine: (_level, line) => lines.push(line), onExit: (r) => (reason = r) });
    await bot.start();
    expect(existsSync(join(bot.dir, "bot.ts"))).toBe(true);
    await Promise.race([bot.ended, Bun.sleep(15_000)]);
    expect(reason).toContain("CPU time");
    expect(bot.pid).toBeNull();
    await bot.dispose();
    expect(existsSync(bot.dir)).toBe(false);
  } finally {
    rmSync(botsDir, { recursive: true, force: true });
  }
}, 30_000);

test("a bot's output never shows its token", async () => {
  const botsDir = mkdtempSync(join(tmpdir(), "botloom-preview-proc-"));
  try {
    const lines: string[] = [];
    const bot = previewBot(botsDir, "echo", 'console.log("token is " + process.env.BOT_TOKEN); console.error(process.env.BOT_TOKEN);\n', "8100:abcdefSECRET", { onLine: (_level, line) => lines.push(line) });
    await bot.start();
    await Promise.race([bot.ended, Bun.sleep(15_000)]);
    expect(lines).toContain("token is ***");
    expect(lines.join("\n")).not.toContain("abcdefSECRET");
    await bot.dispose();
  } finally {
    rmSync(botsDir, { recursive: true, force: true });
  }
}, 30_000);

test("a preview stopped while its program is being written never starts a process and leaves no folder", async () => {
  const botsDir = mkdtempSync(join(tmpdir(), "botloom-preview-proc-"));
  try {
    let exits = 0;
    const bot = previewBot(botsDir, "early", "let x = 0; for (;;) x++;\n" + "// padding\n".repeat(100_000), "1:early-token", { onExit: () => exits++ });
    const starting = bot.start();
    await bot.dispose();
    await starting;
    await bot.ended;
    expect(bot.pid).toBeNull();
    expect(existsSync(bot.dir)).toBe(false);
    expect(exits).toBe(0);
  } finally {
    rmSync(botsDir, { recursive: true, force: true });
  }
}, 30_000);

test("a preview bot starts beside the bots (when kept off the event loop's core) and settles 19 nicer, every thread of it", async () => {
  const botsDir = mkdtempSync(join(tmpdir(), "botloom-preview-proc-"));
  const below = (by: number) => Math.min(19, getPriority(0) + by);
  try {
    const bot = previewBot(botsDir, "nice", "setInterval(() => {}, 1000);\n", "1:nice-token");
    await bot.start();
    const pid = bot.pid!;
    // run already 9 or more nicer, this process leaves no room between the two and the start tells nothing
    if (below(BOT_NICE) === below(BACKGROUND_NICE)) console.warn(`preview bot niceness: this test runs at nice ${getPriority(0)}; the start's niceness cannot be told from the settled one`);
    expect(getPriority(pid)).toBe(below(backgroundCpus() ? BOT_NICE : BACKGROUND_NICE));
    const tasks = () => readdirSync(`/proc/${pid}/task`).map(Number);
    await until(() => tasks().length > 1, "the bot's own threads");
    bot.settle();
    expect(new Set(tasks().map((tid) => getPriority(tid)))).toEqual(new Set([below(BACKGROUND_NICE)]));
    await bot.dispose();
  } finally {
    rmSync(botsDir, { recursive: true, force: true });
  }
}, 30_000);
