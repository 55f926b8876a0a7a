// Admin side of the catalog (docs/api.md#admin-area, admin rule 4): the featured flag and the forced
// refresh of the built-ins; plus a list of every template (private ones too) for the admin hub.
import { Elysia } from "elysia";
import type { AppContext } from "../../context";
import { parsePositiveId } from "../../http/params";
import { adminGuard } from "../admin/admin-auth";
import { parseListQuery } from "./templates.routes";
import { featuredSchema } from "./model";
import { refreshBuiltInTemplates } from "./seed";
import { TemplatesService } from "./service";

export const templateAdminRoutes = (ctx: AppContext) => {
  const service = new TemplatesService(ctx);
  const refresh = () => {
    const r = refreshBuiltInTemplates(ctx);
    if (r.failed.length > 0) throw new Error(`built-in templates could not be read: ${r.failed.join(", ")}`);
    ctx.state.templatesLoaded = true;
    const total = r.inserted + r.updated;
    return { message: `Built-in templates refreshed: ${total} rewritten (${r.inserted} added), ${r.removed} removed`, timestamp: new Date().toISOString() };
  };
  return new Elysia({ prefix: "/admin/api/templates" })
    .use(adminGuard(ctx))
    .get("", ({ query }) => service.list(null, parseListQuery(query)), { admin: true })
    .patch("/:id/featured", ({ params, body }) => service.setFeatured(parsePositiveId(params.id, "id"), body.featured), { admin: true, body: featuredSchema })
    .post("/refresh", refresh, { admin: true })
    .post("/recreate", refresh, { admin: true });
};
