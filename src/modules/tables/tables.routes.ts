// The scenario tables routes (docs/tables.md, docs/api.md "Scenario tables"): project members only.
import { Elysia } from "elysia";
import { z } from "zod";
import type { AppContext } from "../../context";
import { authPlugin } from "../../http/auth";
import { jsonAnswer } from "../../http/openapi-answer";
import { parseEnumQuery, parseIntQuery, parsePositiveId } from "../../http/params";
import { badRequest } from "../../errors";
import { memberProjectId } from "../projects/member";
import {
  EXPORT_FORMATS,
  importAnswerSchema,
  IMPORT_MODES,
  rowInSchema,
  rowPageSchema,
  rowSchema,
  ROWS_PER_PAGE_DEFAULT,
  ROWS_PER_PAGE_MAX,
  successSchema,
  tableListSchema,
} from "./model";
import { TablesService } from "./service";

const text = z.string().optional();
const rowsQuery = z.looseObject({
  page: text.describe("from 1"),
  perPage: text.describe(`default ${ROWS_PER_PAGE_DEFAULT}, clamped to ${ROWS_PER_PAGE_MAX}`),
  sort: text.describe("a column's name or _id (default _id)"),
  order: text.describe("asc (default) | desc"),
  search: text.describe("text the row's text columns contain (any letter case)"),
});
const exportQuery = z.looseObject({ format: text.describe(EXPORT_FORMATS.join(" | ") + " (default csv)") });
const importQuery = z.looseObject({ mode: text.describe(IMPORT_MODES.join(" | ") + " (default append)") });

const doc = (summary: string, schema: z.ZodType, status: 200 | 201 = 200) => {
  const answer = jsonAnswer(schema, status === 201 ? "Created" : "OK").responses[200];
  return { summary, responses: { [status]: answer } };
};

/** A table's name as the path carries it; which names exist is the service's question (404). */
function tableName(raw: string | undefined): string {
  if (raw === undefined || raw === "" || raw.length > 256) throw badRequest("name must be a table's name");
  return raw;
}

export const tablesRoutes = (ctx: AppContext) => {
  const service = new TablesService(ctx);
  const member = (raw: string, userId: number) => memberProjectId(ctx, raw, userId);
  return new Elysia({ prefix: "/api/projects/:id/tables" })
    .use(authPlugin(ctx))
    .get("", ({ actor, params }) => service.list(member(params.id, actor.userId)), {
      user: true,
      detail: doc("The project's scenario tables (bot_table, psql_query) with their columns and row counts", tableListSchema),
    })
    .get(
      "/:name/rows",
      ({ actor, params, query }) => {
        const projectId = member(params.id, actor.userId);
        return service.rows(projectId, tableName(params.name), {
          page: parseIntQuery(query.page, "page", { default: 1, min: 1, max: 1_000_000 }),
          perPage: parseIntQuery(query.perPage, "perPage", { default: ROWS_PER_PAGE_DEFAULT, min: 1, max: ROWS_PER_PAGE_MAX, clamp: true }),
          sort: typeof query.sort === "string" ? query.sort : undefined,
          order: parseEnumQuery(query.order, ["asc", "desc"] as const, "order") ?? "asc",
          search: typeof query.search === "string" ? query.search.slice(0, 200) : "",
        });
      },
      { user: true, query: rowsQuery, detail: doc("A page of a table's rows (each with _id)", rowPageSchema) },
    )
    .post(
      "/:name/rows",
      async ({ actor, params, body, set }) => {
        const row = await service.insert(member(params.id, actor.userId), tableName(params.name), body);
        set.status = 201;
        return row;
      },
      { user: true, body: rowInSchema, detail: doc("Add a row; its columns as given, the rest by their defaults", rowSchema, 201) },
    )
    .patch(
      "/:name/rows/:rowId",
      ({ actor, params, body }) => service.update(member(params.id, actor.userId), tableName(params.name), parsePositiveId(params.rowId, "rowId"), body),
      { user: true, body: rowInSchema, detail: doc("Change cells of a row", rowSchema) },
    )
    .delete(
      "/:name/rows/:rowId",
      ({ actor, params }) => service.remove(member(params.id, actor.userId), tableName(params.name), parsePositiveId(params.rowId, "rowId")),
      { user: true, detail: doc("Delete a row", successSchema) },
    )
    .get(
      "/:name/export",
      async ({ actor, params, query }) => {
        const projectId = member(params.id, actor.userId);
        const format = parseEnumQuery(query.format, EXPORT_FORMATS, "format") ?? "csv";
        const { body, filename } = await service.export(projectId, tableName(params.name), format);
        return new Response(body, {
          headers: {
            "content-type": format === "csv" ? "text/csv; charset=utf-8" : "application/json; charset=utf-8",
            // A header carries Latin-1 only: the name as UTF-8 in filename*, an ASCII stand-in beside it.
            "content-disposition": `attachment; filename="${filename.replace(/[^\x20-\x7e]|"/g, "_")}"; filename*=UTF-8''${encodeURIComponent(filename)}`,
          },
        });
      },
      { user: true, query: exportQuery, detail: { summary: "The whole table as CSV (formula-like text prefixed with ') or a JSON array, streamed" } },
    )
    .post(
      "/:name/import",
      async ({ actor, params, query, request }) => {
        const projectId = member(params.id, actor.userId);
        const name = tableName(params.name);
        const mode = parseEnumQuery(query.mode, IMPORT_MODES, "mode") ?? "append";
        const type = (request.headers.get("content-type") ?? "").toLowerCase();
        // Read after the access check; the 50 MB cap is body-limit.ts's.
        const raw = await request.text();
        if (/^(text\/csv|text\/plain)\b/.test(type)) return service.import(projectId, name, { format: "csv", text: raw }, mode);
        if (!/^application\/json\b/.test(type)) throw badRequest("Send text/csv or a JSON array (application/json)");
        return service.import(projectId, name, { format: "json", text: raw }, mode);
      },
      {
        user: true,
        parse: "none",
        query: importQuery,
        detail: doc("Add rows from a CSV (text/csv: a header of column names) or a JSON array; all or nothing, a 400 names the first bad row", importAnswerSchema),
      },
    );
};
