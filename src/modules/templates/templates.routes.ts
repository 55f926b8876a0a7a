// docs/api.md#templates: /api/templates for signed-in users. The built-ins are
// seeded when the context is built (seed.ts loadBuiltInTemplates).
import { Elysia } from "elysia";
import type { AppContext } from "../../context";
import { badRequest } from "../../errors";
import { authPlugin } from "../../http/auth";
import { parseIntQuery, parsePositiveId } from "../../http/params";
import { jsonAnswer } from "../../http/openapi-answer";
import { createTemplateSchema, PER_PAGE_DEFAULT, PER_PAGE_MAX, rateTemplateSchema, SEARCH_MAX, templatePageSchema, templateRecordSchema, updateTemplateSchema, useTemplateSchema, type TemplateListQuery } from "./model";
import { TemplatesService } from "./service";

/** Far beyond any real catalog; keeps the offset an exact integer. */
const PAGE_MAX = 1_000_000;

function oneString(raw: unknown, name: string, max: number): string | undefined {
  if (raw === undefined || raw === "") return undefined;
  if (typeof raw !== "string") throw badRequest(`${name} must be a single string`);
  if (raw.length > max) throw badRequest(`${name} must be at most ${max} characters`);
  return raw;
}

/** Query of a catalog page (shared with the admin list). Above 100 per page is clamped, like every list of the product. */
export function parseListQuery(query: Record<string, unknown>): TemplateListQuery {
  const featured = oneString(query.featured, "featured", 5);
  if (featured !== undefined && featured !== "0" && featured !== "1") throw badRequest("featured must be 0 or 1");
  const str = (k: string) => {
    const v = query[k];
    if (v !== undefined && typeof v !== "string") throw badRequest(`${k} must be a single value`);
    return v as string | undefined;
  };
  return {
    category: oneString(query.category, "category", 50),
    search: oneString(query.search, "search", SEARCH_MAX),
    featured: featured === undefined ? undefined : featured === "1" ? 1 : 0,
    language: oneString(query.language, "language", 20),
    page: parseIntQuery(str("page"), "page", { default: 1, min: 1, max: PAGE_MAX }),
    perPage: parseIntQuery(str("perPage"), "perPage", { default: PER_PAGE_DEFAULT, min: 1, max: PER_PAGE_MAX, clamp: true }),
  };
}

export const templateRoutes = (ctx: AppContext) => {
  const service = new TemplatesService(ctx);
  const id = (raw: string) => parsePositiveId(raw, "id");
  return new Elysia({ prefix: "/api/templates" })
    .use(authPlugin(ctx))
    .get("", ({ query, actor }) => service.list(actor.userId, parseListQuery(query)), { user: true, detail: jsonAnswer(templatePageSchema) })
    .get("/:id", ({ params, actor }) => service.get(id(params.id), actor.userId), { user: true, detail: jsonAnswer(templateRecordSchema) })
    .post(
      "",
      ({ body, actor, set }) => {
        set.status = 201;
        return service.create(actor.userId, body);
      },
      { user: true, body: createTemplateSchema },
    )
    .put("/:id", ({ params, body, actor }) => service.update(id(params.id), actor.userId, body), { user: true, body: updateTemplateSchema })
    .delete(
      "/:id",
      ({ params, actor }) => {
        service.delete(id(params.id), actor.userId);
        return { success: true };
      },
      { user: true },
    )
    .post(
      "/:id/use",
      ({ params, body, actor, set }) => {
        const item = service.use(id(params.id), actor.userId, body?.name);
        set.status = 201;
        return item;
      },
      { user: true, body: useTemplateSchema },
    )
    .post("/:id/rate", ({ params, body, actor }) => service.rate(id(params.id), actor.userId, body.rating), { user: true, body: rateTemplateSchema });
};
