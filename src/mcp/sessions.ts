// MCP sessions over Streamable HTTP: one transport and one server per session, bound to the user
// who opened it. A request naming another user's session is answered like an unknown session.
// Refusals of our own use the platform's error shape; the SDK's transport answers protocol errors.
// Sessions are bounded: idle ones close after IDLE_MS, a user's oldest goes when he opens more
// than PER_USER, and the least recently used of all goes beyond MAX_SESSIONS, so an agent that never
// says goodbye cannot fill the memory. The last bound matters for bot_manager PATs, which open
// sessions for any messenger_id (~370 KB each: 1,000 took 373 MB of RSS, measured).
import { randomUUID } from "node:crypto";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { AppContext } from "../context";
import { jsonError } from "../http/errors";
import { createMcpServer } from "./server";

const IDLE_MS = 30 * 60_000;
const PER_USER = 10;
const MAX_SESSIONS = 256;
/** The JSON body limit of the API (docs/api.md#limits): a whole scenario may travel in one call. */
const MAX_BODY = 10 * 1024 * 1024;

interface Session {
  id: string;
  userId: number;
  transport: WebStandardStreamableHTTPServerTransport;
  server: McpServer;
  lastSeen: number;
}

export class McpSessions {
  private readonly sessions = new Map<string, Session>();
  private readonly sweeper: ReturnType<typeof setInterval>;

  constructor(private readonly ctx: AppContext, private readonly idleMs = IDLE_MS, private readonly maxSessions = MAX_SESSIONS) {
    this.sweeper = setInterval(() => this.sweep(), Math.min(60_000, idleMs));
    this.sweeper.unref?.();
  }

  get size() {
    return this.sessions.size;
  }

  async handle(request: Request, userId: number): Promise<Response> {
    const sessionId = request.headers.get("mcp-session-id");
    if (sessionId) {
      const s = this.sessions.get(sessionId);
      if (!s || s.userId !== userId) return jsonError(404, "NOT_FOUND", "MCP session not found: start a new one with an initialize request");
      s.lastSeen = Date.now();
      return s.transport.handleRequest(request);
    }
    if (request.method !== "POST") return jsonError(400, "VALIDATION_FAILED", "No MCP session id: start a session with an initialize request (POST)");
    return this.open(request, userId);
  }

  private async open(request: Request, userId: number): Promise<Response> {
    let session: Session | undefined;
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      enableJsonResponse: true,
      maxRequestBodySize: MAX_BODY,
      onsessioninitialized: (id) => {
        if (!session) return;
        session.id = id;
        this.sessions.set(id, session);
        this.limitUser(userId);
        this.limitAll();
      },
      onsessionclosed: (id) => void this.close(id),
    });
    const server = createMcpServer({
      ctx: this.ctx,
      userId,
      sessionId: () => transport.sessionId ?? "",
      clientName: () => server.server.getClientVersion()?.name ?? "MCP agent",
    });
    session = { id: "", userId, transport, server, lastSeen: Date.now() };
    await server.connect(transport);
    const response = await transport.handleRequest(request);
    // Not an initialize request (or a refused one): nothing to keep.
    if (!transport.sessionId || !this.sessions.has(transport.sessionId)) await server.close().catch(() => undefined);
    return response;
  }

  private limitUser(userId: number) {
    const mine = [...this.sessions.values()].filter((s) => s.userId === userId).sort((a, b) => a.lastSeen - b.lastSeen);
    for (const s of mine.slice(0, Math.max(0, mine.length - PER_USER))) void this.close(s.id);
  }

  private limitAll() {
    if (this.sessions.size <= this.maxSessions) return;
    const all = [...this.sessions.values()].sort((a, b) => a.lastSeen - b.lastSeen);
    for (const s of all.slice(0, this.sessions.size - this.maxSessions)) void this.close(s.id);
  }

  private sweep() {
    const cutoff = Date.now() - this.idleMs;
    for (const s of this.sessions.values()) if (s.lastSeen < cutoff) void this.close(s.id);
  }

  async close(id: string) {
    const s = this.sessions.get(id);
    if (!s) return;
    this.sessions.delete(id);
    await s.server.close().catch(() => undefined);
  }

  /** Closes every session (server shutdown). */
  async closeAll() {
    clearInterval(this.sweeper);
    await Promise.all([...this.sessions.keys()].map((id) => this.close(id)));
  }
}
