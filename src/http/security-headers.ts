// Security headers of every HTML page the binary serves (admin pages, the API viewer, the Studio's
// index.html) and the baseline every response gets. One builder so that no page can drift back to
// 'unsafe-inline' scripts: a page runs only script files of our origin, or an inline script that
// carries the page's nonce.
import { randomBytes } from "../lib/random";

export interface HtmlPolicy {
  /** Nonce of this response's inline <script>/<style> elements (fresh per response: newNonce()). */
  nonce?: string;
  /** Extra script origins (the Telegram Login Widget's https://telegram.org). */
  scriptSrc?: string[];
  /** Style attributes are needed by React Flow and Swagger UI; inline <style> elements use the nonce otherwise. */
  styleAttributes?: boolean;
  imgSrc?: string[];
  connectSrc?: string[];
  /** Origins allowed in <iframe> (the widget's oauth.telegram.org); none by default. */
  frameSrc?: string[];
  /** Where forms may post; 'self' by default. */
  formAction?: string;
}

/** A fresh CSP nonce (128 random bits, base64). */
export const newNonce = () => randomBytes(16).toString("base64");

/** The Content-Security-Policy of an HTML page: never 'unsafe-inline' or 'unsafe-eval' scripts. */
export function contentSecurityPolicy(p: HtmlPolicy = {}): string {
  const nonce = p.nonce ? ` 'nonce-${p.nonce}'` : "";
  const list = (xs?: string[]) => (xs?.length ? " " + xs.join(" ") : "");
  const style = p.styleAttributes ? "'self' 'unsafe-inline'" : `'self'${nonce}`;
  return [
    "default-src 'self'",
    `script-src 'self'${nonce}${list(p.scriptSrc)}`,
    `style-src ${style}`,
    `img-src 'self' data: blob:${list(p.imgSrc)}`,
    `connect-src 'self'${list(p.connectSrc)}`,
    `frame-src ${p.frameSrc?.length ? p.frameSrc.join(" ") : "'none'"}`,
    "frame-ancestors 'none'",
    "base-uri 'none'",
    `form-action ${p.formAction ?? "'self'"}`,
    "object-src 'none'",
  ].join("; ");
}

/** Headers every response carries (the global hook in app.ts adds them where a route did not). */
export const BASELINE_HEADERS: Readonly<Record<string, string>> = {
  "x-content-type-options": "nosniff",
  "referrer-policy": "same-origin",
};

/** All headers of an HTML page: CSP, frame denial (old browsers read X-Frame-Options), nosniff, referrer policy. */
export function htmlSecurityHeaders(p: HtmlPolicy = {}): Record<string, string> {
  return {
    ...BASELINE_HEADERS,
    "content-security-policy": contentSecurityPolicy(p),
    "x-frame-options": "DENY",
  };
}

/**
 * Adds the baseline to a response, and the strict page policy to an HTML response that has no CSP
 * of its own (a page some module forgot, or a plugin's page): safe by default, a route opts out
 * only by setting a policy of its own. Headers a route set are never replaced.
 */
export function withSecurityHeaders(headers: Headers): void {
  for (const [k, v] of Object.entries(BASELINE_HEADERS)) if (!headers.has(k)) headers.set(k, v);
  if (!/^text\/html\b/i.test(headers.get("content-type") ?? "")) return;
  if (!headers.has("content-security-policy")) headers.set("content-security-policy", contentSecurityPolicy());
  if (!headers.has("x-frame-options")) headers.set("x-frame-options", "DENY");
}
