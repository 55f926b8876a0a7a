// Starts and stops the HTTP server around an AppContext (used by `serve` and end-to-end tests).
import { websocket } from "elysia/ws";
import type { AppContext } from "./context";
import { createApp } from "./app";
import { closeDatabase } from "./db/client";
import { listen, reachableHost, type Listener } from "./listener";
import { appHealth } from "./modules/health/status";

export { reachableHost };

export interface RunningServer {
  url: string;
  port: number;
  stop(): Promise<void>;
}

/**
 * `requestGraceMs`: how long a stopping server lets requests in flight finish before it closes
 * every connection. `listener`: one `serve` opened before the context existed (src/listener.ts);
 * without it the server listens here.
 */
export async function startServer(ctx: AppContext, { requestGraceMs = 5000, listener }: { requestGraceMs?: number; listener?: Listener } = {}): Promise<RunningServer> {
  const app = createApp(ctx);
  const front =
    listener ?? listen({ host: ctx.config.host, port: ctx.config.port, health: () => appHealth(ctx) });
  const server = front.server;
  // A wildcard listen is reachable on loopback; a specific address only on itself.
  const url = `http://${reachableHost(ctx.config.host)}:${server.port}`;
  ctx.state.localUrl = url;
  front.open(app, websocket);
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
      await ctx.campaigns.stop();
      await ctx.preview.stopAll();
      await ctx.bots.shutdown();
      ctx.projectFiles.closeAll();
      closeDatabase(ctx.db);
    },
  };
}
