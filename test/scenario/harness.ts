// Runs generated bots as real processes against the fake messenger, and plays their users.
// A bot is written to .tmp/ inside the repository, so `import "grammy"` resolves from the repo's
// node_modules exactly as a bot folder of the appliance resolves it from bots/node_modules.
import { Database } from "bun:sqlite";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ensureBotModules } from "../../src/bots/bot-modules";
import { generateBot, type GenerateOptions } from "../../src/scenario";
import type { FakeBot, FakeMessenger, FakeUser, RecordedCall } from "../support/fake-messenger";

export const ROOT = join(import.meta.dir, "..", "..");
/** Someone else's real scenario files; read in place, never copied into the repository. */
export const COMPAT_DIR = join(ROOT, "..", "shared", "compat");
export const HAS_COMPAT = existsSync(COMPAT_DIR);
if (!HAS_COMPAT) console.warn(`compat scenarios not found at ${COMPAT_DIR}: the tests that read them are skipped`);

export const COMPAT_FILES = ["bot-manager", "cleanup-chat", "kotik-simple-anketa", "vprogulke-admin-panel"].flatMap((name) =>
  ["current", "legacy"].map((form) => ({ form, name, path: join(COMPAT_DIR, form, `${name}.json`) })),
);

export const readCompat = (form: string, name: string) => JSON.parse(readFileSync(join(COMPAT_DIR, form, `${name}.json`), "utf8"));

/** A node as the editor writes it. */
export const node = (id: string, type: string, data: Record<string, unknown> = {}) => ({ id, type, position: { x: 0, y: 0 }, data });

/** A one-sheet document. */
export const doc = (...nodes: ReturnType<typeof node>[]) => ({ version: 2, sheets: [{ id: "s1", name: "Main", nodes, edges: [] }] });

export function tmpDir(prefix: string): string {
  const base = join(ROOT, ".tmp");
  mkdirSync(base, { recursive: true });
  // Bots here resolve "grammy" from .tmp/node_modules: the same embedded build the appliance
  // writes into BOTS_DIR (the web build), not the Node build in the repo's node_modules.
  ensureBotModules(base);
  return mkdtempSync(join(base, prefix));
}

export interface BotProcess {
  bot: FakeBot;
  fake: FakeMessenger;
  dir: string;
  proc: ReturnType<typeof Bun.spawn>;
  output(): string;
  /**
   * Resolves once the output matches `pattern` (a string: that text as it is). A bot's log lines
   * leave in batches (up to 20 ms) while its messages leave at once, so a line logged before a
   * reply can reach the test after the reply: tests wait for a line rather than look for it.
   */
  waitForOutput(pattern: RegExp | string, timeoutMs?: number): Promise<void>;
  /** SIGTERM, then SIGKILL after a bounded wait; resolves with the exit code */
  stop(): Promise<number>;
}

export interface StartOptions {
  generate?: Partial<GenerateOptions>;
  env?: Record<string, string>;
  /** reuse a folder (restart with the same files); default: a new one under .tmp/ */
  dir?: string;
  stdin?: "pipe" | "ignore";
  /** stdout line that means "ready" (default: the polling start line) */
  ready?: RegExp;
  bot?: FakeBot;
}

export async function startBot(fake: FakeMessenger, scenario: unknown, opts: StartOptions = {}): Promise<BotProcess> {
  const bot = opts.bot ?? fake.addBot({ username: `scenario_${Math.random().toString(36).slice(2, 8)}_bot` });
  const dir = opts.dir ?? tmpDir("scenario-bot-");
  const { code } = generateBot(scenario, { projectName: "Test bot", userDatabaseEnabled: false, ...opts.generate });
  writeFileSync(join(dir, "bot.ts"), code);
  const proc = Bun.spawn([process.execPath, "bot.ts"], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp", BOT_TOKEN: bot.token, MESSENGER_API_ROOT: fake.url, ...opts.env },
    stdout: "pipe",
    stderr: "pipe",
    stdin: opts.stdin ?? "ignore",
  });
  let out = "";
  const listeners = new Set<() => void>();
  const pump = async (s: ReadableStream<Uint8Array>) => {
    const d = new TextDecoder();
    for await (const chunk of s) {
      out += d.decode(chunk, { stream: true });
      for (const l of listeners) l();
    }
  };
  void pump(proc.stdout as ReadableStream<Uint8Array>);
  void pump(proc.stderr as ReadableStream<Uint8Array>);
  const waitForOutput = (pattern: RegExp | string, timeoutMs = 15_000) =>
    new Promise<void>((resolve, reject) => {
      const re = typeof pattern === "string" ? new RegExp(RegExp.escape(pattern)) : pattern;
      const check = () => {
        if (re.test(out)) done(resolve);
        else if (proc.exitCode !== null) done(() => reject(new Error(`bot exited (${proc.exitCode}) before ${re}:\n${out}`)));
      };
      const timer = setTimeout(() => done(() => reject(new Error(`no ${re} within ${timeoutMs} ms:\n${out}`))), timeoutMs);
      const done = (f: () => void) => {
        clearTimeout(timer);
        listeners.delete(check);
        f();
      };
      listeners.add(check);
      void proc.exited.then(check);
      check();
    });
  const handle: BotProcess = {
    bot,
    fake,
    dir,
    proc,
    output: () => out,
    waitForOutput,
    async stop() {
      if (proc.exitCode === null) {
        proc.kill("SIGTERM");
        const killer = setTimeout(() => proc.kill("SIGKILL"), 4000);
        await proc.exited;
        clearTimeout(killer);
      }
      return proc.exitCode ?? -1;
    },
  };
  try {
    await waitForOutput(opts.ready ?? /bot started @/);
  } catch (err) {
    await handle.stop();
    throw err;
  }
  return handle;
}

