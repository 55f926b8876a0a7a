// Program code of a project's bot (docs/api.md#project-rules rule 6). "generate" is what a start would run:
// the first token's flags and the cached messenger file ids of uploaded media. "export" is the
// plain program: neither, and the user database exactly when the project has it enabled.
import type { z } from "zod";
import { mediaCacheOf } from "../../bots/program";
import type { AppContext } from "../../context";
import { badRequest, ScenarioError } from "../../errors";
import { generateBot, type GeneratedBot, type GenerateOptions as BotOptions } from "../../scenario";
import { generateStoredBot, projectCache, type CodeForm, type Generated } from "../../scenario/codegen/off-thread";
import { readStoredScenario, STORED_SCENARIO, storedOverLimit } from "./document";
import { generateResponseSchema, toFlag, type Flag } from "./model";
import type { StoredScenario } from "./service";

/** What generate reports besides the code: one entry per problem the bot works around. */
export type GenerateWarning = z.output<typeof generateResponseSchema>["warnings"][number];

export interface GenerateOptions {
  userDatabaseEnabled?: Flag;
  enableLogging?: Flag;
}

export class ProjectCode {
  constructor(private readonly ctx: AppContext) {}

  /** Access is checked by the caller. */
  async export(projectId: number): Promise<{ code: string }> {
    const p = this.ctx.projects.storedScenario(projectId);
    const { bot } = await generate(projectId, p, { projectName: p.name, userDatabaseEnabled: p.userDatabaseEnabled === 1 });
    return { code: bot.code };
  }

  async generate(projectId: number, opts: GenerateOptions = {}): Promise<{ code: string; lines: number; generatedAt: number; warnings: GenerateWarning[] }> {
    const { bot } = await this.generateStored(projectId, opts, "text");
    return { code: bot.code, lines: bot.lines, generatedAt: Date.now(), warnings: warningsOf(bot) };
  }

  /**
   * generate's answer as a JSON body whose code the worker has already encoded: the event loop
   * neither parses the stored scenario nor serialises the program (docs/performance.md). A program
   * the cache answers again (scenario/codegen/program-cache.ts) answers the body made for it then,
   * with the time it was generated: no copy of the program per call.
   */
  async generateBody(projectId: number, opts: GenerateOptions = {}): Promise<Blob> {
    const out = await this.generateStored(projectId, opts, "json");
    let body = answers.get(out);
    if (!body) {
      const { bot, codeJson } = out;
      const rest = JSON.stringify({ lines: bot.lines, generatedAt: Date.now(), warnings: warningsOf(bot) });
      body = new Blob(['{"code":', codeJson ?? JSON.stringify(bot.code), ",", rest.slice(1)], { type: "application/json" });
      answers.set(out, body);
    }
    return body;
  }

  private async generateStored(projectId: number, opts: GenerateOptions, codeAs: CodeForm): Promise<Generated> {
    const p = this.ctx.projects.storedScenario(projectId);
    const token = this.ctx.tokens.first(projectId);
    // The same cache a start bakes into the bot, so "generate" shows what would run.
    const mediaCache = mediaCacheOf(this.ctx.db, this.ctx.projectFiles, projectId, token?.id);
    return generate(projectId, p, {
      projectName: p.name,
      userDatabaseEnabled: (opts.userDatabaseEnabled === undefined ? p.userDatabaseEnabled : toFlag(opts.userDatabaseEnabled)) === 1,
      enableLogging: opts.enableLogging === undefined ? undefined : toFlag(opts.enableLogging) === 1,
      flags: token
        ? { catchAllHandlers: token.catchAllHandlers === 1, protectContent: token.protectContent === 1, contentCache: token.contentCache === 1 }
        : undefined,
      mediaCache,
    }, codeAs);
  }
}

/** generate's answer body per program (kept while the program is: the cache holds the key). */
const answers = new WeakMap<Generated, Blob>();

/** Validation's own `detail` stays inside (the Studio validates live); the generator's key and slots go out. */
const warningsOf = (bot: GeneratedBot): GenerateWarning[] =>
  bot.warnings.map(({ nodeId, sheetId, code, message, detail }) => ({
    nodeId: nodeId ?? null,
    sheetId: sheetId ?? null,
    code: code ?? "INVALID_DATA",
    message,
    ...(detail?.key && detail.params && { detail: { key: detail.key, params: detail.params } }),
  }));

/**
 * The program of a stored scenario, generated off the event loop (scenario/codegen/off-thread.ts),
 * or the one generated before from the same scenario and options (a project is the cache's scope:
 * whoever may ask for its program may read each of its scenarios). An unusable scenario is the
 * client's problem: 400 with the generator's messages.
 */
async function generate(projectId: number, stored: StoredScenario, opts: BotOptions, codeAs: CodeForm = "text"): Promise<Generated> {
  const json = stored.data;
  try {
    const out = await generateStoredBot(json, opts, STORED_SCENARIO, codeAs, projectCache(projectId, stored.fingerprint));
    if ("limit" in out) throw storedOverLimit(out.limit);
    // Not JSON: a corrupt row reads as the empty document (readStored), small, generated here.
    return "bot" in out ? out : { bot: generateBot(readStoredScenario(json), opts) };
  } catch (err) {
    if (err instanceof ScenarioError) throw badRequest(err.message, { issues: err.issues });
    throw err;
  }
}
