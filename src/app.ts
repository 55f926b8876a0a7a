// Builds the Elysia application from the feature modules. Used by main.ts and by every HTTP test
// (`app.handle(new Request(...))`), so nothing here may listen on a port or read the environment.
import { Elysia } from "elysia";
import type { AppContext } from "./context";
import { errorHandler } from "./http/errors";
import { bodyLimit, capUnsizedBody } from "./http/body-limit";
import { setupGuard } from "./http/setup-guard";
import { docsRoutes } from "./modules/docs/docs.routes";
import { tagged } from "./http/openapi-tags";
import { BASELINE_HEADERS, withSecurityHeaders } from "./http/security-headers";
import { depthMessage, tooDeep } from "./lib/json-limits";
import { badRequest } from "./errors";
import { healthRoutes } from "./modules/health/health.routes";
import { authRoutes } from "./modules/auth/auth.routes";
import { adminRoutes } from "./modules/admin/admin.routes";
import { storageRoutes } from "./modules/storage/storage.routes";
import { mediaRoutes } from "./modules/media/media.routes";
import { botFolderRoutes } from "./modules/admin/bot-folders.routes";
import { adminBackupRoutes } from "./modules/admin/backups.routes";
import { webhookRoutes } from "./modules/webhook/webhook.routes";
import { hookRoutes } from "./modules/hooks/hooks.routes";
import { botLifecycleRoutes } from "./modules/bot-lifecycle/bot-lifecycle.routes";
import { projectsRoutes } from "./modules/projects/projects.routes";
import { eventsRoutes } from "./modules/events/events.routes";
import { botApiRoutes } from "./modules/bot-api/bot-api.routes";
import { tokenRoutes } from "./modules/tokens/tokens.routes";
import { envVarRoutes } from "./modules/env-vars/env-vars.routes";
import { botUserRoutes } from "./modules/bot-users/bot-users.routes";
import { dialogsRoutes } from "./modules/dialogs/dialogs.routes";
import { tablesRoutes } from "./modules/tables/tables.routes";
import { analyticsRoutes } from "./modules/analytics/analytics.routes";
import { campaignRoutes } from "./modules/campaigns/campaigns.routes";
import { templateRoutes } from "./modules/templates/templates.routes";
import { templateAdminRoutes } from "./modules/templates/admin.routes";
import { previewRoutes } from "./modules/preview/preview.routes";
import { studioNotFound, studioRoutes } from "./modules/studio/studio.routes";
import { mcpRoutes } from "./modules/mcp/mcp.routes";

const PARSED_BODY = ["bo", "dy"].join("");

export function createApp(ctx: AppContext) {
  const guard = setupGuard(ctx);
  // Elysia's own router, not Bun's route table: building that table at listen (one entry per route
  // and optional-parameter form) was ~4 ms of a cold start; bench/api-throughput.ts showed no
  // difference beyond its run-to-run noise.
  const app = new Elysia({ systemRouter: false })
    .use(errorHandler(ctx.log, studioNotFound(ctx)))
    .onRequest((c) => {
      Object.assign(c.set.headers, BASELINE_HEADERS);
      const refused = bodyLimit(c.request) ?? guard(c.request);
      if (refused) return refused;
      const capped = capUnsizedBody(c.request);
      if (capped) c.request = capped;
    })
    // Every parsed body, before validation or a handler walks it: no JSON deeper than 64 levels
    // (docs/api.md#limits; a 40,000-level body overflowed the stack of recursive walks: a 500).
    // The body is read by a computed key on purpose: Elysia infers from a hook's source whether
    // routes must parse their body, and naming it here would make every route (MCP, the webhook
    // intake, which read the raw request) parse it first. Routes that parse get it checked.
    .onTransform({ as: "global" }, (c) => {
      const deep = tooDeep((c as Record<string, unknown>)[PARSED_BODY]);
      if (deep !== null) throw badRequest(depthMessage("The request body", deep));
    })
    .onAfterHandle({ as: "global" }, ({ response, set }) => {
      if (!(response instanceof Response)) return;
      withSecurityHeaders(response.headers);
      // The handler's own Response carries the baseline now. Left in `set`, those headers would make
      // Elysia copy the Response to merge them, and the copy reads a kept Blob body (generate's
      // program) back through a stream instead of sending it as it is.
      for (const k in BASELINE_HEADERS) delete set.headers[k];
    })
    .use(docsRoutes())
    .use(tagged("Health", healthRoutes(ctx)))
    .use(tagged("Auth", authRoutes(ctx)))
    .use(tagged("Media", storageRoutes(ctx)))
    .use(tagged("Media", mediaRoutes(ctx)))
    .use(tagged("Hooks", webhookRoutes(ctx)))
    .use(tagged("Hooks", hookRoutes(ctx)))
    .use(tagged("Bots", botLifecycleRoutes(ctx)))
    .use(tagged("Projects", projectsRoutes(ctx)))
    .use(tagged("Events", eventsRoutes(ctx)))
    .use(tagged("Bot manager", botApiRoutes(ctx)))
    .use(tagged("Bots", tokenRoutes(ctx)))
    .use(tagged("Environment", envVarRoutes(ctx)))
    .use(tagged("Users", botUserRoutes(ctx)))
    .use(tagged("Dialogs", dialogsRoutes(ctx)))
    .use(tagged("Tables", tablesRoutes(ctx)))
    .use(tagged("Analytics", analyticsRoutes(ctx)))
    .use(tagged("Campaigns", campaignRoutes(ctx)))
    .use(tagged("Templates", templateRoutes(ctx)))
    .use(tagged("Preview", previewRoutes(ctx)))
    .use(tagged("MCP", mcpRoutes(ctx)))
    .use(studioRoutes(ctx));
  // Production without an admin key: the admin area does not exist (docs/api.md#admin-area).
  const withAdmin = ctx.config.production && !ctx.config.adminKey ? app : app.use(tagged("Admin", adminRoutes(ctx))).use(tagged("Admin", botFolderRoutes(ctx))).use(tagged("Admin", adminBackupRoutes(ctx))).use(tagged("Admin", templateAdminRoutes(ctx)));
  return withAdmin;
}

export type App = ReturnType<typeof createApp>;
