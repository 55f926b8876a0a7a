import { Elysia } from "elysia";
import type { AppContext } from "../../context";
import { healthStatus } from "./status";

export const healthRoutes = (ctx: AppContext) =>
  new Elysia({ prefix: "/api/health" })
    .get("", () => healthStatus(ctx.db.$client, ctx.state.templatesLoaded))
    .head("", ({ set }) => {
      set.status = 204;
      return "";
    });
