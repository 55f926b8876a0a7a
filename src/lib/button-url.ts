// Which button URLs Telegram accepts (docs/preview.md "Button URLs"): http(s) and tg:// links, or
// a bare host it reads as http. `javascript:`, `data:`, `file:` and every other scheme are refused
// with "Unsupported URL protocol"; the preview emulator refuses them alike, and the Studio links
// only URLs that pass (web/src/preview imports this too).

const SCHEME = /^([A-Za-z][A-Za-z0-9+.-]*):/;
const ALLOWED = new Set(["http", "https", "tg"]);

/** Why Telegram would refuse `url` as a button URL, or null when it is fine. */
export function buttonUrlProblem(url: unknown): "Wrong HTTP URL" | "Unsupported URL protocol" | null {
  // Whitespace and control characters: browsers drop some of them while parsing, so "java\tscript:"
  // would still run as a script; Telegram refuses them as a wrong URL.
  if (typeof url !== "string" || url.length === 0 || url.length > 2048 || /[\s\u0000-\u001f\u007f-\u009f]/.test(url)) return "Wrong HTTP URL";
  const scheme = SCHEME.exec(url);
  if (scheme) return ALLOWED.has(scheme[1].toLowerCase()) ? null : "Unsupported URL protocol";
  // No scheme: a host name (Telegram adds http://); anything else ("/x", "//x", "\x") is not one.
  return /^[A-Za-z0-9]/.test(url) ? null : "Wrong HTTP URL";
}

/** The href a link to a button URL may carry: the URL itself (with http:// for a bare host), or null. */
export function buttonHref(url: unknown): string | null {
  if (buttonUrlProblem(url) !== null) return null;
  const u = url as string;
  return SCHEME.test(u) ? u : `http://${u}`;
}

/**
 * Telegram opens a Mini App (a web_app button) only over https: the editor warns, the emulator
 * refuses, the Studio opens only such a URL. (The bot's runtime, which imports nothing of the
 * platform, checks the same rule in runtime/messages.ts `shows`.)
 */
export function isMiniAppUrl(url: unknown): url is string {
  return typeof url === "string" && /^https:\/\/[^\s/]+/i.test(url) && !/\s/.test(url);
}

/** The colours a button may have (`style`, Bot API 9.4): blue, green, red. */
export const BUTTON_STYLES = ["primary", "success", "danger"] as const;
