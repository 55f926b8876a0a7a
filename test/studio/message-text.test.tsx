// The Dialogs tab's message renderer (web/src/pages/project/dialogs/MessageText.tsx): Telegram
// entities become elements over slices of the text, nested ones included; markup in the text
// itself stays text; links only for http(s)/tg URLs; broken entities are ignored, not trusted.
import { describe, expect, test } from "bun:test";
import { renderToStaticMarkup } from "react-dom/server";
import { MessageText } from "../../web/src/pages/project/dialogs/MessageText";

const html = (text: string, entities?: { type: string; offset: number; length: number; url?: string }[]) =>
  renderToStaticMarkup(<MessageText message={{ text, entities: entities ?? null, format: null, sentBy: "user" }} />);

describe("MessageText", () => {
  test("plain text with markup in it is escaped, never parsed", () => {
    const out = html(`<script>alert(1)</script><img src=x onerror="alert(2)">`);
    expect(out).not.toContain("<script");
    expect(out).not.toContain("<img");
    expect(out).toContain("&lt;script&gt;");
  });

  test("a user's or the bot's text with tags stays text even when the message says html-ish things", () => {
    for (const sentBy of ["user", "bot"] as const) {
      expect(renderToStaticMarkup(<MessageText message={{ text: "<b>x</b>", entities: null, format: null, sentBy }} />)).toBe("&lt;b&gt;x&lt;/b&gt;");
    }
    expect(renderToStaticMarkup(<MessageText message={{ text: "<b>x</b>", entities: null, format: "none", sentBy: "operator" }} />)).toBe("&lt;b&gt;x&lt;/b&gt;");
  });

  test("entities become elements, nested and side by side", () => {
    expect(html("bold and italic", [{ type: "bold", offset: 0, length: 15 }, { type: "italic", offset: 9, length: 6 }])).toBe("<strong>bold and <em>italic</em></strong>");
    expect(html("a b c", [{ type: "code", offset: 0, length: 1 }, { type: "underline", offset: 4, length: 1 }])).toBe("<code>a</code> b <u>c</u>");
    expect(html("secret", [{ type: "spoiler", offset: 0, length: 6 }])).toBe('<span class="spoiler">secret</span>');
  });

  test("a text_link becomes a link only for http(s) and tg URLs", () => {
    expect(html("site", [{ type: "text_link", offset: 0, length: 4, url: "https://example.com" }])).toBe('<a href="https://example.com" target="_blank" rel="noopener noreferrer nofollow">site</a>');
    expect(html("click", [{ type: "text_link", offset: 0, length: 5, url: "javascript:alert(1)" }])).toBe("<span>click</span>");
  });

  test("entities inside a tag-like text keep the text escaped", () => {
    expect(html("<b>x</b>", [{ type: "italic", offset: 0, length: 8 }])).toBe("<em>&lt;b&gt;x&lt;/b&gt;</em>");
  });

  test("entities out of range or malformed are ignored", () => {
    expect(html("short", [{ type: "bold", offset: 3, length: 50 }, { type: "italic", offset: -1, length: 2 }])).toBe("short");
  });
});
