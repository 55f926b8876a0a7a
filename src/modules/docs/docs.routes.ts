// The API reference: the OpenAPI document at /api/openapi.json and a Swagger UI viewer at
// /api/docs whose every file is embedded in the executable (no CDN: it works offline and behind
// a firewall). /api/docs/json, the older address of the document, redirects there.
import { Elysia } from "elysia";
import { openapi } from "@elysiajs/openapi";
import { z } from "zod";
import bundlePath from "swagger-ui-dist/swagger-ui-bundle.js" with { type: "file" };
import cssPath from "swagger-ui-dist/swagger-ui.css" with { type: "file" };
import initPath from "../../../assets/api-docs/init.js" with { type: "file" };
import { htmlSecurityHeaders } from "../../http/security-headers";
import { API_TAGS } from "../../http/openapi-tags";

export const OPENAPI_PATH = "/api/openapi.json";

const PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Botloom API</title><link rel="icon" href="data:,">
<link rel="stylesheet" href="/api/docs/swagger-ui.css"></head>
<body><noscript>The viewer needs JavaScript. The OpenAPI document itself is at <a href="${OPENAPI_PATH}">${OPENAPI_PATH}</a>.</noscript>
<div id="swagger-ui"></div>
<script src="/api/docs/swagger-ui-bundle.js"></script>
<script src="/api/docs/init.js"></script>
</body></html>`;

const asset = (path: string, type: string) => () =>
  new Response(Bun.file(path), {
    headers: { "content-type": type, "cache-control": "public, max-age=3600", "x-content-type-options": "nosniff" },
  });

const hidden = { detail: { hide: true } };

export const docsRoutes = () =>
  new Elysia()
    .use(
      openapi({
        path: "/api/docs",
        specPath: OPENAPI_PATH,
        // The viewer below replaces the plugin's own page, which loads its viewer from a CDN.
        provider: null,
        // Transforms have no JSON Schema: "any" documents them as {} instead of zod throwing, which
        // dropped those schemas and printed a stack trace per schema on the first request.
        mapJsonSchema: { zod: (schema: z.ZodType) => z.toJSONSchema(schema, { unrepresentable: "any" }) },
        documentation: { info: { title: "Botloom API", version: "1", description: "The HTTP API of this Botloom server, grouped by module; the guide is docs/api.md in the repository." }, tags: [...API_TAGS] },
        // The admin area is a browser UI of its own; only its backup API is meant for scripts too.
        exclude: { paths: [/^\/admin(?!\/api\/backups)/] },
      }),
    )
    .get(
      "/api/docs",
      () =>
        new Response(PAGE, {
          // Script files of this origin only (no inline script); Swagger UI sets style attributes.
          headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-cache", ...htmlSecurityHeaders({ styleAttributes: true }) },
        }),
      hidden,
    )
    .get("/api/docs/json", () => new Response(null, { status: 301, headers: { location: OPENAPI_PATH } }), hidden)
    .get("/api/docs/swagger-ui-bundle.js", asset(bundlePath, "text/javascript; charset=utf-8"), hidden)
    .get("/api/docs/swagger-ui.css", asset(cssPath, "text/css; charset=utf-8"), hidden)
    .get("/api/docs/init.js", asset(initPath, "text/javascript; charset=utf-8"), hidden);
