// docs/api.md#authentication (setup guard): until the admin has set the platform up, every /api/* path answers 503 NOT_SET_UP,
// except the health check and GET /api/auth/config (the login page needs it to say "not set up").
import type { AppContext } from "../context";
import { jsonError } from "./errors";
import { pathOf } from "./path";

export function setupGuard(ctx: AppContext) {
  return (request: Request): Response | undefined => {
    const raw = pathOf(request.url);
    if (!raw.startsWith("/api/") && raw !== "/api") return;
    // The router ignores one trailing slash, so the exemptions must too.
    const path = raw.length > 5 && raw.endsWith("/") ? raw.slice(0, -1) : raw;
    // Exempt paths are checked before the settings so health still answers when the database does not.
    if (path === "/api/health" && (request.method === "GET" || request.method === "HEAD")) return;
    if (path === "/api/auth/config" && request.method === "GET") return;
    if (ctx.settings.isSetUp()) return;
    return jsonError(503, "NOT_SET_UP", "Botloom is not set up yet: an administrator must finish setup at /admin/settings");
  };
}
