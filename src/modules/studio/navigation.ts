// Which requests are a person's browser opening an address (docs/studio.md#addresses-the-app-does-not-have):
// a GET (or its HEAD) whose Accept ranks text/html above JSON and "anything", outside the
// paths that belong to programs. Only those get the app's page for an address nobody serves; an API
// client, a scanner or a script keeps the JSON 404 of docs/api.md#errors.

/** Paths that are never the app's, even to a browser: the APIs, MCP, the webhook intakes (under /api), files. */
const NOT_THE_APP = ["/api", "/admin/api", "/mcp", "/uploads", "/assets"];

/** The weight (RFC 9110 §12.4.2) of each media range of an Accept header. */
function weights(accept: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const part of accept.split(",")) {
    const [range, ...params] = part.trim().toLowerCase().split(";");
    if (!range) continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    const weight = q === undefined ? 1 : Number(q.slice(2));
    out.set(range.trim(), Number.isFinite(weight) ? weight : 0);
  }
  return out;
}

/**
 * Whether the client ranks HTML above JSON and above "anything": a browser's navigation does
 * ("text/html,…,image/webp,*\/*;q=0.8"; the image types beside it are no answer of ours), while
 * "*\/*" alone, "application/json" or a tie between HTML and either does not.
 */
export function prefersHtml(accept: string | null): boolean {
  if (!accept) return false;
  const w = weights(accept);
  const html = w.get("text/html") ?? 0;
  return html > 0 && html > (w.get("*/*") ?? 0) && html > (w.get("application/json") ?? 0);
}

export function isBrowserNavigation(request: Request): boolean {
  if (request.method !== "GET" && request.method !== "HEAD") return false;
  const path = new URL(request.url).pathname;
  if (NOT_THE_APP.some((p) => path === p || path.startsWith(`${p}/`))) return false;
  return prefersHtml(request.headers.get("accept"));
}
