// Template tools: browse the catalogue and start a project from a template.
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { TemplatesService } from "../../modules/templates/service";
import { defineTool, type ToolContext } from "../tool";

export function templateTools(server: McpServer, tc: ToolContext) {
  const templates = new TemplatesService(tc.ctx);

  defineTool(server, tc, "list_templates", {
    title: "List templates",
    description: "Ready-made bot scenarios: the public catalogue and the user's own templates, filtered by category, search text, featured or language.",
    input: {
      category: z.string().max(100).optional(),
      search: z.string().max(200).optional().describe("Words in the name or description"),
      featured: z.boolean().optional(),
      language: z.string().max(10).optional().describe("e.g. ru or en"),
      page: z.number().int().min(1).optional(),
      perPage: z.number().int().min(1).max(100).optional(),
    },
    readOnly: true,
  }, ({ category, search, featured, language, page, perPage }) =>
    templates.list(tc.userId, { category, search, featured: featured === undefined ? undefined : featured ? 1 : 0, language, page: page ?? 1, perPage: perPage ?? 20 }) as unknown as Record<string, unknown>);

  defineTool(server, tc, "use_template", {
    title: "New project from a template",
    description: "Creates a project for the user from a template (from list_templates); returns the new project.",
    input: { templateId: z.number().int().positive(), name: z.string().min(1).max(200).optional().describe("Name of the new project (the template's name when omitted)") },
  }, ({ templateId, name }) => templates.use(templateId, tc.userId, name) as unknown as Record<string, unknown>);
}
