// The runner protocol: JSON lines between the platform (bots/runner-pool.ts) and a shared runner
// (runner/main.ts, runner/watchdog.ts), declared once for both sides. Types only: the runner's files
// are written beside its interpreter and run there, so they import this file with `import type`,
// which Bun erases.
import type { BotCommand, BotHost, BotTables, HostedBot } from "../../scenario/codegen/runtime/hosted-types";

export type { BotCommand, BotHost, BotTables, HostedBot };

/** The platform → a runner, one per line on its stdin; stdin closing means every bot stops. */
export type RunnerCommand =
  | { op: "start"; id: number; tables: BotTables; env: Record<string, string> }
  | { op: "stop"; id: number }
  | { op: "ping"; n: number }
  /** passed on to bot `id` (resume a chat after a takeover) */
  | { op: "tell"; id: number; command: BotCommand };

/** A runner → the platform, one per line on its stdout; `id` is the bot's token id. */
export type RunnerEvent =
  /** a line a bot printed (err: 1 when to stderr) */
  | { ev: "line"; id: number; err: 0 | 1; text: string }
  | { ev: "exit"; id: number; code: number }
  | { ev: "pong"; n: number }
  /** an error no bot handler caught, raised while bot `id`'s code ran last */
  | { ev: "error"; id: number; text: string }
  /** from the watchdog thread: the runner's event loop has been blocked for `ms` */
  | { ev: "blocked"; id: number; ms: number }
  /** from the watchdog thread: the runner's memory is over its limit */
  | { ev: "memory"; id: number; rss: number };

/**
 * The start of the output line a bot prints after each batch of its message store, followed by
 * JSON `[[chatId, lastMessageId], ...]` (runtime/record.ts EVENT_MARK holds the same text: a bot
 * program cannot import the platform). Such lines become live events and never reach the log.
 */
export const CHAT_EVENT_MARK = "\u001fbotloom:chat-message ";

/**
 * The start of the line a bot prints when its broadcast node wrote a campaign for the platform to
 * send, followed by the campaign's id (runtime/broadcast.ts CAMPAIGN_MARK; docs/campaigns.md).
 */
export const CAMPAIGN_EVENT_MARK = "\u001fbotloom:campaign ";

type KeyOf<T> = T extends unknown ? keyof T : never;
type FieldOf<T, K extends PropertyKey> = T extends unknown ? (K extends keyof T ? T[K] : never) : never;

/** A runner's line as the platform reads it: every field may be missing, and is checked before use. */
export type RunnerEventRead = { [K in KeyOf<RunnerEvent>]?: FieldOf<RunnerEvent, K> };

/** The interpreter module a runner loads (codegen renderInterpreter). */
export interface Interpreter {
  createBot(tables: BotTables, host: BotHost): HostedBot;
}
