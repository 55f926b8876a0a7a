// The project a route's path names, for a member of it: the one check every per-project route
// makes before calling its service.
import type { AppContext } from "../../context";
import { parsePositiveId } from "../../http/params";

/** The project id in `raw` when `userId` owns or collaborates on it; 400 bad id, 404 missing project, 403 stranger. */
export function memberProjectId(ctx: AppContext, raw: string, userId: number, name = "id"): number {
  const projectId = parsePositiveId(raw, name);
  ctx.access.require(projectId, userId);
  return projectId;
}
