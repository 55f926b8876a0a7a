// Node-level edits, so an agent need not resend a large document: each reads the project, edits
// the scenario with src/scenario/edit.ts and stores it through ProjectsService.update — the same
// path as PUT /api/projects/{id}: validation, a version marked as an agent edit, the live event.
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { badRequest } from "../../errors";
import { depthMessage, tooDeep } from "../../lib/json-limits";
import { addNode, connectNodes, deleteNode, updateNode, type Doc } from "../../scenario/edit";
import { args, defineTool, type ToolContext } from "../tool";
import { agentMeta } from "./agent";

const position = z.object({ x: z.number().finite(), y: z.number().finite() }).describe("Canvas position in pixels");
const nodeData = z.record(z.string(), z.unknown());

export function nodeTools(server: McpServer, tc: ToolContext) {
  const { ctx } = tc;
  const edit = <R extends { doc: Doc }>(projectId: number, change: (doc: Doc) => R, commitMessage: string, data?: unknown) => {
    // The edit copies and merges `data` recursively before the project's own limits are checked:
    // nesting deep enough overflowed the stack there (an internal error instead of the reason).
    const deep = tooDeep(data);
    if (deep !== null) throw badRequest(depthMessage("data", deep));
    const project = ctx.projects.getFull(projectId, tc.userId);
    const result = change(project.data as unknown as Doc);
    ctx.projects.update(projectId, tc.userId, { data: result.doc, ...agentMeta(tc, commitMessage) });
    const { doc: _doc, ...rest } = result;
    return rest;
  };

  defineTool(server, tc, "add_node", {
    title: "Add a node",
    description:
      "Adds a node to a sheet of the project's scenario (the first sheet unless sheetId is given). `type` is a node type from the botloom://nodes/catalogue resource (e.g. command_trigger, message, input, condition, set_variable); `data` holds its fields. Returns the node with its id (generated when not given).",
    input: {
      projectId: args.projectId,
      type: z.string().min(1).max(100).describe("Node type, e.g. command_trigger or message"),
      data: nodeData.optional().describe("The node's fields, e.g. { command: '/start' } or { messageText: 'Hello', keyboardType: 'inline', buttons: [...] }"),
      id: z.string().min(1).max(200).optional().describe("Node id; unique across all sheets"),
      sheetId: z.string().max(200).optional().describe("Sheet to add to"),
      position: position.optional(),
      commitMessage: args.commitMessage,
    },
  }, ({ projectId, type, data, id, sheetId, position, commitMessage }) =>
    edit(projectId, (doc) => addNode(doc, { type, data, id, sheetId, position }), commitMessage ?? `Agent added node ${id ?? type}`, data));

  defineTool(server, tc, "update_node", {
    title: "Change a node",
    description: "Merges `data` into a node's data (a field set to null is removed; replaceData=true replaces the whole data object), and may change its type or position.",
    input: {
      projectId: args.projectId,
      nodeId: args.nodeId,
      data: nodeData.optional(),
      replaceData: z.boolean().optional().describe("Replace the data object instead of merging"),
      type: z.string().min(1).max(100).optional(),
      position: position.optional(),
      commitMessage: args.commitMessage,
    },
  }, ({ projectId, nodeId, commitMessage, ...patch }) => edit(projectId, (doc) => updateNode(doc, nodeId, patch), commitMessage ?? `Agent changed node ${nodeId}`, patch.data));

  defineTool(server, tc, "delete_node", {
    title: "Delete a node",
    description: "Deletes a node, its edges, and every reference to it in other nodes' data (those transitions become empty); returns the references it cleared.",
    input: { projectId: args.projectId, nodeId: args.nodeId, commitMessage: args.commitMessage },
  }, ({ projectId, nodeId, commitMessage }) => edit(projectId, (doc) => deleteNode(doc, nodeId), commitMessage ?? `Agent deleted node ${nodeId}`));

  defineTool(server, tc, "connect_nodes", {
    title: "Connect two nodes",
    description:
      "Makes the source node go to the target node by writing the source's data: via 'auto' (autoTransitionTo, after the node runs; the default; a loop's body), 'button' (a button's target: name it in `button` by id or text), 'branch' (a condition or parallel_split branch: `branch` by id or label), 'default' (a condition's defaultTargetId, a loop's afterLoopTo, a broadcast's message), 'input' (where input goes after the answer: inputTargetNodeId), 'keyboard' (attach a keyboard node to a message: keyboardNodeId). A kind the node's type does not take is refused with the kinds it takes.",
    input: {
      projectId: args.projectId,
      sourceId: z.string().min(1).max(200).describe("Node the transition starts from"),
      targetId: z.string().min(1).max(200).describe("Node it goes to"),
      via: z.enum(["auto", "button", "branch", "default", "input", "keyboard"]).optional(),
      button: z.string().max(200).optional().describe("With via=button: the button's id or text"),
      branch: z.string().max(200).optional().describe("With via=branch: the branch's id or label"),
      commitMessage: args.commitMessage,
    },
  }, ({ projectId, commitMessage, ...c }) => edit(projectId, (doc) => connectNodes(doc, c), commitMessage ?? `Agent connected ${c.sourceId} to ${c.targetId}`));
}
