// Scenario → one runnable TypeScript program (grammY + bun:sqlite). See SCENARIO.md for what the
// bot does and DESIGN.md §6 for how the platform runs it.
import { documentSchema, normalizeDocument } from "../model";
import { ScenarioError, validateScenario, type Issue } from "../validate";
import { compileScenario } from "./compile";
import { renderProgram } from "./program";

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
}

/**
 * Generates the bot program. Accepts every input form normalizeDocument accepts; throws
 * ScenarioError when the document is unusable. Deterministic: same input, same bytes.
 */
export function generateBot(doc: unknown, opts: GenerateOptions): GeneratedBot {
  const normalized = normalizeDocument(doc);
  const { errors, warnings } = validateScenario(normalized);
  if (errors.length > 0) throw new ScenarioError(errors);
  const { compiled, warnings: compileWarnings } = compileScenario(documentSchema.parse(normalized));
  const code = renderProgram(
    {
      projectName: opts.projectName,
      userDatabase: opts.userDatabaseEnabled,
      logging: opts.enableLogging ?? false,
      catchAll: opts.flags?.catchAllHandlers ?? false,
      protectContent: opts.flags?.protectContent ?? false,
      contentCache: opts.flags?.contentCache ?? false,
      mediaCache: opts.mediaCache ?? {},
      preview: opts.preview ?? false,
    },
    compiled,
  );
  const seen = new Set(warnings.map((w) => w.message));
  const extra = compileWarnings.filter((w) => !seen.has(w.message));
  return { code, lines: code.split("\n").length - 1, warnings: [...warnings, ...extra] };
}
