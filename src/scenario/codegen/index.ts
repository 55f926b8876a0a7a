// Scenario → one runnable TypeScript program (grammY + bun:sqlite). See docs/scenario.md for what the
// bot does and docs/bots.md#running-bots for how the platform runs it.
import { documentNodesSchema, normalizeDocument } from "../model";
import { ScenarioError } from "../../errors";
import { validateScenario, type Issue } from "../validate";
import { updatesAskedFor } from "../../lib/shared-runtime";
import { compileScenario } from "./compile";
import { renderProgram, tablesOf, type BotTables, type ProgramSettings } from "./program";
export { renderInterpreter, type BotTables } from "./program";
export { RUNNER_OUTBOX_MODULE } from "./runtime-text";

export interface GenerateOptions {
  projectName: string;
  /** record bot users (bot_users table) */
  userDatabaseEnabled: boolean;
  /** log each update / handled node to stdout */
  enableLogging?: boolean;
  /** "generate" passes the first token's flags; "export" passes none */
  flags?: { catchAllHandlers?: boolean; protectContent?: boolean; contentCache?: boolean };
  /** media URL/path → cached messenger file_id ("generate" only) */
  mediaCache?: Record<string, string>;
  /** the Studio's preview build (see runtime/preview.ts) */
  preview?: boolean;
}

export interface GeneratedBot {
  code: string;
  lines: number;
  /** validation warnings, then what the generator left out or could not use */
  warnings: Issue[];
  /** the update kinds the bot asks for (undefined: Telegram's default); webhook mode registers them */
  allowedUpdates: string[] | undefined;
}

function compileFor(doc: unknown, opts: GenerateOptions) {
  const normalized = normalizeDocument(doc);
  const { errors, warnings } = validateScenario(normalized);
  if (errors.length > 0) throw new ScenarioError(errors);
  const { compiled, warnings: compileWarnings } = compileScenario(documentNodesSchema.parse(normalized));
  const settings: ProgramSettings = {
    projectName: opts.projectName,
    userDatabase: opts.userDatabaseEnabled,
    logging: opts.enableLogging ?? false,
    catchAll: opts.flags?.catchAllHandlers ?? false,
    protectContent: opts.flags?.protectContent ?? false,
    contentCache: opts.flags?.contentCache ?? false,
    mediaCache: opts.mediaCache ?? {},
    preview: opts.preview ?? false,
  };
  const seen = new Set(warnings.map((w) => w.message));
  const extra = compileWarnings.filter((w) => !seen.has(w.message));
  return { compiled, settings, warnings: [...warnings, ...extra] };
}

/**
 * Generates the bot program. Accepts every input form normalizeDocument accepts; throws
 * ScenarioError when the document is unusable. Deterministic: same input, same bytes.
 */
export function generateBot(doc: unknown, opts: GenerateOptions): GeneratedBot {
  const { compiled, settings, warnings } = compileFor(doc, opts);
  const code = renderProgram(settings, compiled);
  let lines = 0; // counted in place: splitting a 1 MB program only to count it cost a copy of it
  for (let i = code.indexOf("\n"); i !== -1; i = code.indexOf("\n", i + 1)) lines++;
  return { code, lines, warnings, allowedUpdates: updatesAskedFor(compiled.messageTriggers) };
}

/** The same bot as data for a shared runner's interpreter (renderInterpreter); same checks, same warnings. */
export function compileBotTables(doc: unknown, opts: GenerateOptions): { tables: BotTables; warnings: Issue[]; allowedUpdates: string[] | undefined } {
  const { compiled, settings, warnings } = compileFor(doc, opts);
  return { tables: tablesOf(settings, compiled), warnings, allowedUpdates: updatesAskedFor(compiled.messageTriggers) };
}
