// A loopback service that holds every request until the test releases it, and the nodes of a
// `/slow` command whose http_request calls it: a turn that stays long for as long as a test needs
// (docs/runtime.md#taking-updates). The bot needs BOTLOOM_EGRESS_ALLOW=127.0.0.1 to reach it.
import { node } from "./harness";

export function heldService() {
  /** one release per request held, in arrival order */
  const held: (() => void)[] = [];
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: () => new Promise<Response>((resolve) => held.push(() => resolve(Response.json({ ok: true })))),
  });
  return {
    held,
    /** `/slow` → an http_request held here → "slow done" */
    slowCommand: () => [
      node("cmd-slow", "command_trigger", { command: "/slow", autoTransitionTo: "call" }),
      node("call", "http_request", { httpRequestUrl: `http://127.0.0.1:${server.port}/slow`, httpRequestTimeout: 60, httpRequestResponseVariable: "r", autoTransitionTo: "done" }),
      node("done", "message", { messageText: "slow done" }),
    ],
    /** answers whatever is held (before the bot stops: its turns end) */
    releaseAll() {
      for (const release of held.splice(0)) release();
    },
    stop() {
      server.stop(true);
    },
  };
}
