// POST /admin/api/bot-folders/cleanup (API.md admin rule 3).
import { Elysia } from "elysia";
import { eq } from "drizzle-orm";
import type { AppContext } from "../../context";
import { projects } from "../../db/schema";
import { cleanupBotFolders } from "../../bots/folders";
import { adminGuard } from "./admin-auth";

export const botFolderRoutes = (ctx: AppContext) =>
  new Elysia({ prefix: "/admin/api" }).use(adminGuard(ctx)).post(
    "/bot-folders/cleanup",
    () => {
      return cleanupBotFolders(
        ctx.config.botsDir,
        (id) => ctx.db.select({ id: projects.id }).from(projects).where(eq(projects.id, id)).get() !== undefined,
        (tokenId) => {
          const s = ctx.bots.state(tokenId).status;
          return s === "running" || s === "starting";
        },
      );
    },
    { admin: true },
  );
