// Bot tools: the project's tokens, start/stop, status, logs, recorded users and statistics — the
// same services as /api/bot/* and the project routes, with the same access checks.
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { BotUsersService } from "../../modules/bot-users/service";
import { LOGS_MAX_LIMIT, ProjectActivity } from "../../modules/projects/activity";
import { notFound } from "../../errors";
import { args, defineTool, type ToolContext } from "../tool";

export function botTools(server: McpServer, tc: ToolContext) {
  const { ctx } = tc;
  const activity = new ProjectActivity(ctx);
  const users = new BotUsersService(ctx);

  /** The token the agent names, checked to belong to the project; else the project's first one. */
  const tokenOf = (projectId: number, tokenId: number | undefined): number => {
    const tokens = ctx.tokens.list(projectId, tc.userId);
    if (tokenId === undefined) return ctx.tokens.requireFirst(projectId).id;
    if (!tokens.some((t) => t.id === tokenId)) throw notFound(`Project ${projectId} has no token ${tokenId}`);
    return tokenId;
  };
  const project = { projectId: args.projectId, tokenId: args.tokenId };

  defineTool(server, tc, "list_tokens", {
    title: "List bot tokens",
    description: "The project's bot tokens (never the secret itself): id, name, bot username, launch mode, flags and whether the bot runs.",
    input: { projectId: args.projectId },
    readOnly: true,
  }, ({ projectId }) => {
    const items = ctx.tokens.list(projectId, tc.userId).map((t) => ({ ...t, status: ctx.bots.state(t.id).status }));
    return { items, count: items.length };
  });

  for (const action of ["start", "stop"] as const) {
    defineTool(server, tc, `${action}_bot`, {
      title: action === "start" ? "Start the bot" : "Stop the bot",
      description:
        action === "start"
          ? "Generates the program from the project's current scenario and starts the bot of a token (the project's first token when tokenId is omitted). Fails with the validation messages when the scenario is not usable."
          : "Stops the bot of a token (stopping a stopped bot is fine).",
      input: project,
    }, async ({ projectId, tokenId }) => {
      const id = tokenOf(projectId, tokenId);
      await (action === "start" ? ctx.bots.start(id) : ctx.bots.stop(id));
      return ctx.tokens.status(id, tc.userId);
    });
  }

  defineTool(server, tc, "bot_status", {
    title: "Bot status",
    description: "Whether the token's bot is running, its uptime, and user statistics.",
    input: project,
    readOnly: true,
  }, ({ projectId, tokenId }) => ctx.tokens.status(tokenOf(projectId, tokenId), tc.userId));

  defineTool(server, tc, "read_logs", {
    title: "Read bot logs",
    description: "The newest log lines of the project's bots (what they printed, errors, starts and stops), newest first.",
    input: { ...project, limit: z.number().int().min(1).max(LOGS_MAX_LIMIT).optional().describe("How many lines (default 100)") },
    readOnly: true,
  }, ({ projectId, tokenId, limit }) => {
    ctx.access.require(projectId, tc.userId);
    const items = activity.logs(projectId, limit ?? 100, tokenId === undefined ? undefined : tokenOf(projectId, tokenId));
    return { items, count: items.length };
  });

  defineTool(server, tc, "list_bot_users", {
    title: "List bot users",
    description: "People who wrote to the token's bot (recorded when the project's user database is on), a page at a time.",
    input: { ...project, limit: z.number().int().min(1).max(50).optional(), offset: z.number().int().min(0).optional() },
    readOnly: true,
  }, ({ projectId, tokenId, limit, offset }) => users.list(tokenOf(projectId, tokenId), tc.userId, limit ?? 10, offset ?? 0) as unknown as Record<string, unknown>);

  defineTool(server, tc, "bot_stats", {
    title: "Bot statistics",
    description: "Users in all, active in the last 24 hours and 7 days, and new today.",
    input: project,
    readOnly: true,
  }, ({ projectId, tokenId }) => ctx.tokens.stats(tokenOf(projectId, tokenId), tc.userId) as unknown as Record<string, unknown>);
}
