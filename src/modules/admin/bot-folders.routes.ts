// POST /admin/api/bot-folders/cleanup (docs/api.md#admin-rules rule 3).
import { Elysia } from "elysia";
import type { AppContext } from "../../context";
import { cleanupBotFolders } from "../../bots/folders";
import { adminGuard } from "./admin-auth";
import { AdminUsersService } from "./users-service";

export const botFolderRoutes = (ctx: AppContext) => {
  const accounts = new AdminUsersService(ctx);
  return new Elysia({ prefix: "/admin/api" }).use(adminGuard(ctx)).post(
    "/bot-folders/cleanup",
    () => {
      return cleanupBotFolders(
        ctx.config.botsDir,
        (id) => accounts.projectExists(id),
        (tokenId) => {
          const s = ctx.bots.state(tokenId).status;
          return s === "running" || s === "starting";
        },
      );
    },
    { admin: true },
  );
};
