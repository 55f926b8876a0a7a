import { Elysia } from "elysia";
import type { AppContext } from "../../context";

/** Whether the database answers. Cheap enough for a health probe; never throws. */
function databaseUp(ctx: AppContext) {
  try {
    ctx.db.$client.query("SELECT 1").get();
    return true;
  } catch {
    return false;
  }
}

export const healthRoutes = (ctx: AppContext) =>
  new Elysia({ prefix: "/api/health" })
    .get("", () => {
      const database = databaseUp(ctx);
      return { database, templates: ctx.state.templatesLoaded, ready: database };
    })
    .head("", ({ set }) => {
      set.status = 204;
      return "";
    });
