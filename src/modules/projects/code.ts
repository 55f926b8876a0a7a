// Program code of a project's bot (docs/api.md#project-rules rule 6). "generate" is what a start would run:
// the first token's flags and the cached messenger file ids of uploaded media. "export" is the
// plain program: neither, and the user database exactly when the project has it enabled.
import { mediaCacheOf } from "../../bots/program";
import type { AppContext } from "../../context";
import { badRequest, notFound, ScenarioError } from "../../errors";
import { generateBot, type GeneratedBot, type GenerateOptions as BotOptions } from "../../scenario";
import { generateStoredBot } from "../../scenario/codegen/off-thread";
import { readStoredScenario, STORED_SCENARIO, storedOverLimit } from "./document";
import { toFlag, type Flag } from "./model";
import { projectStatements } from "./queries";

/** What generate reports besides the code: one entry per problem the bot works around. */
export interface GenerateWarning {
  nodeId: string | null;
  sheetId: string | null;
  code: string;
  message: string;
}

export interface GenerateOptions {
  userDatabaseEnabled?: Flag;
  enableLogging?: Flag;
}

export class ProjectCode {
  private readonly q;

  constructor(private readonly ctx: AppContext) {
    this.q = projectStatements(ctx.db);
  }

  private project(projectId: number) {
    const p = this.q.forCode.get({ projectId });
    if (!p) throw notFound("Project not found");
    return p;
  }

  /** Access is checked by the caller. */
  async export(projectId: number): Promise<{ code: string }> {
    const p = this.project(projectId);
    const { code } = await generate(p.data, { projectName: p.name, userDatabaseEnabled: p.userDatabaseEnabled === 1 });
    return { code };
  }

  async generate(projectId: number, opts: GenerateOptions = {}): Promise<{ code: string; lines: number; generatedAt: number; warnings: GenerateWarning[] }> {
    const p = this.project(projectId);
    const token = this.ctx.tokens.first(projectId);
    // The same cache a start bakes into the bot, so "generate" shows what would run.
    const mediaCache = mediaCacheOf(this.ctx.db, this.ctx.projectFiles, projectId, token?.id);
    const result = await generate(p.data, {
      projectName: p.name,
      userDatabaseEnabled: (opts.userDatabaseEnabled === undefined ? p.userDatabaseEnabled : toFlag(opts.userDatabaseEnabled)) === 1,
      enableLogging: opts.enableLogging === undefined ? undefined : toFlag(opts.enableLogging) === 1,
      flags: token
        ? { catchAllHandlers: token.catchAllHandlers === 1, protectContent: token.protectContent === 1, contentCache: token.contentCache === 1 }
        : undefined,
      mediaCache,
    });
    const warnings = result.warnings.map((w) => ({
      nodeId: w.nodeId ?? null,
      sheetId: w.sheetId ?? null,
      code: w.code ?? "INVALID_DATA",
      message: w.message,
    }));
    return { code: result.code, lines: result.lines, generatedAt: Date.now(), warnings };
  }
}

/**
 * The program of a stored scenario, generated off the event loop (scenario/codegen/off-thread.ts).
 * An unusable scenario is the client's problem: 400 with the generator's messages.
 */
async function generate(json: string, opts: BotOptions): Promise<GeneratedBot> {
  try {
    const out = await generateStoredBot(json, opts, STORED_SCENARIO);
    if ("limit" in out) throw storedOverLimit(out.limit);
    // A corrupt row reads as the empty document (readStoredScenario): small, generated here.
    return "bot" in out ? out.bot : generateBot(readStoredScenario(json), opts);
  } catch (err) {
    if (err instanceof ScenarioError) throw badRequest(err.message, { issues: err.issues });
    throw err;
  }
}
