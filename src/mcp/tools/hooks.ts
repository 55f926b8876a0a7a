// Inbound webhook tools (docs/hooks.md): the URLs of a project's webhook nodes (never a secret:
// making one stays a person's step in the Studio, like adding a bot token), and firing one in a
// preview, through the same services as /api/projects/{id}/hooks and /api/preview/{sid}/hooks.
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { HooksService } from "../../modules/hooks/service";
import { args, defineTool, type ToolContext } from "../tool";

export function hookTools(server: McpServer, tc: ToolContext) {
  const hooks = new HooksService(tc.ctx);

  defineTool(server, tc, "list_hooks", {
    title: "List inbound webhooks",
    description: "The webhook_trigger nodes of the project's saved scenario: each node's URL path (null until a person makes its secret in the Studio), the body field naming the user, and its rate. Secrets are never shown.",
    input: { projectId: args.projectId },
    readOnly: true,
  }, async ({ projectId }) => {
    const items = await hooks.list(projectId, tc.userId);
    return { items, count: items.length };
  });

  defineTool(server, tc, "preview_fire_hook", {
    title: "Fire a webhook in a preview",
    description: "Runs a webhook_trigger node of the preview's document in the preview chat as if its URL had been called with `body` (its fields become variables). Returns the status and body the hook would answer; then read preview_transcript.",
    input: {
      previewId: z.string().min(1).max(100).describe("Id of a preview session (from preview_start)"),
      nodeId: args.nodeId,
      body: z.record(z.string(), z.unknown()).describe("The request's JSON body"),
    },
  }, ({ previewId, nodeId, body }) => tc.ctx.preview.fireHook(tc.userId, previewId, nodeId, body));
}
