// docs/api.md#project-rules rules 8 and 9 (launch history, logs) and docs/api.md#project-versions.
import { Elysia } from "elysia";
import type { AppContext } from "../../context";
import { authPlugin } from "../../http/auth";
import { parseIntQuery, parsePositiveId, parsePrefixedId } from "../../http/params";
import { LOGS_DEFAULT_LIMIT, LOGS_MAX_LIMIT, ProjectActivity } from "./activity";
import { memberProjectId } from "./member";

export const VERSIONS_DEFAULT_LIMIT = 50;
export const VERSIONS_MAX_LIMIT = 200;

export const projectHistoryRoutes = (ctx: AppContext) => {
  const projects = ctx.projects;
  const activity = new ProjectActivity(ctx);
  const member = (raw: string, userId: number) => memberProjectId(ctx, raw, userId);

  return (
    new Elysia({ prefix: "/api/projects" })
      .use(authPlugin(ctx))
      // `tokenId` may be sent but is not applied (docs/api.md).
      .get("/:id/launches/all", ({ actor, params }) => activity.launches(member(params.id, actor.userId)), { user: true })
      .get(
        "/:id/logs/all",
        ({ actor, params, query }) => {
          const projectId = member(params.id, actor.userId);
          const limit = parseIntQuery(query.limit, "limit", { default: LOGS_DEFAULT_LIMIT, min: 1, max: LOGS_MAX_LIMIT, clamp: true });
          const tokenId = query.tokenId === undefined || query.tokenId === "" ? undefined : parsePrefixedId(query.tokenId, "token", "tokenId");
          return activity.logs(projectId, limit, tokenId);
        },
        { user: true },
      )
      .get(
        "/:id/versions",
        ({ actor, params, query }) => {
          const projectId = member(params.id, actor.userId);
          const limit = parseIntQuery(query.limit, "limit", { default: VERSIONS_DEFAULT_LIMIT, min: 1, max: VERSIONS_MAX_LIMIT, clamp: true });
          return projects.versions.list(projectId, limit);
        },
        { user: true },
      )
      .get(
        "/:id/versions/:versionId",
        ({ actor, params }) => {
          const projectId = member(params.id, actor.userId);
          return projects.versions.get(projectId, parsePositiveId(params.versionId, "versionId"));
        },
        { user: true },
      )
      .post(
        "/:id/versions/:versionId/restore",
        ({ actor, params }) => projects.restoreVersion(parsePositiveId(params.id, "id"), parsePositiveId(params.versionId, "versionId"), actor.userId),
        { user: true },
      )
  );
};
