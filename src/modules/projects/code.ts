// Program code of a project's bot (API.md projects rule 6). "generate" is what a start would run:
// the first token's flags and the cached messenger file ids of uploaded media. "export" is the
// plain program: neither, and the user database exactly when the project has it enabled.
import { eq, sql } from "drizzle-orm";
import { mediaCacheOf } from "../../bots/program";
import type { AppContext } from "../../context";
import { projects } from "../../db/schema";
import { badRequest, notFound, ScenarioError } from "../../errors";
import { generateBot } from "../../scenario";
import { readStoredScenario } from "./document";
import { toFlag, type Flag } from "./model";
import { preparedOnFirstUse } from "../../db/prepared";

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

function prepare(ctx: AppContext) {
  const pid = sql.placeholder("projectId");
  return preparedOnFirstUse({
    project: () => ctx.db
      .select({ name: projects.name, data: projects.data, userDatabaseEnabled: projects.userDatabaseEnabled })
      .from(projects)
      .where(eq(projects.id, pid))
      .prepare(),
  });
}

export class ProjectCode {
  private readonly q: ReturnType<typeof prepare>;

  constructor(private readonly ctx: AppContext) {
    this.q = prepare(ctx);
  }

  private project(projectId: number) {
    const p = this.q.project.get({ projectId });
    if (!p) throw notFound("Project not found");
    return p;
  }

  /** Access is checked by the caller. */
  export(projectId: number): { code: string } {
    const p = this.project(projectId);
    const { code } = run(() => generateBot(readStoredScenario(p.data), { projectName: p.name, userDatabaseEnabled: p.userDatabaseEnabled === 1 }));
    return { code };
  }

  generate(projectId: number, opts: GenerateOptions = {}): { code: string; lines: number; generatedAt: number; warnings: GenerateWarning[] } {
    const p = this.project(projectId);
    const token = this.ctx.tokens.first(projectId);
    // The same cache a start bakes into the bot, so "generate" shows what would run.
    const mediaCache = mediaCacheOf(this.ctx.db, this.ctx.projectFiles, projectId, token?.id);
    const result = run(() =>
      generateBot(readStoredScenario(p.data), {
        projectName: p.name,
        userDatabaseEnabled: (opts.userDatabaseEnabled === undefined ? p.userDatabaseEnabled : toFlag(opts.userDatabaseEnabled)) === 1,
        enableLogging: opts.enableLogging === undefined ? undefined : toFlag(opts.enableLogging) === 1,
        flags: token
          ? { catchAllHandlers: token.catchAllHandlers === 1, protectContent: token.protectContent === 1, contentCache: token.contentCache === 1 }
          : undefined,
        mediaCache,
      }),
    );
    const warnings = result.warnings.map((w) => ({
      nodeId: w.nodeId ?? null,
      sheetId: w.sheetId ?? null,
      code: w.code ?? "INVALID_DATA",
      message: w.message,
    }));
    return { code: result.code, lines: result.lines, generatedAt: Date.now(), warnings };
  }
}

/** An unusable scenario is the client's problem: 400 with the generator's messages. */
function run<T>(fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (err instanceof ScenarioError) throw badRequest(err.message, { issues: err.issues });
    throw err;
  }
}
