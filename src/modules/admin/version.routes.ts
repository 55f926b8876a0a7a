// Admin: installed version and update check (docs/api.md#admin-area, admin rule 5).
import { Elysia } from "elysia";
import type { AppContext } from "../../context";
import { parseBoolQuery } from "../../http/params";
import { VERSION } from "../../version";
import { adminGuard } from "./admin-auth";
import { UpdateChecker } from "./update-check";

export const adminVersionRoutes = (ctx: AppContext) => {
  // One checker per app: its cache lives as long as the server process.
  const checker = new UpdateChecker({ url: ctx.config.updateCheckUrl, current: VERSION, log: ctx.log });
  return new Elysia()
    .use(adminGuard(ctx))
    .get("/api/version", () => ({ version: VERSION.version, releasedAt: VERSION.releasedAt, notesUrl: VERSION.notesUrl ?? null }), { admin: true })
    .get("/api/update-check", ({ query }) => checker.check(parseBoolQuery(query.refresh, "refresh")), { admin: true });
};
