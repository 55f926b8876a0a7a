import { Elysia } from "elysia";
import type { AppContext } from "../../context";
import { appHealth } from "./status";

export const healthRoutes = (ctx: AppContext) =>
  new Elysia({ prefix: "/api/health" })
    .get("", () => appHealth(ctx))
    .head("", ({ set }) => {
      set.status = 204;
      return "";
    });
