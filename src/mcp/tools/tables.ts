// Scenario tables tools (docs/tables.md): the same service as /api/projects/{id}/tables, with the
// same access check (owner or collaborator of the project).
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { cellInSchema, ROWS_PER_PAGE_MAX } from "../../modules/tables/model";
import { TablesService } from "../../modules/tables/service";
import { defineTool, type ToolContext } from "../tool";

const projectId = z.number().int().positive().describe("The project's id (list_projects)");
const table = z.string().min(1).max(256).describe("The table's name exactly as list_tables gives it");
const rowId = z.number().int().positive().describe("The row's _id (read_rows)");
const row = z.record(z.string().max(256), cellInSchema).describe("column: value (text, a number, true/false or null)");

export function tableTools(server: McpServer, tc: ToolContext) {
  const tables = new TablesService(tc.ctx);
  const member = (id: number) => {
    tc.ctx.access.require(id, tc.userId);
    return id;
  };

  defineTool(server, tc, "list_tables", {
    title: "List scenario tables",
    description: "The tables the project's scenario keeps (bot_table, psql_query): columns, row counts, and whether the server may write each (readOnly gives the reason when not).",
    input: { projectId },
    readOnly: true,
  }, async (a) => (await tables.list(member(a.projectId))) as unknown as Record<string, unknown>);

  defineTool(server, tc, "read_rows", {
    title: "Read table rows",
    description: "A page of a scenario table's rows, each with its _id; sort by a column, search text columns.",
    input: {
      projectId,
      table,
      page: z.number().int().min(1).max(1_000_000).optional(),
      perPage: z.number().int().min(1).max(ROWS_PER_PAGE_MAX).optional(),
      sort: z.string().max(256).optional().describe("a column or _id (default)"),
      order: z.enum(["asc", "desc"]).optional(),
      search: z.string().max(200).optional(),
    },
    readOnly: true,
  }, async (a) => (await tables.rows(member(a.projectId), a.table, { page: a.page ?? 1, perPage: a.perPage ?? 50, sort: a.sort, order: a.order ?? "asc", search: a.search ?? "" })) as unknown as Record<string, unknown>);

  defineTool(server, tc, "insert_row", {
    title: "Add a table row",
    description: "Adds a row to a scenario table (the running bot reads it at once); columns not given take their defaults.",
    input: { projectId, table, row },
  }, async (a) => (await tables.insert(member(a.projectId), a.table, a.row)) as unknown as Record<string, unknown>);

  defineTool(server, tc, "update_row", {
    title: "Change a table row",
    description: "Changes some cells of a row, named by its _id.",
    input: { projectId, table, rowId, row },
  }, async (a) => (await tables.update(member(a.projectId), a.table, a.rowId, a.row)) as unknown as Record<string, unknown>);

  defineTool(server, tc, "delete_row", {
    title: "Delete a table row",
    description: "Deletes a row, named by its _id.",
    input: { projectId, table, rowId },
  }, async (a) => (await tables.remove(member(a.projectId), a.table, a.rowId)) as unknown as Record<string, unknown>);
}
