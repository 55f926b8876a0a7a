// tools/call is answered here, not by the SDK: the SDK checks a call against its own schema before
// any tool sees it, so arguments that are not an object (an array, a string, null) came back as a
// JSON-RPC internal error carrying zod's raw issue list, and wrong values inside the object as
// "MCP error -32602: Input validation error: ...". Every malformed call is now a tool error in words,
// like a service's refusal (docs/mcp.md#tools): what was wrong and what the tool expects.
// The SDK still lists the tools (tools/list) from the same shapes.
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { Protocol } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { isObject, kindOf } from "../lib/values";

export type Shape = Record<string, z.ZodType>;

interface ToolEntry {
  shape: Shape;
  run(args: Record<string, unknown>): Promise<CallToolResult>;
}

const tables = new WeakMap<McpServer, Map<string, ToolEntry>>();

export function errorResult(message: string): CallToolResult {
  return { isError: true, content: [{ type: "text", text: message }] };
}

/** The tools of one server, by name (defineTool adds them). */
export function toolTable(server: McpServer): Map<string, ToolEntry> {
  let table = tables.get(server);
  if (!table) tables.set(server, (table = new Map()));
  return table;
}

/** What was sent, in words: "nothing", "null", "an array", "an object", "a string". */
function sentKind(v: unknown): string {
  if (v === undefined) return "nothing";
  const kind = kindOf(v);
  return kind === "null" || kind === "an array" ? kind : kind === "object" ? "an object" : `a ${kind}`;
}

/** "required: projectId, type; optional: id, data" — what a tool's arguments object holds. */
function expectedOf(shape: Shape): string {
  const names = Object.keys(shape);
  const optional = names.filter((n) => shape[n]!.safeParse(undefined).success);
  const required = names.filter((n) => !optional.includes(n));
  const parts = [required.length ? `required: ${required.join(", ")}` : "", optional.length ? `optional: ${optional.join(", ")}` : ""].filter(Boolean);
  return parts.length ? `an object of named arguments (${parts.join("; ")})` : "an empty object {}";
}

/** One line per problem, as the scenario's issues are listed (at most 10). */
function issuesOf(error: z.ZodError): string[] {
  return error.issues.slice(0, 10).map((i) => {
    const path = i.path.length ? i.path.join(".") : "arguments";
    const what = "input" in i && i.input === undefined && i.code === "invalid_type" ? `missing (expected ${i.expected})` : i.message.replace(/^Invalid input: /, "");
    return `- ${path}: ${what}`;
  });
}

/** The answer to one tools/call's params, whatever they hold. */
export async function callTool(server: McpServer, params: unknown): Promise<CallToolResult> {
  const call = isObject(params) ? params : {};
  if (typeof call.name !== "string") return errorResult(`A tool call needs params.name, the name of a tool (tools/list names them); received ${sentKind(call.name)}`);
  const tool = toolTable(server).get(call.name);
  if (!tool) return errorResult(`Unknown tool ${JSON.stringify(call.name.slice(0, 100))}: tools/list names the tools`);
  // No arguments at all is an empty object, as the protocol allows; null is not.
  const given = call.arguments === undefined ? {} : call.arguments;
  const head = `Invalid arguments for tool ${call.name}`;
  if (!isObject(given)) return errorResult(`${head}: expected ${expectedOf(tool.shape)}, received ${sentKind(given)}`);
  const parsed = z.object(tool.shape).safeParse(given, { reportInput: true });
  if (!parsed.success) return errorResult([`${head}:`, ...issuesOf(parsed.error)].join("\n"));
  return tool.run(parsed.data);
}

const CallRequest = z.object({ method: z.literal("tools/call"), params: z.unknown().optional() });

/** Makes callTool the server's answer to tools/call (after every tool is defined). */
export function answerToolCalls(server: McpServer) {
  // Protocol's own registration: Server's override checks the SDK's strict call schema first,
  // which is the refusal this replaces.
  Protocol.prototype.setRequestHandler.call(server.server, CallRequest, (request: z.infer<typeof CallRequest>) => callTool(server, request.params));
}
