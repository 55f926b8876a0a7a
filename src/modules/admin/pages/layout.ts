// Server-rendered admin pages: plain HTML, no framework, no CDN; everything is embedded in the binary.
import css from "../../../../assets/admin/admin.css" with { type: "text" };

const ESC: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
export const esc = (s: unknown) => String(s ?? "").replace(/[&<>"']/g, (c) => ESC[c]);

export function page(title: string, body: string, opts: { nav?: "hub" | "settings"; script?: string } = {}): Response {
  const link = (href: string, label: string, here: boolean) => `<a href="${href}"${here ? ` aria-current="page"` : ""}>${label}</a>`;
  const nav = opts.nav
    ? `<nav aria-label="Admin">${link("/admin", "Hub", opts.nav === "hub")}${link("/admin/settings", "Settings", opts.nav === "settings")}<form method="post" action="/admin/api/logout"><button class="secondary" type="submit">Log out</button></form></nav>`
    : "";
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)} · Botloom admin</title><link rel="icon" href="data:,"><style>${css}</style></head>
<body><header><h1>Botloom admin</h1>${nav}</header><main>${body}</main>${opts.script ? `<script type="module">${opts.script}</script>` : ""}</body></html>`;
  return new Response(html, {
    headers: {
      "content-type": "text/html; charset=utf-8",
      "cache-control": "no-store",
      "x-frame-options": "DENY",
      "content-security-policy": "default-src 'self'; style-src 'unsafe-inline'; script-src 'unsafe-inline' 'self'; img-src 'self' data: https:; frame-ancestors 'none'",
    },
  });
}

export const redirect = (location: string, status = 302) => new Response(null, { status, headers: { location } });
