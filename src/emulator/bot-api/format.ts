// Telegram rejects badly formed HTML/Markdown with "can't parse entities" instead of sending it;
// a bot that forgets to escape user text breaks in production, so the fake rejects it too. The
// parsers follow Telegram's rules closely enough to catch such bugs, and return the plain text
// that Telegram would show (markup removed) for the echoed Message.
import { badRequest } from "./types";

const byteOffset = (s: string, i: number) => Buffer.byteLength(s.slice(0, i));
const cantParse = (why: string) => badRequest(`can't parse entities: ${why}`);

/** Returns the visible text, or throws the 400 Telegram would answer. */
export function renderFormatted(text: string, parseMode: unknown): string {
  if (parseMode === undefined || parseMode === null || parseMode === "") return text;
  const mode = String(parseMode).toLowerCase(); // Telegram lowercases parse_mode
  if (mode === "html") return parseHtml(text);
  if (mode === "markdownv2") return parseMarkdownV2(text);
  if (mode === "markdown") return parseMarkdown(text);
  throw badRequest("unsupported parse_mode");
}

const HTML_TAGS = new Set([
  "a", "b", "strong", "i", "em", "u", "ins", "s", "strike", "del", "span", "tg-spoiler", "tg-emoji",
  "code", "pre", "blockquote",
]);
const HTML_ENTITIES: Record<string, string> = { lt: "<", gt: ">", amp: "&", quot: '"' };

function parseHtml(text: string): string {
  const open: string[] = [];
  let out = "";
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c === "&") {
      const m = /^&(#x[0-9a-f]+|#\d+|[a-z]+);/i.exec(text.slice(i, i + 12));
      if (m) {
        const name = m[1]!;
        const decoded = name.startsWith("#x") || name.startsWith("#X")
          ? String.fromCodePoint(parseInt(name.slice(2), 16))
          : name.startsWith("#") ? String.fromCodePoint(parseInt(name.slice(1), 10)) : HTML_ENTITIES[name.toLowerCase()];
        if (decoded !== undefined) {
          out += decoded;
          i += m[0].length;
          continue;
        }
      }
      out += c; // Telegram keeps an unknown "&" literally
      i++;
      continue;
    }
    if (c !== "<") {
      out += c;
      i++;
      continue;
    }
    const at = byteOffset(text, i);
    const closing = text[i + 1] === "/";
    const nameStart = i + (closing ? 2 : 1);
    let j = nameStart;
    while (j < text.length && /[a-zA-Z0-9-]/.test(text[j]!)) j++;
    const name = text.slice(nameStart, j).toLowerCase();
    if (!closing && !HTML_TAGS.has(name)) throw cantParse(`Unsupported start tag "${name}" at byte offset ${at}`);
    const end = findTagEnd(text, j);
    if (end < 0) throw cantParse(`Unclosed ${closing ? "end" : "start"} tag at byte offset ${at}`);
    if (closing) {
      const expected = open.pop();
      if (expected === undefined) throw cantParse(`Unexpected end tag at byte offset ${at}`);
      if (name !== "" && name !== expected) {
        throw cantParse(`Unmatched end tag at byte offset ${at}, expected "</${expected}>", found "</${name}>"`);
      }
    } else open.push(name);
    i = end + 1;
  }
  if (open.length) throw cantParse(`Can't find end tag corresponding to start tag "${open[open.length - 1]}"`);
  return out;
}

/** Index of the ">" closing a tag, skipping quoted attribute values; -1 when missing. */
function findTagEnd(text: string, from: number): number {
  let quote: string | null = null;
  for (let k = from; k < text.length; k++) {
    const ch = text[k]!;
    if (quote) {
      if (ch === quote) quote = null;
    } else if (ch === '"' || ch === "'") quote = ch;
    else if (ch === ">") return k;
  }
  return -1;
}

