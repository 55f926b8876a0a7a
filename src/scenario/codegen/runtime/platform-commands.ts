// Runtime source: the platform's commands to a running bot — resume a chat after an operator's
// takeover (docs/dialogs.md), run an inbound webhook's flow (docs/hooks.md), forget a deleted user's chat. A JSON line on stdin
// for a program of its own, HostedBot.tell in a runner. (Part of every generated bot; see types.ts.)
import { forgetUser } from "./analytics";
import { inChat, log } from "./flow";
import { MESSAGE_TRIGGERS } from "./program-data";
import { bot } from "./router";
import { recordedSender } from "./senders";
import { dropState } from "./storage";
import { runIn } from "./triggers";
import type { Turn } from "./types";
import { dropWaitsOf } from "./waits";

// ─── Commands of the platform (resume after a takeover, an inbound webhook) ─────

/** A command of the platform (hosted-types.ts BotCommand, which programs on their own lack): a JSON line on stdin (own process) or HostedBot.tell (runner). */
export type PlatformCommand = { op: string; chatId: string; nodeId?: string; vars?: Record<string, unknown> };

/** Runs a flow in a chat the platform names; in a private chat the user is the chat, as the store records them. */
function runForPlatform(chatId: string, target: string, prepare: (turn: Turn) => void, via?: string) {
  const id = Number(chatId);
  void runIn(id, target, prepare, via, recordedSender(id));
}

/**
 * Commands that arrive while the token is still being checked: the platform counts a polling bot
 * running once it is launched, and a flow cannot run before the bot knows itself (bot.init).
 * launch.ts runs them once it does.
 */
const earlyCommands: PlatformCommand[] = [];

export function commandsReady() {
  for (const c of earlyCommands.splice(0)) tellBot(c);
}

export function tellBot(command: PlatformCommand) {
  if (!/^-?\d{1,20}$/.test(command.chatId)) return;
  // the store has already lost the user: what this process holds of the chat must not write it back
  if (command.op === "forget") {
    // in the chat's queue: a turn of it still running saves its state first, and this removes it after
    const chatId = command.chatId;
    void inChat(Number(chatId), async () => {
      dropState(Number(chatId));
      dropWaitsOf(chatId);
      forgetUser(chatId);
      console.log("chat " + chatId + ": its user was deleted on the platform; forgotten");
    });
    return;
  }
  if (typeof command.nodeId !== "string") return;
  if (!bot.isInited()) {
    if (earlyCommands.length < 1000) earlyCommands.push(command);
    return;
  }
  if (command.op === "resume") {
    console.log("chat " + command.chatId + ": the operator let go; resuming at " + command.nodeId);
    runForPlatform(command.chatId, command.nodeId, () => undefined);
  } else if (command.op === "hook") {
    // docs/hooks.md: the platform read the request; the bot runs the node's flow with its variables.
    const t = MESSAGE_TRIGGERS.find((x) => x.on === "hook" && x.node === command.nodeId);
    if (!t) return console.log("webhook " + command.nodeId + ": this program has no such webhook trigger (restart the bot after editing); ignored");
    const vars = command.vars && typeof command.vars === "object" ? command.vars : {};
    runForPlatform(command.chatId, t.target, (turn) => {
      for (const [k, v] of Object.entries(vars)) turn.state.vars[k] = v;
      log(turn, "webhook " + command.nodeId);
    }, t.node);
  }
}

/** One stdin line of a supervised program; anything that is no command is ignored. */
export function tellBotLine(line: string) {
  if (!line.trim()) return;
  try {
    const c = JSON.parse(line) as PlatformCommand;
    if (c && typeof c === "object") tellBot(c);
  } catch {
    // not a command
  }
}
