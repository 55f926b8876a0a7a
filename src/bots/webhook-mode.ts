// Webhook mode around a bot process: wait until it listens before registering the webhook, and
// remove the webhook whenever the bot stops.
import { BotError, MessengerError } from "../errors";
import type { Logger } from "../log";
import type { MessengerClient } from "../messenger/client";
import type { BotInstance } from "./instance";
import type { BotProgram } from "./program";

/** Resolves once something accepts connections on 127.0.0.1:port; fails if the bot ends or time runs out. */
export async function waitForPort(bot: BotInstance, port: number, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (bot.hasEnded()) throw new BotError("FAILED", "The bot exited during start; see its logs");
    try {
      const socket = await Bun.connect({ hostname: "127.0.0.1", port, socket: { data() {}, error() {} } });
      socket.end();
      return;
    } catch {
      await Bun.sleep(50);
    }
  }
  throw new BotError("FAILED", `The bot did not listen on port ${port} in time`);
}

/**
 * A webhook left registered while its bot is down would have the intake answer 200 to updates
 * nobody handles (the forced 200 of docs/api.md#webhook-intake): they would be lost. Without a webhook the messenger
 * keeps them until the bot is back (polling, or the webhook registered again on start).
 * Bounded: a messenger that does not answer must not hold up a stop.
 */
export async function releaseWebhook(deps: { messenger: MessengerClient; log: Logger }, program: BotProgram) {
  if (program.launchMode !== "webhook") return;
  await Promise.race([
    deps.messenger.deleteWebhook(program.token).catch((e) => deps.log.warn(`deleteWebhook for token ${program.tokenId}: ${e.message}`)),
    Bun.sleep(3000),
  ]);
}

/**
 * Polling owns the token exclusively: a webhook left registered would make getUpdates fail with
 * 409. A revoked token is said up front (400) instead of a bot that crashes until it gives up;
 * an unreachable messenger only warns (the bot keeps trying on its own).
 */
export async function clearWebhookForPolling(deps: { messenger: MessengerClient; log: Logger }, program: BotProgram) {
  await deps.messenger.deleteWebhook(program.token).catch((e) => {
    if (e instanceof MessengerError && e.kind === "unauthorized") throw new BotError("INVALID", `The messenger rejected this bot token (revoked or wrong): ${e.message}`);
    deps.log.warn(`deleteWebhook for token ${program.tokenId}: ${e.message}`);
  });
}
