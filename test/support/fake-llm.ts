// A local stand-in for an OpenAI-compatible chat-completions endpoint (POST /v1/chat/completions) on
// 127.0.0.1, for the ai_answer node's tests: nothing calls the internet. The request's `model`
// picks the behaviour, so one server serves every case of a scenario:
//   echo     → 200, the answer "echo: <last user message>" (and how many messages came)
//   hang     → never answers (until the server stops): the node's timeout must end it
//   fail     → 500 with an OpenAI-style error body
//   garbage  → 200 with a body that is not JSON
//   empty    → 200 with `choices: []`
//   huge     → 200 streaming 5 MB without a content-length (an answer that never ends, cut short)
//   parrot   → 200, the answer is the last user message as it came
//   big      → 200, the answer "ж" (2 bytes in UTF-8) as many times as the last user message says
//   badkey   → 401 whose error message quotes the Authorization header it got (as some gateways do)
// Every request is recorded (its headers and parsed body) for the test to read.

export interface LlmRequest {
  authorization: string | null;
  body: { model?: string; messages?: { role: string; content: string }[]; temperature?: number; max_tokens?: number };
}

export interface FakeLlm {
  /** base URL to put in the node (…/v1) */
  url: string;
  port: number;
  requests: LlmRequest[];
  /** resolves when the n-th request (1-based) has arrived */
  arrived(n: number): Promise<LlmRequest>;
  stop(): Promise<void>;
}

export function startFakeLlm(): FakeLlm {
  const requests: LlmRequest[] = [];
  const waiters: { n: number; resolve: (r: LlmRequest) => void }[] = [];
  const hanging = new Set<() => void>();
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    idleTimeout: 0,
    async fetch(req) {
      const path = new URL(req.url).pathname;
      if (req.method !== "POST" || path !== "/v1/chat/completions") return Response.json({ error: { message: "not found" } }, { status: 404 });
      let body: LlmRequest["body"];
      try {
        body = (await req.json()) as LlmRequest["body"];
      } catch {
        return Response.json({ error: { message: "bad JSON" } }, { status: 400 });
      }
      const got: LlmRequest = { authorization: req.headers.get("authorization"), body };
      requests.push(got);
      for (const w of waiters.splice(0)) {
        if (requests.length >= w.n) w.resolve(requests[w.n - 1]!);
        else waiters.push(w);
      }
      switch (body.model) {
        case "hang":
          await new Promise<void>((resolve) => hanging.add(resolve));
          return new Response("late", { status: 200 });
        case "fail":
          return Response.json({ error: { message: "the model is overloaded", type: "server_error" } }, { status: 500 });
        case "badkey":
          return Response.json({ error: { message: `Invalid API key provided: ${got.authorization ?? ""}` } }, { status: 401 });
        case "garbage":
          return new Response("<html>definitely not JSON", { status: 200, headers: { "content-type": "application/json" } });
        case "empty":
          return Response.json({ id: "x", object: "chat.completion", choices: [] });
        case "huge": {
          const chunk = new TextEncoder().encode("x".repeat(64 * 1024));
          let sent = 0;
          const body = new ReadableStream<Uint8Array>({
            pull(controller) {
              if (sent >= 80) return controller.close();
              sent++;
              controller.enqueue(chunk);
            },
          });
          return new Response(body, { status: 200, headers: { "content-type": "application/json" } });
        }
        case "parrot": {
          const users = (body.messages ?? []).filter((m) => m.role === "user");
          const content = users[users.length - 1]?.content ?? "";
          return Response.json({ id: "x", object: "chat.completion", model: body.model, choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }] });
        }
        case "big": {
          const users = (body.messages ?? []).filter((m) => m.role === "user");
          const content = "ж".repeat(Number(users[users.length - 1]?.content) || 1);
          return Response.json({ id: "x", object: "chat.completion", model: body.model, choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }] });
        }
        default: {
          const users = (body.messages ?? []).filter((m) => m.role === "user");
          const content = `echo: ${users[users.length - 1]?.content ?? ""} (${body.messages?.length ?? 0} messages)`;
          return Response.json({ id: "x", object: "chat.completion", model: body.model, choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }] });
        }
      }
    },
  });
  return {
    url: `http://127.0.0.1:${server.port}/v1`,
    port: server.port!,
    requests,
    arrived: (n) => (requests.length >= n ? Promise.resolve(requests[n - 1]!) : new Promise((resolve) => waiters.push({ n, resolve }))),
    async stop() {
      for (const release of hanging) release();
      await server.stop(true);
    },
  };
}
