// A running bot as the manager sees it, whoever hosts it: its own process (BOT_ISOLATION=process,
// process-host.ts) or a shared runner (runner-pool.ts). The manager supervises both alike.
import type { BotCommand } from "./runner/protocol";
import type { BotProgram } from "./program";

export interface BotEnd {
  /** exit code; null when it was killed */
  code: number | null;
  /**
   * Set when the bot did nothing wrong: its runner was stopped because of another bot, or for a
   * reason outside every bot (it went silent and its watchdog named none). It is
   * started again at once and no crash is counted.
   */
  moved?: string;
  /** why it ended, when the host knows better than the exit code (the launch history keeps it) */
  reason?: string;
}

export interface BotInstance {
  /** the process the bot runs in (its runner's, when shared) */
  readonly pid: number;
  /** settles once the bot ended and its last output lines were delivered */
  readonly ended: Promise<BotEnd>;
  hasEnded(): boolean;
  /** passes a command of the platform to the running bot (its stdin, or its runner) */
  tell(command: BotCommand): void;
  /** asks the bot to stop (it finishes what it can) */
  stop(): void;
  /** ends it now */
  kill(): void;
}

/** One line of a bot's output. */
export type LineSink = (level: "stdout" | "stderr", line: string) => void;

export interface BotHost {
  launch(program: BotProgram, onLine: LineSink): BotInstance;
  /** ends whatever the host keeps besides its bots (runner processes); the bots are stopped before */
  close(): Promise<void>;
}
