// The HTTP listener. `serve` opens it as soon as the database is open, before the app's modules
// are loaded: loading and wiring them (Elysia, every route and its schemas, the services) took about
// two thirds of a cold start (bench/cold-start.ts). Until the app is handed over, the listener
// answers the health probe itself and holds every other request; the app answers those the moment
// it is ready, so no client ever sees a refusal or a different answer, only a wait of some
// milliseconds. This file imports nothing heavy.
import type { Server, WebSocketHandler } from "bun";
import { BASELINE_HEADERS } from "./http/security-headers";
import { SERVER_BODY_LIMIT } from "./http/body-size";
import { pathOf } from "./http/path";
import type { HealthStatus } from "./modules/health/status";

const HEALTH_PATH = "/api/health";

/** What the listener hands requests to once it is ready (an Elysia app). */
export interface RequestHandler {
  fetch(request: Request): Response | Promise<Response>;
  /** Set by the listener: WebSocket upgrades and client addresses go through it. */
  server: Server<any> | null;
}

export interface Listener {
  readonly server: Server<any>;
  readonly port: number;
  /** From now on, and for every request held so far, the app answers. */
  open(app: RequestHandler, websocket: SocketEvents): void;
  /** Whether the app answers yet. */
  readonly opened: boolean;
}

/** The app's WebSocket event handlers (Elysia's, which dispatch on the socket's data). */
export type SocketEvents = Partial<Record<"open" | "message" | "drain" | "close" | "ping" | "pong", (ws: any, ...args: any[]) => unknown>>;

export interface ListenOptions {
  host: string;
  port: number;
  /** The health probe's answer while the app is loading (docs/api.md#health-and-docs). */
  health: () => HealthStatus;
}

/** A host to reach a server listening on `host`: loopback for a wildcard listen, IPv6 in brackets. */
export function reachableHost(host: string, loopbackName = "127.0.0.1"): string {
  if (["0.0.0.0", "::", "[::]", ""].includes(host)) return loopbackName;
  return host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
}

/** The health route's answer, byte for byte (test/foundation/listener.test.ts compares them). */
function healthResponse(method: string, status: HealthStatus): Response {
  if (method === "HEAD") return new Response(null, { status: 204, headers: BASELINE_HEADERS });
  return Response.json(status, { headers: BASELINE_HEADERS });
}

export function listen(opts: ListenOptions): Listener {
  let app: RequestHandler | null = null;
  let sockets: SocketEvents = {};
  const ready = Promise.withResolvers<RequestHandler>();
  // A socket exists only after the app upgraded it, so `sockets` is set by then.
  const relay: WebSocketHandler<any> = {
    open: (ws) => void sockets.open?.(ws),
    message: (ws, message) => void sockets.message?.(ws, message),
    drain: (ws) => void sockets.drain?.(ws),
    close: (ws, code, reason) => void sockets.close?.(ws, code, reason),
    ping: (ws, data) => void sockets.ping?.(ws, data),
    pong: (ws, data) => void sockets.pong?.(ws, data),
  };
  const server = Bun.serve({
    hostname: opts.host,
    port: opts.port,
    maxRequestBodySize: SERVER_BODY_LIMIT,
    // Not Elysia's listen() default (reusePort: true, which it had when it listened itself): with
    // it a second server started on a port already served shared that port with the first, and
    // the kernel split connections between two installs, instead of refusing to start
    // (test/e2e/start-loading.test.ts).
    reusePort: false,
    idleTimeout: 30,
    development: false,
    websocket: relay,
    fetch(request) {
      if (app) return app.fetch(request);
      if ((request.method === "GET" || request.method === "HEAD") && pathOf(request.url) === HEALTH_PATH) {
        return healthResponse(request.method, opts.health());
      }
      return ready.promise.then((handler) => handler.fetch(request));
    },
  });
  return {
    server,
    port: server.port!,
    get opened() {
      return app !== null;
    },
    open(handler, websocket) {
      if (app) throw new Error("the listener is already open");
      handler.server = server;
      sockets = websocket;
      app = handler;
      ready.resolve(handler);
    },
  };
}
