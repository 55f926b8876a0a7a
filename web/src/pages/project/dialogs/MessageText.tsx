// The text of a recorded message with its formatting. Text from the messenger is hostile: it is
// never given to innerHTML. Telegram entities become elements over slices of the plain text; an
// operator's HTML goes through the preview's parser, which keeps only Telegram's tags.
import type { ReactNode } from "react";
import { Formatted } from "../../../preview/formatted";
import type { ChatMessage, Entity } from "./api";

const SAFE_LINK = /^(https?:\/\/|tg:\/\/)/i;

function wrap(e: Entity, text: string, children: ReactNode, key: number): ReactNode {
  switch (e.type) {
    case "bold": return <strong key={key}>{children}</strong>;
    case "italic": return <em key={key}>{children}</em>;
    case "underline": return <u key={key}>{children}</u>;
    case "strikethrough": return <s key={key}>{children}</s>;
    case "code": return <code key={key}>{children}</code>;
    case "pre": return <pre key={key}>{children}</pre>;
    case "blockquote":
    case "expandable_blockquote": return <blockquote key={key}>{children}</blockquote>;
    case "spoiler": return <span key={key} className="spoiler">{children}</span>;
    case "text_link":
    case "url": {
      const href = e.type === "url" ? text : (e.url ?? "");
      return SAFE_LINK.test(href) ? <a key={key} href={href} target="_blank" rel="noopener noreferrer nofollow">{children}</a> : <span key={key}>{children}</span>;
    }
    default: return <span key={key}>{children}</span>;
  }
}

/** Renders text[from, to) with the entities that lie inside it (sorted by offset, outer first). */
function renderRange(text: string, entities: Entity[], from: number, to: number): ReactNode[] {
  const out: ReactNode[] = [];
  let at = from;
  let i = 0;
  while (i < entities.length) {
    const e = entities[i]!;
    const end = e.offset + e.length;
    if (e.offset > at) out.push(text.slice(at, e.offset));
    // entities nested in this one: every following entity that starts before it ends
    let j = i + 1;
    while (j < entities.length && entities[j]!.offset < end) j++;
    const inner = entities.slice(i + 1, j).map((x) => ({ ...x, length: Math.min(x.length, end - x.offset) }));
    out.push(wrap(e, text.slice(e.offset, end), renderRange(text, inner, e.offset, end), out.length));
    at = Math.max(at, end);
    i = j;
  }
  if (at < to) out.push(text.slice(at, to));
  return out;
}

/** How a message's text is written. Without a recorded `format`, an operator's text is taken as
 * the Telegram HTML the composer writes; the parser keeps only Telegram's tags, so a guess can only
 * mis-style, never inject. Everything else (users' texts, the bot's as the messenger returned them)
 * is plain text. */
function formatOf(m: Pick<ChatMessage, "format" | "sentBy">): string {
  if (m.format) return m.format;
  return m.sentBy === "operator" ? "html" : "none";
}

export function MessageText({ message }: { message: Pick<ChatMessage, "text" | "format" | "entities" | "sentBy"> }) {
  const { text, entities } = message;
  const format = formatOf(message);
  if (entities && entities.length > 0) {
    const valid = entities
      .filter((e) => Number.isInteger(e.offset) && Number.isInteger(e.length) && e.offset >= 0 && e.length > 0 && e.offset + e.length <= text.length)
      .sort((a, b) => a.offset - b.offset || b.length - a.length);
    return <>{renderRange(text, valid, 0, text.length)}</>;
  }
  if (format === "html") return <Formatted text={text} source={{ text, parseMode: "HTML" }} />;
  return <>{text}</>;
}
