// Program code of a project's bot (docs/api.md#project-rules rule 6). "generate" is what a start would run:
// the first token's flags and the cached messenger file ids of uploaded media. "export" is the
// plain program: neither, and the user database exactly when the project has it enabled.
import type { z } from "zod";
import { mediaCacheOf } from "../../bots/program";
import type { AppContext } from "../../context";
import { badRequest, ScenarioError } from "../../errors";
import { generateBot, type GeneratedBot, type GenerateOptions as BotOptions } from "../../scenario";
import { answerOf, answerWarnings } from "../../scenario/codegen/answer";
import { answerBodies, generateStoredBot, projectCache, type CodeForm, type Generated } from "../../scenario/codegen/off-thread";
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
   * generate's answer, made with the program in the generator's worker (scenario/codegen/answer.ts):
   * the event loop neither parses the stored scenario nor serialises or compresses the program. A
   * program the cache answers again (scenario/codegen/program-cache.ts) answers the bodies made for
   * it then, with the time it was generated: no copy of the program per call. `gzip`: the client
   * accepts it (the Studio does; a 2,000-node program's answer is a sixth of the size).
   */
  async generateAnswer(projectId: number, opts: GenerateOptions = {}, gzip = false): Promise<Response> {
    const out = await this.generateStored(projectId, opts, "answer");
    // a document that is not JSON reads as the empty one, generated here and answered once
    const bodies = out.answer ?? answerBodies(answerOf(out.bot, Date.now()));
    // Vary: a cache between the server and a client must not hand the compressed form to one that did not ask for it
    const headers: Record<string, string> = { vary: "accept-encoding" };
    if (gzip) headers["content-encoding"] = "gzip";
    return new Response(gzip ? bodies.gzip : bodies.json, { headers });
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

/** The worker's form of a warning is the schema's (the check fails here if they part). */
const warningsOf: (bot: GeneratedBot) => GenerateWarning[] = answerWarnings;

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