const V2_RESERVED = new Set("_*[]()~`>#+-=|{}.!".split(""));
const V2_NAMES: Record<string, string> = {
  "*": "Bold", _: "Italic", __: "Underline", "~": "Strikethrough", "||": "Spoiler", "[": "TextUrl", "`": "Code", "```": "Pre",
};

function parseMarkdownV2(text: string): string {
  const open: { marker: string; at: number }[] = [];
  let out = "";
  let i = 0;
  const top = () => open[open.length - 1]?.marker;
  const toggle = (marker: string) => {
    if (top() === marker) open.pop();
    else open.push({ marker, at: byteOffset(text, i) });
    i += marker.length;
  };
  while (i < text.length) {
    const c = text[i]!;
    if (c === "\\" && i + 1 < text.length && text.charCodeAt(i + 1) <= 126) {
      out += text[i + 1];
      i += 2;
      continue;
    }
    const code = top();
    if (code === "`" || code === "```") {
      // inside code only ` and \ are special
      if (text.startsWith(code, i)) {
        open.pop();
        i += code.length;
      } else {
        out += c;
        i++;
      }
      continue;
    }
    if (!V2_RESERVED.has(c)) {
      out += c;
      i++;
      continue;
    }
    if (c === "`" && text.startsWith("```", i)) {
      toggle("```");
      const lang = /^[\w+-]*\n/.exec(text.slice(i)); // "```python\n" names the language
      if (lang) i += lang[0].length;
    } else if (c === "`") toggle("`");
    else if (c === "*" || c === "~") toggle(c);
    else if (c === "_") toggle(text.startsWith("__", i) && top() !== "_" ? "__" : "_");
    else if (c === "|" && text[i + 1] === "|") toggle("||");
    else if (c === "[" || (c === "!" && text[i + 1] === "[")) {
      open.push({ marker: "[", at: byteOffset(text, i) });
      i += c === "!" ? 2 : 1;
    } else if (c === "]" && top() === "[") {
      open.pop();
      i++;
      if (text[i] === "(") {
        const close = findUnescaped(text, ")", i + 1);
        if (close < 0) throw cantParse(`Can't find end of a url at byte offset ${byteOffset(text, i)}`);
        i = close + 1;
      }
    } else if (c === ">" && (i === 0 || text[i - 1] === "\n")) i++; // blockquote marker
    else throw cantParse(`Character '${c}' is reserved and must be escaped with the preceding '\\'`);
  }
  const left = open.pop();
  if (left) throw cantParse(`Can't find end of ${V2_NAMES[left.marker]} entity at byte offset ${left.at}`);
  return out;
}

function findUnescaped(text: string, ch: string, from: number): number {
  for (let k = from; k < text.length; k++) {
    if (text[k] === "\\") k++;
    else if (text[k] === ch) return k;
  }
  return -1;
}

/** Legacy Markdown: no nesting; an entity opened with _ * ` ``` or [ must be closed. */
function parseMarkdown(text: string): string {
  let out = "";
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c === "\\" && "_*`[".includes(text[i + 1] ?? "")) {
      out += text[i + 1];
      i += 2;
      continue;
    }
    if (!"_*`[".includes(c)) {
      out += c;
      i++;
      continue;
    }
    const marker = c === "`" && text.startsWith("```", i) ? "```" : c === "[" ? "]" : c;
    const start = i;
    const close = text.indexOf(marker, i + (marker === "]" ? 1 : marker.length));
    if (close < 0) throw cantParse(`Can't find end of the entity starting at byte offset ${byteOffset(text, start)}`);
    out += text.slice(i + (marker === "]" ? 1 : marker.length), close);
    i = close + marker.length;
    if (marker === "]" && text[i] === "(") {
      const end = text.indexOf(")", i);
      if (end >= 0) i = end + 1;
    }
  }
  return out;
}

export function assertLength(text: string, max: number, error: string): void {
  // Telegram counts UTF-16 code units after entity parsing
  if (text.length > max) throw badRequest(error);
}