/** How many waits a bot's file holds (bot_waits), read beside the running bot. */
export function pendingWaits(dbPath: string): number {
  const d = new Database(dbPath, { readonly: true });
  try {
    return d.query<{ n: number }, []>("SELECT count(*) AS n FROM bot_waits").get()!.n;
  } finally {
    d.close();
  }
}

export function removeDir(dir: string) {
  rmSync(dir, { recursive: true, force: true });
}

let nextUserId = 5_000_001;

/** A user talking to a bot in their private chat. Every action returns what the bot sent back. */
export class Chat {
  readonly user: FakeUser;
  constructor(
    readonly b: BotProcess,
    user: Partial<FakeUser> = {},
  ) {
    this.user = { id: nextUserId++, first_name: "Ann", language_code: "en", ...user };
  }

  private get token() {
    return this.b.bot.token;
  }

  /** the next `count` messages (send/edit/delete calls) to this chat */
  replies(count = 1, timeoutMs = 4000): Promise<RecordedCall[]> {
    return this.b.fake.waitForSent(this.token, this.user.id, count, timeoutMs);
  }

  async say(text: string, count = 1) {
    this.b.fake.sendText(this.token, this.user, text);
    return count === 0 ? [] : this.replies(count);
  }

  async press(data: string, count = 1, messageId?: number) {
    this.b.fake.pressButton(this.token, this.user, data, messageId);
    return count === 0 ? [] : this.replies(count);
  }

  /** presses the inline button with this text on the latest message that has it */
  async tap(label: string, count = 1) {
    const calls = this.b.fake.sent(this.token, this.user.id);
    for (let i = calls.length - 1; i >= 0; i--) {
      const data = inlineData(calls[i], label);
      if (data) return this.press(data, count, calls[i].messageId);
    }
    throw new Error(`no inline button "${label}" in chat ${this.user.id}`);
  }

  async photo(count = 1, caption?: string) {
    this.b.fake.sendPhoto(this.token, this.user, { caption });
    return count === 0 ? [] : this.replies(count);
  }

  /** asserts silence: nothing more arrives within `ms` */
  async quiet(ms = 400) {
    const before = this.b.fake.sent(this.token, this.user.id).length;
    await Bun.sleep(ms);
    const after = this.b.fake.sent(this.token, this.user.id);
    if (after.length !== before) throw new Error(`unexpected: ${JSON.stringify(after.slice(before).map(brief))}`);
  }
}

/** callback_data of the inline button with this text in a recorded send */
export function inlineData(call: RecordedCall, label: string): string | undefined {
  for (const row of call.params.reply_markup?.inline_keyboard ?? []) {
    for (const b of row) if (b.text === label) return b.callback_data;
  }
  return undefined;
}

/** Texts of a reply keyboard, row by row. */
export const replyRows = (call: RecordedCall): string[][] =>
  (call.params.reply_markup?.keyboard ?? []).map((row: { text: string }[]) => row.map((b) => b.text));

/** Texts of an inline keyboard, row by row. */
export const inlineRows = (call: RecordedCall): string[][] =>
  (call.params.reply_markup?.inline_keyboard ?? []).map((row: { text: string }[]) => row.map((b) => b.text));

/** A compact view of a recorded send for assertions and error messages. */
export function brief(call: RecordedCall) {
  const p = call.params;
  return { method: call.method, text: p.text ?? p.caption, parse_mode: p.parse_mode };
}

/** Retries an assertion for a while: the bot writes its state just after it sends. */
export async function eventually<T>(check: () => T, timeoutMs = 2000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return check();
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await Bun.sleep(25);
    }
  }
}
