// How a Botloom tool is declared: a zod input shape, a handler that calls the same services as the
// HTTP routes, and one result shape — structured content plus its JSON as text. Errors become tool
// errors in words (the service's message), never a stack trace.
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import type { AppContext } from "../context";
import { toAppError } from "../errors";
import { errorResult, toolTable, type Shape } from "./call";

/** What every tool knows about its caller. */
export interface ToolContext {
  ctx: AppContext;
  /** The acting user (the PAT's user, or the user a bot_manager PAT names). */
  userId: number;
  /** The MCP session id: recorded as `agentSessionId` on every version an agent makes. */
  sessionId(): string;
  /** The client's name from its initialize request: recorded as `agentDisplayName`. */
  clientName(): string;
}


/** The same words the HTTP door answers (toAppError), with the first blocking issues listed. */
function messageOf(e: unknown, tc: ToolContext, tool: string): string {
  const app = toAppError(e);
  if (app) {
    const issues = Array.isArray(app.extra.issues) ? (app.extra.issues as { message?: string }[]).slice(0, 10).map((i) => `- ${i.message}`) : [];
    return [app.message, ...issues].join("\n");
  }
  tc.ctx.log.error(`mcp: tool ${tool} failed:`, e instanceof Error ? e.message : String(e));
  return "Internal error while running the tool; the server log has the details";
}

export function defineTool<S extends Shape>(
  server: McpServer,
  tc: ToolContext,
  name: string,
  config: { title: string; description: string; input: S; readOnly?: boolean },
  handler: (args: z.infer<z.ZodObject<S>>) => Promise<Record<string, unknown>> | Record<string, unknown>,
) {
  const run = async (args: z.infer<z.ZodObject<S>>): Promise<CallToolResult> => {
    try {
      const result = await handler(args);
      return { structuredContent: result, content: [{ type: "text", text: JSON.stringify(result) }] };
    } catch (e) {
      return errorResult(messageOf(e, tc, name));
    }
  };
  // The SDK lists the tool (tools/list); callTool checks and runs it.
  server.registerTool(
    name,
    {
      title: config.title,
      description: config.description,
      inputSchema: config.input,
      annotations: { readOnlyHint: config.readOnly ?? false, openWorldHint: false },
    },
    run as never,
  );
  toolTable(server).set(name, { shape: config.input, run: run as (args: Record<string, unknown>) => Promise<CallToolResult> });
}

/** Shared argument schemas, with descriptions an agent can follow. */
export const args = {
  projectId: z.number().int().positive().describe("Id of the project (from list_projects)"),
  tokenId: z.number().int().positive().optional().describe("Id of the bot token (from list_tokens); the project's first token when omitted"),
  nodeId: z.string().min(1).max(200).describe("Id of a node in the project's scenario"),
  commitMessage: z.string().max(500).optional().describe("A short note on the change, shown in the project's version history"),
};
