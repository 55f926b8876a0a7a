// Where to go after logging in: `?next=` may only name a path of this site (docs/security.md
// "Login"). Shared by the server and the Studio (web/src imports it), so both judge alike.

/**
 * `raw` as a same-origin path (path, query and fragment), or `fallback`. Browsers read `\` as `/`
 * and drop tabs and newlines inside URLs, so `/\host` and `/<tab>/host` would leave the site:
 * anything with those, control characters or a second leading slash is refused outright, and
 * what remains must resolve to the page's own origin.
 */
export function safeNextPath(raw: string | null | undefined, fallback = "/projects"): string {
  if (typeof raw !== "string" || raw.length === 0 || raw.length > 2000) return fallback;
  if (raw[0] !== "/" || raw[1] === "/") return fallback;
  if (/[\\\u0000-\u0020\u007f-\u009f]/.test(raw)) return fallback;
  const base = "http://same.invalid";
  let url: URL;
  try {
    url = new URL(raw, base);
  } catch {
    return fallback;
  }
  if (url.origin !== base) return fallback;
  const path = url.pathname + url.search + url.hash;
  return path.startsWith("//") ? fallback : path;
}
