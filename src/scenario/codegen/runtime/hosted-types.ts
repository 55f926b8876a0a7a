// The types of a bot hosted by a shared runner (src/bots/runner/): what createBot(tables, host)
// takes and returns. The runner's interpreter carries this text with its exports; the platform
// (codegen/program.ts tablesOf, bots/runner/protocol.ts) imports the same declarations.
import type { AsyncLocalStorage } from "node:async_hooks";
import type { CallbackTriggerDef, CommandDef, ScenarioNode, TextTriggerDef } from "./tables";
import type { MessageTriggerDef, ScheduleDef } from "./action-tables";

// ─── What a runner gives each bot it hosts ─────────────────────────────────────

/** The tables of one bot (the platform's codegen/program.ts tablesOf builds them). */
export interface BotTables {
  options: { projectName: string; userDatabase: boolean; logging: boolean; catchAll: boolean; protectContent: boolean; contentCache: boolean };
  mediaCache: Record<string, string>;
  nodes: ScenarioNode[];
  commands: CommandDef[];
  textTriggers: TextTriggerDef[];
  callbackTriggers: CallbackTriggerDef[];
  messageTriggers: MessageTriggerDef[];
  schedules: ScheduleDef[];
}

type Print = (...args: unknown[]) => void;

/**
 * The process as one hosted bot sees it: its own environment (the token, its env variables, its
 * project's database path), its own console (lines go to its log) and an exit that ends only this
 * bot (it throws, so nothing after it runs). AsyncLocalStorage tells the runner which bot runs.
 */
export interface BotHost {
  process: { env: Record<string, string | undefined>; exit(code?: number): never };
  console: { log: Print; info: Print; warn: Print; error: Print };
  AsyncLocalStorage: typeof AsyncLocalStorage;
}

/** What the platform may tell a running bot (the runner passes it on; an own process reads it on stdin). */
export type BotCommand =
  | { op: "resume"; chatId: string; nodeId: string }
  /** an inbound webhook (docs/hooks.md): run webhook_trigger `nodeId`'s flow in the chat with these variables */
  | { op: "hook"; chatId: string; nodeId: string; vars: Record<string, string | number | boolean> }
  /** the chat's user was deleted (DELETE …/users/{id}): the chat's state kept in memory goes too */
  | { op: "forget"; chatId: string };

export interface HostedBot {
  start(): Promise<void>;
  stop(reason: string): Promise<void>;
  tell(command: BotCommand): void;
}
