// Project tools: list, read, create, replace the whole scenario, validate, generate the program.
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { ProjectCode } from "../../modules/projects/code";
import { countNodes, validateScenario } from "../../scenario";
import { args, defineTool, type ToolContext } from "../tool";
import { agentMeta } from "./agent";

export function projectTools(server: McpServer, tc: ToolContext) {
  const { ctx } = tc;
  const code = new ProjectCode(ctx);

  defineTool(server, tc, "list_projects", {
    title: "List projects",
    description: "The projects the user owns or collaborates on: id, name, description, node and sheet counts, dates. Archived projects only with archived=true.",
    input: { archived: z.boolean().optional().describe("List the archived projects instead") },
    readOnly: true,
  }, ({ archived }) => {
    const items = ctx.projects.listItems(tc.userId, archived ?? false);
    return { items: items.map((p) => ({ id: p.id, name: p.name, description: p.description, nodeCount: p.nodeCount, sheetsCount: p.sheetsCount, updatedAt: p.updatedAt })), count: items.length };
  });

  defineTool(server, tc, "get_project", {
    title: "Read a project",
    description: "The whole project record, including its scenario document (`data`: sheets with nodes; transitions live in node data). Read the botloom://docs/scenario resource for the format.",
    input: { projectId: args.projectId },
    readOnly: true,
  }, ({ projectId }) => {
    // The legacy credential columns are never an agent's business.
    const { botToken: _t, sessionId: _s, ...project } = ctx.projects.getFull(projectId, tc.userId);
    return project as unknown as Record<string, unknown>;
  });

  defineTool(server, tc, "create_project", {
    title: "Create a project",
    description: "Creates a project owned by the user, with an empty scenario (one sheet) unless `data` is given. Returns the new project's id.",
    input: {
      name: z.string().min(1).max(200).describe("Project name"),
      description: z.string().max(2000).optional().describe("What the bot is for"),
      data: z.record(z.string(), z.unknown()).optional().describe("A starting scenario document ({ sheets: [...] })"),
    },
  }, ({ name, description, data }) => {
    const p = ctx.projects.create(tc.userId, { name, description, data });
    return { id: p.id, name: p.name, ...countNodes(p.data) };
  });

  defineTool(server, tc, "update_project_data", {
    title: "Replace the scenario",
    description: "Replaces the project's whole scenario document. For small changes prefer add_node / update_node / delete_node / connect_nodes. Stored as a new version marked as an agent edit.",
    input: { projectId: args.projectId, data: z.record(z.string(), z.unknown()).describe("The scenario document: { sheets: [{ id, name, nodes: [...], edges: [] }] }"), commitMessage: args.commitMessage },
  }, ({ projectId, data, commitMessage }) => {
    const p = ctx.projects.update(projectId, tc.userId, { data, ...agentMeta(tc, commitMessage ?? "Scenario replaced by an agent") });
    return { id: p.id, ...countNodes(p.data), updatedAt: p.updatedAt };
  });

  defineTool(server, tc, "validate_project", {
    title: "Validate the scenario",
    description: "Checks the project's scenario as generate and start do. Errors block storing or starting; warnings (dangling targets, unsupported node types, unreachable nodes) name the node.",
    input: { projectId: args.projectId },
    readOnly: true,
  }, ({ projectId }) => {
    const p = ctx.projects.getFull(projectId, tc.userId);
    const { errors, warnings } = validateScenario(p.data);
    return { ok: errors.length === 0, errors, warnings };
  });

  defineTool(server, tc, "generate_code", {
    title: "Generate the bot program",
    description: "The grammY program the platform would run for this project (what a start runs).",
    input: { projectId: args.projectId },
    readOnly: true,
  }, ({ projectId }) => {
    ctx.access.require(projectId, tc.userId);
    return code.generate(projectId);
  });
}
