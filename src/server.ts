// Starts and stops the HTTP server around an AppContext (used by `serve` and end-to-end tests).
import type { AppContext } from "./context";
import { createApp } from "./app";
import { SERVER_BODY_LIMIT } from "./http/body-limit";
import { closeDatabase } from "./db/client";

export interface RunningServer {
  url: string;
  port: number;
  stop(): Promise<void>;
}

/** `requestGraceMs`: how long a stopping server lets requests in flight finish before it closes every connection. */
/** A host to reach a server listening on `host`: loopback for a wildcard listen, IPv6 in brackets. */
export function reachableHost(host: string, loopbackName = "127.0.0.1"): string {
  if (["0.0.0.0", "::", "[::]", ""].includes(host)) return loopbackName;
  return host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
}

export async function startServer(ctx: AppContext, { requestGraceMs = 5000 } = {}): Promise<RunningServer> {
  const app = createApp(ctx);
  app.listen({ port: ctx.config.port, hostname: ctx.config.host, maxRequestBodySize: SERVER_BODY_LIMIT });
  const server = app.server!;
  // A wildcard listen is reachable on loopback; a specific address only on itself.
  const url = `http://${reachableHost(ctx.config.host)}:${server.port}`;
  ctx.state.localUrl = url;
  let stopped = false;
  return {
    url,
    port: server.port!,
    async stop() {
      if (stopped) return;
      stopped = true;
      // Stop accepting requests first, then the bots (they restart on the next start), then the database.
      // Requests in flight get a grace period; an open WebSocket (/api/events) would hold stop(false) forever.
      await Promise.race([server.stop(false), Bun.sleep(requestGraceMs)]);
      await server.stop(true);
      await ctx.preview.stopAll();
      await ctx.bots.shutdown();
      ctx.projectFiles.closeAll();
      closeDatabase(ctx.db);
    },
  };
}
