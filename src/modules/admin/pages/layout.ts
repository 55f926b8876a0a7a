// Server-rendered admin pages: plain HTML, no framework, no CDN; everything is embedded in the binary.
import css from "../../../../assets/admin/admin.css" with { type: "text" };
import { htmlSecurityHeaders, newNonce } from "../../../http/security-headers";

const ESC: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
export const esc = (s: unknown) => String(s ?? "").replace(/[&<>"']/g, (c) => ESC[c]);

export function page(title: string, body: string, opts: { nav?: "hub" | "settings"; script?: string } = {}): Response {
  // "Open the Studio": once the platform is set up, the admin's next step is the Studio itself
  const link = (href: string, label: string, here: boolean) => `<a href="${href}"${here ? ` aria-current="page"` : ""}>${label}</a>`;
  const nav = opts.nav
    ? `<nav aria-label="Admin">${link("/admin", "Hub", opts.nav === "hub")}${link("/admin/settings", "Settings", opts.nav === "settings")}${link("/", "Open the Studio", false)}<form method="post" action="/admin/api/logout"><button class="secondary" type="submit">Log out</button></form></nav>`
    : "";
  // The style and the hub's script are inline, each carrying this response's nonce: the policy
  // allows no other inline script, so injected markup could never run one.
  const nonce = newNonce();
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)} · Botloom admin</title><link rel="icon" href="data:,"><style nonce="${nonce}">${css}</style></head>
<body><header><h1>Botloom admin</h1>${nav}</header><main>${body}</main>${opts.script ? `<script type="module" nonce="${nonce}">${opts.script}</script>` : ""}</body></html>`;
  return new Response(html, {
    headers: {
      "content-type": "text/html; charset=utf-8",
      "cache-control": "no-store",
      ...htmlSecurityHeaders({ nonce }),
    },
  });
}

export const redirect = (location: string, status = 302) => new Response(null, { status, headers: { location } });
