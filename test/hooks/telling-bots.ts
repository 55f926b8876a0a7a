// A bot controller for the hook tests over HTTP: it records what the platform tells each running bot.
import type { BotCommand } from "../../src/bots/runner/protocol";
import type { BotController, BotInstanceState } from "../../src/bots/controller";

export class TellingBots implements BotController {
  running = new Set<number>();
  told: { tokenId: number; command: BotCommand }[] = [];
  state(tokenId: number): BotInstanceState {
    return { status: this.running.has(tokenId) ? "running" : "stopped", startedAt: null, pid: null };
  }
  async start(tokenId: number) {
    this.running.add(tokenId);
    return this.state(tokenId);
  }
  async stop(tokenId: number) {
    this.running.delete(tokenId);
    return this.state(tokenId);
  }
  async restart(tokenId: number) {
    return this.state(tokenId);
  }
  async stopProject() {}
  async shutdown() {}
  async resumeAll() {}
  tell(tokenId: number, command: BotCommand) {
    if (!this.running.has(tokenId)) return false;
    this.told.push({ tokenId, command });
    return true;
  }
}
