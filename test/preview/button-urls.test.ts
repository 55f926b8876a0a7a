// docs/preview.md "Button URLs": the preview emulator refuses button URLs Telegram refuses
// (javascript:, data:, file:, other schemes, control characters) with the same Bad Request, and
// takes http(s), tg:// and bare host names. Table-driven, through the emulator's HTTP API.
import { afterEach, describe, expect, test } from "bun:test";
import { EmulatorSession } from "../../src/emulator/session";
import { buttonHref, buttonUrlProblem } from "../../src/lib/button-url";

const USER = { id: 42, first_name: "Ann" };
let open: EmulatorSession[] = [];
afterEach(async () => {
  await Promise.all(open.map((e) => e.stop()));
  open = [];
});

function emulator() {
  const e = new EmulatorSession({ token: "8100:preview-token", id: 8100, username: "pv_bot", firstName: "Pv" }, { maxEntries: 400, maxBodyBytes: 1024 * 1024, maxFileBytes: 1024 * 1024 });
  e.start();
  open.push(e);
  return e;
}

async function sendWithUrl(e: EmulatorSession, url: unknown) {
  const r = await fetch(`${e.url}/bot${e.bot.token}/sendMessage`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ chat_id: USER.id, text: "Open", reply_markup: { inline_keyboard: [[{ text: "Go", url }]] } }),
  });
  return { status: r.status, body: (await r.json()) as { ok: boolean; error_code?: number; description?: string } };
}

const refused: [string, unknown, string][] = [
  ["javascript:", "javascript:alert(1)", "Unsupported URL protocol"],
  ["JavaScript: in mixed case", "JaVaScRiPt:alert(document.cookie)", "Unsupported URL protocol"],
  ["javascript: with //", "javascript://%0aalert(1)", "Unsupported URL protocol"],
  ["data:", "data:text/html,<script>alert(1)</script>", "Unsupported URL protocol"],
  ["vbscript:", "vbscript:msgbox(1)", "Unsupported URL protocol"],
  ["file:", "file:///etc/passwd", "Unsupported URL protocol"],
  ["mailto:", "mailto:a@example.org", "Unsupported URL protocol"],
  ["a tab inside the scheme", "java\tscript:alert(1)", "Wrong HTTP URL"],
  ["a leading control character", "\u0001javascript:alert(1)", "Wrong HTTP URL"],
  ["a space", "https://example.org/a b", "Wrong HTTP URL"],
  ["empty", "", "Wrong HTTP URL"],
  ["protocol-relative", "//evil.example", "Wrong HTTP URL"],
  ["a path", "/admin", "Wrong HTTP URL"],
  ["not a string", 42, "Wrong HTTP URL"],
];
const accepted: [string, string, string][] = [
  ["https", "https://example.org/a?b=1#c", "https://example.org/a?b=1#c"],
  ["http", "http://example.org", "http://example.org"],
  ["tg://", "tg://user?id=42", "tg://user?id=42"],
  ["a bare host", "example.org/path", "http://example.org/path"],
  ["HTTPS in capitals", "HTTPS://EXAMPLE.ORG", "HTTPS://EXAMPLE.ORG"],
];

describe("the emulator refuses what Telegram refuses", () => {
  for (const [name, url, why] of refused) {
    test(name, async () => {
      const e = emulator();
      const r = await sendWithUrl(e, url);
      expect(r.status).toBe(400);
      expect(r.body.ok).toBe(false);
      expect(r.body.description).toStartWith("Bad Request: inline keyboard button URL");
      expect(r.body.description).toEndWith(`is invalid: ${why}`);
      expect(e.transcript.list(USER.id)).toEqual([]);
      expect(buttonHref(url)).toBeNull();
    });
  }
});

describe("and takes what Telegram takes", () => {
  for (const [name, url, href] of accepted) {
    test(name, async () => {
      const r = await sendWithUrl(emulator(), url);
      expect([r.status, r.body.ok]).toEqual([200, true]);
      expect(buttonUrlProblem(url)).toBeNull();
      expect(buttonHref(url)).toBe(href);
    });
  }
});
