// Security headers of the app's HTML: scripts only from our origin (the Telegram Login Widget's
// script and frame are the one exception, and only in messenger_widget mode), no framing.
export function studioHeaders(widget: boolean): Record<string, string> {
  const tg = widget ? " https://telegram.org" : "";
  const csp = [
    "default-src 'self'",
    `script-src 'self'${tg}`,
    // React Flow positions nodes with style attributes.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:" + (widget ? " https://t.me https://telegram.org" : ""),
    "connect-src 'self'",
    `frame-src ${widget ? "https://oauth.telegram.org" : "'none'"}`,
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "object-src 'none'",
  ].join("; ");
  return {
    "content-security-policy": csp,
    "referrer-policy": "same-origin",
    "x-frame-options": "DENY",
  };
}
