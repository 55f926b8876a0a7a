// Launch history and logs of a project (docs/api.md#project-rules rules 8 and 9). Both answer an empty list
// instead of failing when the database cannot be read: the editor's activity panels must not
// break a page over history. Texts are cut in SQL so long messages never leave the database.
import type { AppContext } from "../../context";
import type { LaunchEntry, LogEntry } from "./model";
import { activityStatements } from "./queries";

export const LAUNCHES_MAX = 100;
export const ERROR_MESSAGE_MAX = 100;
export const LOG_MESSAGE_MAX = 150;
export const LOGS_DEFAULT_LIMIT = 200;
/** Larger values are clamped to this (docs/api.md#project-rules rule 9). */
export const LOGS_MAX_LIMIT = 1000;

const statementsOf = activityStatements({ launches: LAUNCHES_MAX, errorMessage: ERROR_MESSAGE_MAX, logMessage: LOG_MESSAGE_MAX });
type Statements = ReturnType<typeof statementsOf>;

export class ProjectActivity {
  constructor(private readonly ctx: AppContext) {}

  /** A statement whose preparation failed is prepared again on the next call, so a repaired table is picked up. */
  private run<T>(what: string, projectId: number, fn: (q: Statements) => T[]): T[] {
    try {
      return fn(statementsOf(this.ctx.db));
    } catch (err) {
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
