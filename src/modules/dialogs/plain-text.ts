// The chat list's last line is the text the user saw, without markup (docs/dialogs.md). The bot's
// own sends record the messenger's plain text for it; an operator's or a campaign's send is
// recorded from the marked-up text it was sent as, so its markup is taken off here.

const ENTITIES: Record<string, string> = { lt: "<", gt: ">", amp: "&", quot: '"' };

/** Telegram HTML → its text: tags dropped, the four entities Telegram knows (and numeric ones) read. */
function htmlText(text: string): string {
  return text
    .replace(/<[^>]*>/g, "")
    .replace(/&(?:#(\d{1,7})|#x([0-9a-f]{1,6})|(lt|gt|amp|quot));/gi, (all, dec: string | undefined, hex: string | undefined, name: string | undefined) => {
      const code = dec !== undefined ? Number(dec) : hex !== undefined ? parseInt(hex, 16) : -1;
      if (code >= 0) return code <= 0x10ffff ? String.fromCodePoint(code) : all;
      return ENTITIES[name!.toLowerCase()] ?? all;
    });
}

/** Markdown (legacy and V2) → its text: links to their words, markers dropped, escapes read. */
function markdownText(text: string): string {
  return text
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/\\(.)|(\|\||[*_~`])/g, (_all, escaped: string | undefined) => escaped ?? "");
}

/** The plain text of a message sent with `format` (null or "none": as it is). */
export function plainText(text: string, format: string | null | undefined): string {
  if (format === "html") return htmlText(text);
  if (format === "markdown" || format === "markdownv2") return markdownText(text);
  return text;
}
