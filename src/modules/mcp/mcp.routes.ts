// The MCP endpoint (Streamable HTTP): `Authorization: Bearer <PAT>` only; the PAT's user acts, and a
// bot_manager PAT acts for the `messenger_id` its client names in the URL, as on /api/bot/*.
// Everything else is the MCP server in src/mcp/.
import { Elysia } from "elysia";
import type { AppContext } from "../../context";
import { botActorOf, resolveActor } from "../../http/auth";
import { unauthorized } from "../../errors";
import type { McpSessions } from "../../mcp/sessions";

export const mcpRoutes = (ctx: AppContext) => {
  // The MCP SDK takes ~20 ms to load (bench/cold-start.ts): loaded on the first /mcp request.
  let sessions: Promise<McpSessions> | undefined;
  const load = () => (sessions ??= import("../../mcp/sessions").then((m) => new m.McpSessions(ctx)));
  const handle = async ({ request, query }: { request: Request; query: Record<string, string | undefined> }) => {
    // No cookie: an agent authenticates with a personal access token, never a browser session.
    const actor = resolveActor(ctx, request.headers.get("authorization"), undefined);
    if (!actor) throw unauthorized("MCP needs Authorization: Bearer <personal access token>");
    const userId = botActorOf(ctx, actor, query).userId;
    return (await load()).handle(request, userId);
  };
  const doc = { detail: { tags: ["MCP"], description: "Model Context Protocol endpoint (Streamable HTTP, JSON responses). Bearer PAT required; see docs/mcp.md." } };
  return new Elysia({ name: "mcp" }).post("/mcp", handle, doc).get("/mcp", handle, doc).delete("/mcp", handle, doc);
};
