// A loopback "admin API" for the egress tests: it stands for every internal service a scenario
// must not reach, and counts the requests that reached it anyway.
export const INTERNAL_SECRET = "internal-admin-status-7f3a";

export interface InternalService {
  port: number;
  /** requests that reached the service */
  hits(): number;
  stop(): void;
}

export function startInternalService(): InternalService {
  let hits = 0;
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: () => {
      hits++;
      return Response.json({ secret: INTERNAL_SECRET });
    },
  });
  return { port: server.port!, hits: () => hits, stop: () => server.stop(true) };
}
