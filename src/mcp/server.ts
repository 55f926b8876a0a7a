// One MCP server per MCP session: the tools and resources, bound to the session's user.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { VERSION } from "../version";
import type { ToolContext } from "./tool";
import { projectTools } from "./tools/projects";
import { nodeTools } from "./tools/nodes";
import { botTools } from "./tools/bots";
import { dialogTools } from "./tools/dialogs";
import { tableTools } from "./tools/tables";
import { analyticsTools } from "./tools/analytics";
import { campaignTools } from "./tools/campaigns";
import { templateTools } from "./tools/templates";
import { previewTools } from "./tools/preview";
import { hookTools } from "./tools/hooks";
import { registerResources } from "./resources";
import { answerToolCalls } from "./call";

const INSTRUCTIONS = [
  "Botloom builds and runs Telegram bots from scenario documents.",
  "Read botloom://docs/scenario first. Typical flow: create_project, add_node (command_trigger /start, message, ...),",
  "connect_nodes, validate_project, try it with preview_start / preview_send / preview_transcript (no token needed),",
  "then start_bot once the project has a token, and read_logs.",
  "Every change you make is stored as a project version marked as an agent edit.",
].join(" ");

export function createMcpServer(tc: ToolContext): McpServer {
  const server = new McpServer({ name: "botloom", version: VERSION.version }, { instructions: INSTRUCTIONS, capabilities: { tools: {}, resources: {} } });
  projectTools(server, tc);
  nodeTools(server, tc);
  botTools(server, tc);
  dialogTools(server, tc);
  tableTools(server, tc);
  analyticsTools(server, tc);
  campaignTools(server, tc);
  templateTools(server, tc);
  previewTools(server, tc);
  hookTools(server, tc);
  registerResources(server);
  answerToolCalls(server);
  return server;
}
