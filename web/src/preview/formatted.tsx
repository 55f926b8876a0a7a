// Bot text with Telegram's HTML formatting shown as formatting. The HTML is parsed, never
// injected: only Telegram's tags become elements, everything else stays text.
import type { ReactNode } from "react";

const TAGS: Record<string, string> = {
  b: "strong", strong: "strong", i: "em", em: "em", u: "u", ins: "u", s: "s", strike: "s", del: "s",
  code: "code", pre: "pre", blockquote: "blockquote", "tg-spoiler": "span", span: "span",
};

function render(node: ChildNode, key: number): ReactNode {
  if (node.nodeType === Node.TEXT_NODE) return node.textContent;
  if (node.nodeType !== Node.ELEMENT_NODE) return null;
  const el = node as Element;
  const name = el.tagName.toLowerCase();
  const children = Array.from(el.childNodes).map(render);
  if (name === "a") {
    const href = el.getAttribute("href") ?? "";
    return /^https?:\/\//i.test(href) ? <a key={key} href={href} target="_blank" rel="noopener noreferrer nofollow">{children}</a> : <span key={key}>{children}</span>;
  }
  const tag = TAGS[name];
  if (!tag) return <span key={key}>{children}</span>;
  const className = name === "tg-spoiler" || el.classList.contains("tg-spoiler") ? "spoiler" : undefined;
  const Tag = tag as "span";
  return <Tag key={key} className={className}>{children}</Tag>;
}

export function Formatted({ text, source }: { text: string; source?: { text: string; parseMode: string } }) {
  if (!source || source.parseMode.toLowerCase() !== "html") return <>{text}</>;
  const doc = new DOMParser().parseFromString(`<body>${source.text}</body>`, "text/html");
  return <>{Array.from(doc.body.childNodes).map(render)}</>;
}
