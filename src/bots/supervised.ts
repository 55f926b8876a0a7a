// What the bot manager keeps about each token's bot while it supervises it.
import type { BotInstanceState } from "./controller";
import type { BotInstance } from "./instance";
import type { BotProgram } from "./program";

export interface SupervisedBot {
  program: BotProgram;
  instance: BotInstance | null;
  launchId: number | null;
  status: BotInstanceState["status"];
  startedAt: number | null;
  stopping: boolean;
  /** How the launch of a process we are stopping is closed (onExit writes it). */
  stopAs: { status: "stopped" | "error"; reason: string | null };
  crashes: number[];
  restartTimer: ReturnType<typeof setTimeout> | null;
  /** The last stderr lines that can say why the bot died. */
  stderrTail: string[];
  /** The webhook removal after a crash (awaited before the restart registers it again). */
  webhookReleased?: Promise<void>;
  /** Settles once the current process exited, its output was read and onExit ran. */
  exited: Promise<void> | null;
}
