// Preview tools: try a project's scenario without Telegram — the same preview sessions as
// /api/projects/{id}/preview and /api/preview/* (docs/preview.md), bound to the same user.
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { actionSchema } from "../../modules/preview/model";
import { args, defineTool, type ToolContext } from "../tool";

const previewId = z.string().min(1).max(100).describe("Id of a preview session (from preview_start)");

export function previewTools(server: McpServer, tc: ToolContext) {
  const { ctx } = tc;

  defineTool(server, tc, "preview_start", {
    title: "Start a preview",
    description:
      "Runs the project's scenario (or the unsaved `document` given) as a throwaway bot against Botloom's built-in messenger emulator, with its own test users: no token, no real messenger, nothing recorded in the project. Returns the session id, the bot and its commands. Then talk to it with preview_send and read preview_transcript.",
    input: { projectId: args.projectId, document: z.record(z.string(), z.unknown()).optional().describe("An unsaved scenario document to run instead of the saved one") },
  }, async ({ projectId, document }) => ctx.preview.create(tc.userId, projectId, document) as unknown as Record<string, unknown>);

  defineTool(server, tc, "preview_send", {
    title: "Act as the preview user",
    description:
      "Sends what a person would to the preview bot: { type: 'text', text } (a message or a /command), { type: 'button', messageId, data } (press an inline button: its callback data from the transcript), { type: 'location', latitude, longitude } or { type: 'contact', phone }. A reply-keyboard button is a text message with its label. Then read preview_transcript.",
    input: { previewId, action: actionSchema.describe("What the user does") },
  }, ({ previewId, action }) => ctx.preview.act(tc.userId, previewId, action) as unknown as Record<string, unknown>);

  defineTool(server, tc, "preview_transcript", {
    title: "Read the preview chat",
    description:
      "The preview chat as the user sees it: every message (user and bot) with text, buttons, media and edits, which scenario node produced each bot message, the reply keyboard shown now. Pass `after` (a version from an earlier answer) and `waitMs` (up to 10000) to wait for the bot's reply.",
    input: {
      previewId,
      after: z.number().int().min(0).optional().describe("Answer only once the chat changed after this version"),
      waitMs: z.number().int().min(0).max(10_000).optional(),
    },
    readOnly: true,
  }, ({ previewId, after, waitMs }) => ctx.preview.transcript(tc.userId, previewId, { after, waitMs }) as unknown as Promise<Record<string, unknown>>);

  defineTool(server, tc, "preview_stop", {
    title: "Stop a preview",
    description: "Ends a preview session and frees its bot process.",
    input: { previewId },
  }, async ({ previewId }) => {
    await ctx.preview.stop(tc.userId, previewId);
    return { stopped: true };
  });
}
