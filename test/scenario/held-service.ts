// A loopback service that holds requests until the test releases them, and the nodes of a
// `/slow` command whose http_request calls it: a turn that stays long for as long as a test needs
// (docs/runtime.md#taking-updates); or of a shop whose checkout asks it, so a payment waits for the
// bot's confirmation until the test lets it (docs/nodes/payments.md). The bot needs
// BOTLOOM_EGRESS_ALLOW=127.0.0.1 to reach it.
import { node } from "./harness";

/** `first`: only the first so many requests are held, later ones are answered at once (default: every one held). */
export function heldService(opts: { first?: number } = {}) {
  /** one release per request held, in arrival order; it answers `answer` as JSON */
  const held: ((answer?: unknown) => void)[] = [];
  let seen = 0;
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    // held for as long as the test says, not Bun's 10 s of idle
    idleTimeout: 0,
    fetch: () => {
      if (++seen > (opts.first ?? Infinity)) return Response.json({ ok: true });
      return new Promise<Response>((resolve) => held.push((answer = { ok: true }) => resolve(Response.json(answer))));
    },
  });
  const url = `http://127.0.0.1:${server.port}/slow`;
  return {
    held,
    /** the service's address (any path is held alike) */
    url,
    /** `/slow` → an http_request held here → "slow done" */
    slowCommand: () => [
      node("cmd-slow", "command_trigger", { command: "/slow", autoTransitionTo: "call" }),
      node("call", "http_request", { httpRequestUrl: url, httpRequestTimeout: 60, httpRequestResponseVariable: "r", autoTransitionTo: "done" }),
      node("done", "message", { messageText: "slow done" }),
    ],
    /**
     * `/buy` → an invoice of 5 ⭐ ("Premium"); its checkout asks the held service and refuses with
     * "Sold out, sorry" when the answer is `{ left: 0 }`; a payment → "paid 5"
     */
    heldCheckout: () => [
      node("cmd-buy", "command_trigger", { command: "/buy", autoTransitionTo: "bill" }),
      node("bill", "invoice", { title: "Premium", description: "A month of premium", amount: 5, payload: "premium" }),
      node("checkout", "checkout_trigger", { autoTransitionTo: "stock" }),
      node("stock", "http_request", { httpRequestUrl: url.replace("/slow", "/stock"), httpRequestTimeout: 60, httpRequestResponseVariable: "stock", autoTransitionTo: "decide" }),
      node("decide", "condition", { variable: "stock.left", branches: [{ id: "none", operator: "equals", value: "0", target: "refuse" }] }),
      node("refuse", "refuse_checkout", { reason: "Sold out, sorry" }),
      node("paid", "payment_trigger", { autoTransitionTo: "thanks" }),
      node("thanks", "message", { messageText: "paid {payment_amount}" }),
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
