// Where a bot's output lines go: its log, with every form of its secrets masked, and the last
// stderr lines that can say why it died (the launch history quotes them).
import { maskSecrets } from "../log";
import { secretMasker } from "../lib/shared-runtime";
import type { LineSink } from "./instance";
import type { LogWriter } from "./log-writer";
import type { SupervisedBot } from "./supervised";

/** stderr lines that never say why a bot died: indented (stack frames, fields), source excerpts, carets. */
const REASONLESS = /^(\s|\d+ \||\^)/;

export function outputOf(bot: SupervisedBot, logs: LogWriter): LineSink {
  const { projectId, tokenId, token, env } = bot.program;
  // The bot masks these itself; a line it printed some other way must not carry them either.
  const secretValues = (env.BOTLOOM_SECRET_KEYS ?? "").split(",").filter(Boolean).map((k) => env[k] ?? "");
  const hide = secretMasker([token, env.WEBHOOK_SECRET ?? "", ...secretValues]);
  return (level, line) => {
    if (!line.trim()) return;
    const safe = maskSecrets(hide(line));
    logs.push(projectId, tokenId, level, safe);
    // Error printouts end in stack frames, source excerpts and indented fields; the reason of a
    // crash is in the unindented lines ("GrammyError: Call to 'getMe' failed! (401: ...)").
    if (level === "stderr" && !REASONLESS.test(line)) {
      bot.stderrTail.push(safe);
      if (bot.stderrTail.length > 5) bot.stderrTail.shift();
    }
  };
}
