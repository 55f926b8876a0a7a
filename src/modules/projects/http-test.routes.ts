// POST /api/projects/{id}/http-test: the editor's "send test request" of an http_request node.
// The server sends the request (the browser may not: the Studio's CSP allows only its own origin),
// the way a bot of this project would, with its limits: http(s) only, a timeout of at most 30 s, at
// most 64 KB of the answer kept, under the egress policy of bots (public addresses only unless the
// operator allows more; every redirect hop checked; docs/security.md "Egress policy"). Variables in
// the node are not substituted: the request goes out as written. Never logged: the URL, headers
// and body may hold secrets.
import { Elysia } from "elysia";
import { z } from "zod";
import type { AppContext } from "../../context";
import { authPlugin } from "../../http/auth";
import { parsePositiveId } from "../../http/params";
import { AppError, badRequest } from "../../errors";
import { EgressError, egressFetch, egressPolicy, type EgressPolicy } from "../../lib/shared-runtime";

export const HTTP_TEST_BODY_LIMIT = 64 * 1024;

export const httpTestSchema = z.strictObject({
  url: z.string().min(1).max(4096),
  method: z.enum(["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD"]).default("GET"),
  /** a JSON object, or the node's `httpRequestHeaders` JSON string */
  headers: z.union([z.record(z.string(), z.string().max(8192)), z.string().max(65_536)]).optional(),
  body: z.string().max(1_000_000).optional(),
  timeoutSeconds: z.number().positive().max(30).default(10),
  bearerToken: z.string().max(8192).optional(),
});
export type HttpTestInput = z.output<typeof httpTestSchema>;

export interface HttpTestResult {
  status: number;
  statusText: string;
  headers: Record<string, string>;
  body: string;
  truncated: boolean;
  durationMs: number;
}

function headersOf(raw: HttpTestInput["headers"]): Record<string, string> {
  if (raw === undefined || raw === "") return {};
  if (typeof raw !== "string") return raw;
  let v: unknown;
  try {
    v = JSON.parse(raw);
  } catch {
    throw badRequest("headers must be a JSON object of strings");
  }
  if (!v || typeof v !== "object" || Array.isArray(v)) throw badRequest("headers must be a JSON object of strings");
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, String(x)]));
}

async function readCapped(res: Response): Promise<{ body: string; truncated: boolean }> {
  if (!res.body) return { body: "", truncated: false };
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let truncated = false;
  while (true) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.length;
    if (size > HTTP_TEST_BODY_LIMIT) {
      truncated = true;
      await reader.cancel().catch(() => undefined);
      break;
    }
  }
  const all = new Uint8Array(Math.min(size, HTTP_TEST_BODY_LIMIT));
  let at = 0;
  for (const c of chunks) {
    const part = c.subarray(0, all.length - at);
    all.set(part, at);
    at += part.length;
    if (at >= all.length) break;
  }
  return { body: new TextDecoder().decode(all), truncated };
}

export async function sendTestRequest(input: HttpTestInput, policy: EgressPolicy): Promise<HttpTestResult> {
  let url: URL;
  try {
    url = new URL(input.url.trim());
  } catch {
    throw badRequest("url must be an absolute http(s) URL");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw badRequest("url must be an absolute http(s) URL");
  const headers = headersOf(input.headers);
  if (input.bearerToken) headers.authorization = `Bearer ${input.bearerToken}`;
  const withBody = input.body !== undefined && input.body !== "" && input.method !== "GET" && input.method !== "HEAD";
  if (withBody && !Object.keys(headers).some((k) => k.toLowerCase() === "content-type")) headers["content-type"] = "application/json";
  const started = performance.now();
  let res: Response;
  try {
    ({ response: res } = await egressFetch(policy, url, { method: input.method, headers, body: withBody ? input.body : undefined, signal: AbortSignal.timeout(input.timeoutSeconds * 1000) }));
  } catch (err) {
    // an address the policy refuses is the request's fault (400); a target that does not answer is 502
    if (err instanceof EgressError) throw err.refused ? badRequest(`url refused: ${err.message}`) : new AppError(502, "BAD_GATEWAY", `The request failed: ${err.message}`);
    const timedOut = (err as Error)?.name === "TimeoutError";
    throw new AppError(502, "BAD_GATEWAY", timedOut ? `No answer within ${input.timeoutSeconds} s` : "The request failed");
  }
  const { body, truncated } = await readCapped(res);
  return {
    status: res.status,
    statusText: res.statusText,
    headers: Object.fromEntries(res.headers.entries()),
    body,
    truncated,
    durationMs: Math.round(performance.now() - started),
  };
}

export const projectHttpTestRoutes = (ctx: AppContext) => {
  const policy = egressPolicy(ctx.config.egressAllow, [ctx.config.messengerApiRoot]);
  return new Elysia({ prefix: "/api/projects" }).use(authPlugin(ctx)).post(
    "/:id/http-test",
    ({ actor, params, body }) => {
      ctx.access.require(parsePositiveId(params.id, "id"), actor.userId);
      return sendTestRequest(body, policy);
    },
    {
      user: true,
      body: httpTestSchema,
      detail: {
        description:
          "Sends one HTTP request as an http_request node would (editor's \"send test request\"): http(s) only, timeout ≤ 30 s, at most 64 KB of the answer kept (`truncated`), " +
          "public addresses only unless the operator's EGRESS_ALLOW lists the target (each redirect hop checked again, at most 5). " +
          "Variables are not substituted. Any answer of the target is 200 `{ status, statusText, headers, body, truncated, durationMs }`; no answer is 502 BAD_GATEWAY; an address the egress policy refuses (or a redirect to one) is 400. Project members only.",
      },
    },
  );
};
