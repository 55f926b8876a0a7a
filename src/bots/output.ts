// Where a bot's output lines go: its log, with every form of its secrets masked, and the last
// stderr lines that can say why it died (the launch history quotes them).
import { maskSecrets } from "../log";
import { secretMasker } from "../lib/shared-runtime";
import type { LineSink } from "./instance";
import { CAMPAIGN_EVENT_MARK, CHAT_EVENT_MARK } from "./runner/protocol";
import type { LogWriter } from "./log-writer";
import type { EventBus } from "../events";
import type { SupervisedBot } from "./supervised";

/** stderr lines that never say why a bot died: indented (stack frames, fields), source excerpts, carets. */
const REASONLESS = /^(\s|\d+ \||\^)/;

/** A batch the bot recorded: each chat it touched with its newest message id (docs/dialogs.md). */
type ChatSink = (chats: [string, number][]) => void;

/** The chats of a CHAT_EVENT_MARK line; [] for anything malformed. */
export function chatEventOf(json: string): [string, number][] {
  try {
    const v = JSON.parse(json);
    if (!Array.isArray(v)) return [];
    return v.filter((p): p is [string, number] => Array.isArray(p) && typeof p[0] === "string" && /^-?\d{1,20}$/.test(p[0]) && Number.isSafeInteger(p[1])).slice(0, 100);
  } catch {
    return [];
  }
}

/** Scenario warnings written to a bot's log when it starts; the editor lists them all. */
const START_WARNINGS = 20;

/**
 * The sink of a bot's lines: its log, and the Studio's live events for the chats and campaigns
 * it reports. Before the bot's own lines, what the generator skips or works around, where the
 * owner reads why a node did nothing (docs/bots.md).
 */
export function outputOf(bot: SupervisedBot, logs: LogWriter, events?: EventBus): LineSink {
  const { projectId, tokenId, token, env, warnings } = bot.program;
  const onChats: ChatSink = (chats) => {
    for (const [chatId, messageId] of chats) events?.emit("chat-message", { projectId, tokenId, chatId, messageId });
  };
  const onCampaign = (campaignId: number) => events?.emit("campaign-created", { projectId, tokenId, campaignId });
  // The bot masks these itself; a line it printed some other way must not carry them either.
  const secretValues = (env.BOTLOOM_SECRET_KEYS ?? "").split(",").filter(Boolean).map((k) => env[k] ?? "");
  const hide = secretMasker([token, env.WEBHOOK_SECRET ?? "", ...secretValues]);
  const sink: LineSink = (level, line) => {
    if (!line.trim()) return;
    if (level === "stdout" && line.startsWith(CHAT_EVENT_MARK)) {
      const chats = chatEventOf(line.slice(CHAT_EVENT_MARK.length));
      if (chats.length > 0) onChats(chats);
      return;
    }
    if (level === "stdout" && line.startsWith(CAMPAIGN_EVENT_MARK)) {
      const id = Number(line.slice(CAMPAIGN_EVENT_MARK.length));
      if (Number.isSafeInteger(id) && id > 0) onCampaign(id);
      return;
    }
    const safe = maskSecrets(hide(line));
    logs.push(projectId, tokenId, level, safe);
    // Error printouts end in stack frames, source excerpts and indented fields; the reason of a
    // crash is in the unindented lines ("GrammyError: Call to 'getMe' failed! (401: ...)").
    if (level === "stderr" && !REASONLESS.test(line)) {
      bot.stderrTail.push(safe);
      if (bot.stderrTail.length > 5) bot.stderrTail.shift();
    }
  };
  for (const w of warnings.slice(0, START_WARNINGS)) sink("stdout", "scenario warning: " + w);
  if (warnings.length > START_WARNINGS) sink("stdout", `scenario warning: and ${warnings.length - START_WARNINGS} more (the editor lists them all)`);
  return sink;
}
