// docs/security.md "Login": `?next=` after a login names only a path of this site.
import { describe, expect, test } from "bun:test";
import { safeNextPath } from "../../src/lib/safe-next";

const FALLBACK = "/projects";
// As the login page reads them: URLSearchParams has already decoded the query value.
const leaves: [string, string | null | undefined][] = [
  ["backslash after the slash", "/\\evil.example"],
  ["backslash then path", "/\\evil.example/projects"],
  ["tab between slashes (from %09)", "/\t/evil.example"],
  ["newline between slashes", "/\n/evil.example"],
  ["carriage return", "/\r/evil.example"],
  ["protocol-relative", "//evil.example"],
  ["three slashes", "///evil.example"],
  ["absolute http URL", "http://evil.example/"],
  ["absolute https URL", "https://evil.example/projects"],
  ["javascript: URL", "javascript:alert(1)"],
  ["data: URL", "data:text/html,<script>alert(1)</script>"],
  ["relative path", "projects"],
  ["empty", ""],
  ["missing", null],
  ["undefined", undefined],
  ["NUL byte", "/\u0000/evil.example"],
  ["leading space", " /projects"],
  ["C1 control (NEL)", "/\u0085/evil.example"],
  ["overlong", "/" + "a".repeat(2001)],
];
const stays: [string, string, string][] = [
  ["the projects page", "/projects", "/projects"],
  ["a project tab with query and fragment", "/projects/5/bots?tab=logs#top", "/projects/5/bots?tab=logs#top"],
  ["an encoded slash stays encoded", "/%2F%2Fevil.example", "/%2F%2Fevil.example"],
  ["dot segments resolve inside the site", "/a/../../projects", "/projects"],
  ["the root", "/", "/"],
];

describe("safeNextPath refuses every way off the site", () => {
  for (const [name, raw] of leaves) {
    test(name, () => {
      expect(safeNextPath(raw)).toBe(FALLBACK);
      expect(safeNextPath(raw, "/account")).toBe("/account");
    });
  }
});

describe("safeNextPath keeps paths of this site", () => {
  for (const [name, raw, want] of stays) {
    test(name, () => {
      const got = safeNextPath(raw);
      expect(got).toBe(want);
      // Whatever it returns resolves to the page's own origin in a real URL parser.
      expect(new URL(got, "https://botloom.example").origin).toBe("https://botloom.example");
    });
  }
});
