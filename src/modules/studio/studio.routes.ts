// The Studio web app (web/): its built files are embedded in the executable (web/dist/bundle.ts,
// written by scripts/build-web.ts) and served here. App routes answer index.html so the client
// router takes over (the same prefixes as web/src/routes.tsx); /api, /admin and /uploads never
// fall back to it. Any other address answers 404; to a browser's navigation that 404 is the app's
// page (studioNotFound, docs/studio.md). Built assets have hashed names: a file never changes under its URL.
import { Elysia } from "elysia";
import type { AppContext } from "../../context";
import { WEB_FILES } from "../../../web/dist/bundle";
import { studioHeaders } from "./headers";
import { acceptsGzip } from "../../lib/accept-encoding";
import { isBrowserNavigation } from "./navigation";

function serveFile(request: Request, url: string, cache: string, extra: Record<string, string> = {}, status = 200): Response | undefined {
  const entry = WEB_FILES[url];
  if (!entry) return undefined;
  const gzip = entry.gzip && acceptsGzip(request);
  const file = Bun.file(gzip ? entry.gzip! : entry.path);
  const headers: Record<string, string> = {
    "content-type": Bun.file(entry.path).type,
    "cache-control": cache,
    "x-content-type-options": "nosniff",
    vary: "accept-encoding",
    ...extra,
  };
  if (gzip) headers["content-encoding"] = "gzip";
  return new Response(request.method === "HEAD" ? null : file, { status, headers });
}

const appPage = (ctx: AppContext, request: Request, status?: number) =>
  serveFile(request, "/index.html", "no-cache", studioHeaders(ctx.settings.loginMode() === "messenger_widget"), status);

/**
 * The answer to an address no route has, when a person's browser opened it: the app's page with
 * status 404, so the app shows its own "Page not found" in the person's language. Anything else
 * (and a server without the built app) gets undefined: the JSON 404 of docs/api.md#errors.
 */
export function studioNotFound(ctx: AppContext) {
  return (request: Request): Response | undefined => (isBrowserNavigation(request) ? appPage(ctx, request, 404) : undefined);
}

export function studioRoutes(ctx: AppContext) {
  const index = (request: Request) => appPage(ctx, request) ?? new Response("The web app is not built: run `npm run build:web`", { status: 503 });
  const page = ({ request }: { request: Request }) => index(request);
  const hide = { detail: { hide: true } };
  return new Elysia({ name: "studio" })
    .get("/assets/*", ({ request, params }) => serveFile(request, `/assets/${params["*"]}`, "public, max-age=31536000, immutable") ?? new Response("Not found", { status: 404 }), hide)
    .get("/", page, hide)
    .get("/login", page, hide)
    .get("/projects", page, hide)
    .get("/projects/*", page, hide)
    .get("/templates", page, hide)
    .get("/templates/*", page, hide)
    .get("/account", page, hide);
}
