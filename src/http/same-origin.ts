// Whether a request was sent by a page of another site (docs/security.md "Login"). Browsers mark
// their requests (Sec-Fetch-Site, Origin); API clients and scripts send neither and are not judged.

/** The request came from a browser: only browsers send these, and a forged page cannot omit them. */
export function fromBrowser(headers: Headers): boolean {
  return headers.has("origin") || headers.has("sec-fetch-site");
}

/**
 * True when a browser says another site sent this request. Sec-Fetch-Site is the browser's own
 * verdict and survives a proxy that rewrites Host; without it, the Origin's host must be ours
 * (the Host header or the request URL's host, or the host of `extraHosts`, e.g. WEBHOOK_BASE_URL behind a proxy).
 */
export function fromOtherSite(request: Request, extraHosts: readonly string[] = []): boolean {
  const headers = request.headers;
  const site = headers.get("sec-fetch-site");
  if (site) return site !== "same-origin" && site !== "none";
  const origin = headers.get("origin");
  if (origin === null) return false;
  let host: string;
  try {
    host = new URL(origin).host;
  } catch {
    return true; // "null" (sandboxed frames, some redirects) or garbage: not us
  }
  const ours = headers.get("host") ?? new URL(request.url).host;
  return host !== ours && !extraHosts.includes(host);
}

const READS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * A browser's request that changes something and says another site sent it: what a cookie of
 * SameSite=Lax still goes with from a page of the same site (docs/security.md "Cross-site requests").
 */
export function crossSiteWrite(request: Request, extraHosts: readonly string[] = []): boolean {
  return !READS.has(request.method) && fromOtherSite(request, extraHosts);
}
