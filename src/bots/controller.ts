// What the rest of the platform may ask of the bot runtime. Modules depend on this interface, not
// on the process manager, so that projects/tokens code works (and is tested) with a fake.
import type { BotCommand } from "./runner/protocol";

export type BotStatus = "running" | "stopped" | "error" | "starting";

export interface BotInstanceState {
  status: BotStatus;
  startedAt: number | null;
  pid: number | null;
}

export interface BotController {
  /** Current runtime state of a token's bot. */
  state(tokenId: number): BotInstanceState;
  start(tokenId: number): Promise<BotInstanceState>;
  stop(tokenId: number): Promise<BotInstanceState>;
  restart(tokenId: number): Promise<BotInstanceState>;
  /**
   * Stops every bot of a project (project delete), then runs `whileStopped` (the delete itself)
   * before any of them may start again: a start arriving meanwhile waits, then finds no project.
   */
  stopProject(projectId: number, whileStopped?: () => Promise<void>): Promise<void>;
  /** Stops every running bot (server shutdown); they are started again on the next start. */
  shutdown(): Promise<void>;
  /** Starts again every bot that was running when the server last stopped. */
  resumeAll(): Promise<void>;
  /** Passes a command to the token's running bot; false when it does not run. */
  tell(tokenId: number, command: BotCommand): boolean;
}
