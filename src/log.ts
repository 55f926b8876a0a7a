// One logger for the server. Every line passes through `maskSecrets`, so a bot token or PAT that
// slips into a message is never written out (tests scan the log output for secrets).
import { createConsola, type ConsolaReporter } from "consola/core";
import type { LogLevel } from "./config";
import { secretIndex } from "./lib/shared-runtime";

const LEVELS: Record<LogLevel, number> = { silent: -999, error: 0, warn: 1, info: 3, debug: 4, trace: 5 };

/** Bot API tokens (`123456:ABC…`), PATs (`mcp_…`) and `bot<token>` URL segments. */
// No `\b` before the bot id: in `bot<token>` URL segments the id follows a letter.
// The ":" may be percent-encoded (a token in a URL's query).
const SECRET_PATTERNS: RegExp[] = [/(?<![0-9])\d{5,}(?::|%3[Aa])[A-Za-z0-9_-]{20,}/g, /\bmcp_[A-Za-z0-9]{16,}\b/g];
/** Secrets registered at run time: the admin key, storage keys, the token of every bot started. */
const extraSecrets = secretIndex(6);

/** Registers a literal secret (admin key, storage keys, a bot's token) to be masked wherever it shows up, in any of its forms. */
export function registerSecret(secret: string | null | undefined) {
  if (secret) extraSecrets.add(secret);
}

export function maskSecrets(text: string): string {
  let out = text;
  for (const re of SECRET_PATTERNS) out = out.replace(re, (m) => (m.startsWith("mcp_") ? "mcp_***" : /^\d+/.exec(m)![0] + ":***"));
  return extraSecrets.mask(out);
}

function maskArg(a: unknown): unknown {
  if (typeof a === "string") return maskSecrets(a);
  if (a instanceof Error) return maskSecrets(a.stack ?? a.message);
  if (a && typeof a === "object") {
    try {
      return maskSecrets(JSON.stringify(a));
    } catch {
      return "[object]";
    }
  }
  return a;
}

type LogFn = (...args: unknown[]) => void;
export interface Logger {
  error: LogFn;
  warn: LogFn;
  info: LogFn;
  debug: LogFn;
  trace: LogFn;
  success: LogFn;
  start: LogFn;
  log: LogFn;
}

/**
 * consola's basic line ("[warn] [botloom] message", errors and warnings to stderr), written through
 * `console`. consola/basic writes to process.stdout and process.stderr, and merely creating those
 * streams cost ~10 ms of every start (bench/cold-start.ts). Arguments arrive as masked strings.
 */
const lineReporter: ConsolaReporter = {
  log(entry) {
    const line = [entry.type && `[${entry.type}]`, entry.tag && `[${entry.tag}]`, entry.args.map(String).join(" ")].filter(Boolean).join(" ");
    if (entry.level < 2) console.error(line);
    else console.log(line);
  },
};

export function createLogger(level: LogLevel, tag = "botloom"): Logger {
  const c = createConsola({ level: LEVELS[level], defaults: { tag }, reporters: [lineReporter] });
  const wrap =
    (fn: (...a: unknown[]) => void) =>
    (...args: unknown[]) =>
      fn(...args.map(maskArg));
  return {
    error: wrap(c.error.bind(c)),
    warn: wrap(c.warn.bind(c)),
    info: wrap(c.info.bind(c)),
    debug: wrap(c.debug.bind(c)),
    trace: wrap(c.trace.bind(c)),
    success: wrap(c.success.bind(c)),
    start: wrap(c.start.bind(c)),
    log: wrap(c.log.bind(c)),
  };
}
