// Builds the Elysia application from the feature modules. Used by main.ts and by every HTTP test
// (`app.handle(new Request(...))`), so nothing here may listen on a port or read the environment.
import { Elysia } from "elysia";
import { openapi } from "@elysiajs/openapi";
import { z } from "zod";
import type { AppContext } from "./context";
import { errorHandler } from "./http/errors";
import { bodyLimit, capUnsizedBody } from "./http/body-limit";
import { setupGuard } from "./http/setup-guard";
import { healthRoutes } from "./modules/health";
import { authRoutes } from "./modules/auth";
import { adminRoutes } from "./modules/admin";
import { storageRoutes } from "./modules/storage";
import { mediaRoutes } from "./modules/media";
import { botFolderRoutes } from "./modules/admin/bot-folders";
import { webhookRoutes } from "./modules/webhook";
import { botLifecycleRoutes } from "./modules/bot-lifecycle";
import { projectsRoutes } from "./modules/projects";
import { eventsRoutes } from "./modules/events";
import { botApiRoutes } from "./modules/bot-api";
import { tokenRoutes } from "./modules/tokens";
import { envVarRoutes } from "./modules/env-vars";
import { botUserRoutes } from "./modules/bot-users";
import { templateRoutes } from "./modules/templates";
import { templateAdminRoutes } from "./modules/templates/admin";
import { previewRoutes } from "./modules/preview";
import { studioRoutes } from "./modules/studio";
import { mcpRoutes } from "./modules/mcp";

export function createApp(ctx: AppContext) {
  const guard = setupGuard(ctx);
  const app = new Elysia()
    .use(errorHandler(ctx.log))
    .onRequest((c) => {
      const refused = bodyLimit(c.request) ?? guard(c.request);
      if (refused) return refused;
      const capped = capUnsizedBody(c.request);
      if (capped) c.request = capped;
    })
    .use(
      openapi({
        path: "/api/docs",
        // Transforms have no JSON Schema: "any" documents them as {} instead of zod throwing, which
        // dropped those schemas and printed a stack trace per schema on the first /api/docs request.
        mapJsonSchema: { zod: (schema: z.ZodType) => z.toJSONSchema(schema, { unrepresentable: "any" }) },
        documentation: { info: { title: "Botloom API", version: "1" } },
        exclude: { paths: [/^\/admin/] },
      }),
    )
    .use(healthRoutes(ctx))
    .use(authRoutes(ctx))
    .use(storageRoutes(ctx))
    .use(mediaRoutes(ctx))
    .use(webhookRoutes(ctx))
    .use(botLifecycleRoutes(ctx))
    .use(projectsRoutes(ctx))
    .use(eventsRoutes(ctx))
    .use(botApiRoutes(ctx))
    .use(tokenRoutes(ctx))
    .use(envVarRoutes(ctx))
    .use(botUserRoutes(ctx))
    .use(templateRoutes(ctx))
    .use(previewRoutes(ctx))
    .use(mcpRoutes(ctx))
    .use(studioRoutes(ctx));
  // Production without an admin key: the admin area does not exist (API.md "Admin").
  const withAdmin = ctx.config.production && !ctx.config.adminKey ? app : app.use(adminRoutes(ctx)).use(botFolderRoutes(ctx)).use(templateAdminRoutes(ctx));
  return withAdmin;
}

export type App = ReturnType<typeof createApp>;
