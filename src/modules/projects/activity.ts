// Launch history and logs of a project (docs/api.md#project-rules rules 8 and 9). Both answer an empty list
// instead of failing when the database cannot be read: the editor's activity panels must not
// break a page over history. Texts are cut in SQL so long messages never leave the database.
import { and, desc, eq, sql } from "drizzle-orm";
import type { AppContext } from "../../context";
import { botLaunches, botLogs } from "../../db/schema";
import type { LaunchEntry, LogEntry } from "./model";

export const LAUNCHES_MAX = 100;
export const ERROR_MESSAGE_MAX = 100;
export const LOG_MESSAGE_MAX = 150;
export const LOGS_DEFAULT_LIMIT = 200;
/** Larger values are clamped to this (docs/api.md#project-rules rule 9). */
export const LOGS_MAX_LIMIT = 1000;

function prepare(ctx: AppContext) {
  const pid = sql.placeholder("projectId");
  const logColumns = {
    level: botLogs.level,
    message: sql<string>`substr(${botLogs.message}, 1, ${LOG_MESSAGE_MAX})`,
    createdAt: botLogs.createdAt,
  };
  return {
    launches: ctx.db
      .select({
        status: botLaunches.status,
        startedAt: botLaunches.startedAt,
        stoppedAt: botLaunches.stoppedAt,
        errorMessage: sql<string | null>`substr(${botLaunches.errorMessage}, 1, ${ERROR_MESSAGE_MAX})`,
      })
      .from(botLaunches)
      .where(eq(botLaunches.projectId, pid))
      .orderBy(desc(botLaunches.startedAt), desc(botLaunches.id))
      .limit(LAUNCHES_MAX)
      .prepare(),
    logs: ctx.db
      .select(logColumns)
      .from(botLogs)
      .where(eq(botLogs.projectId, pid))
      .orderBy(desc(botLogs.id))
      .limit(sql.placeholder("limit"))
      .prepare(),
    tokenLogs: ctx.db
      .select(logColumns)
      .from(botLogs)
      .where(and(eq(botLogs.projectId, pid), eq(botLogs.tokenId, sql.placeholder("tokenId"))))
      .orderBy(desc(botLogs.id))
      .limit(sql.placeholder("limit"))
      .prepare(),
  };
}

export class ProjectActivity {
  private q: ReturnType<typeof prepare> | null = null;

  constructor(private readonly ctx: AppContext) {}

  /** Prepared lazily and dropped after a failure, so a repaired table is picked up again. */
  private run<T>(what: string, projectId: number, fn: (q: ReturnType<typeof prepare>) => T[]): T[] {
    try {
      this.q ??= prepare(this.ctx);
      return fn(this.q);
    } catch (err) {
      this.q = null;
      this.ctx.log.error(`project ${projectId}: reading ${what} failed:`, err);
      return [];
    }
  }

  launches(projectId: number): LaunchEntry[] {
    return this.run("launch history", projectId, (q) => q.launches.all({ projectId }));
  }

  /** Newest first; `tokenId` narrows to one token. Access is checked by the caller. */
  logs(projectId: number, limit: number, tokenId?: number): LogEntry[] {
    return this.run("logs", projectId, (q) => (tokenId === undefined ? q.logs.all({ projectId, limit }) : q.tokenLogs.all({ projectId, tokenId, limit })));
  }
}
