// Source comments cite documents in this repository (docs/), never the contract files that live
// outside it; and every docs/ page, heading and numbered rule a source file cites exists.
import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { anchors } from "./markdown";

const root = resolve(import.meta.dir, "../..");
const FOLDERS = ["src", "web/src", "test", "bench", "scripts"];
// Spelled in parts so this file does not cite them itself.
const OUTSIDE = new RegExp(`\\b(${["API", "DESIGN", "EXTENSIONS", "SCENARIO"].join("|")})\\.md\\b`);
const CITATION = /\bdocs\/([a-z0-9/-]+\.md)(?:#([a-z0-9-]+))?(?: rules? (\d+))?/g;

function sources(): string[] {
  return FOLDERS.flatMap((dir) =>
    (readdirSync(join(root, dir), { recursive: true }) as string[])
      .filter((f) => /\.(ts|tsx|js|css|html)$/.test(f) && !f.includes("node_modules") && !f.startsWith("dist/"))
      .map((f) => `${dir}/${f}`),
  );
}

/** The items of the first numbered list under a heading (up to the next heading). */
function numberedItems(markdown: string, anchor: string): number {
  const lines = markdown.split("\n");
  let inside = false;
  let count = 0;
  for (const line of lines) {
    if (/^#{1,6}\s/.test(line)) {
      if (inside) break;
      inside = anchors(line).has(anchor);
      continue;
    }
    if (inside && /^\d+\.\s/.test(line)) count++;
  }
  return count;
}

/** Broken citations in one text: missing page, missing heading, or a rule number past the list. */
function brokenCitations(text: string): string[] {
  const broken: string[] = [];
  for (const [whole, page, anchor, rule] of text.matchAll(CITATION)) {
    const file = join(root, "docs", page!);
    if (!existsSync(file)) {
      broken.push(`${whole}: no docs/${page}`);
      continue;
    }
    if (!anchor) continue;
    const markdown = readFileSync(file, "utf8");
    if (!anchors(markdown).has(anchor)) broken.push(`${whole}: no heading #${anchor}`);
    else if (rule && Number(rule) > numberedItems(markdown, anchor)) broken.push(`${whole}: no rule ${rule} under #${anchor}`);
  }
  return broken;
}

describe("source comments cite docs/", () => {
  const files = sources();

  test("no source, test, bench or script file names a document outside the repository", () => {
    expect(files.length).toBeGreaterThan(300);
    const offending = files.flatMap((f) =>
      readFileSync(join(root, f), "utf8")
        .split("\n")
        .flatMap((line, i) => (OUTSIDE.test(line) ? [`${f}:${i + 1}: ${line.trim()}`] : [])),
    );
    expect(offending).toEqual([]);
  });

  test("every cited docs/ page, heading and numbered rule exists", () => {
    let cited = 0;
    // this file's own self-check names broken citations on purpose
    const broken = files.filter((f) => f !== "test/docs/citations.test.ts").flatMap((f) => {
      const text = readFileSync(join(root, f), "utf8");
      cited += [...text.matchAll(CITATION)].length;
      return brokenCitations(text).map((b) => `${f}: ${b}`);
    });
    expect(broken).toEqual([]);
    expect(cited).toBeGreaterThan(100);
  });

  test("the checks catch an outside file, a missing page, heading and rule", () => {
    expect(OUTSIDE.test(`see ${"API"}.md`)).toBe(true);
    expect(OUTSIDE.test("see docs/api.md")).toBe(false);
    expect(brokenCitations("docs/api.md#project-rules rule 10, docs/scenario.md, docs/api.md#errors")).toEqual([]);
    expect(brokenCitations("docs/nope.md, docs/api.md#nope, docs/api.md#project-rules rule 11")).toEqual([
      "docs/nope.md: no docs/nope.md",
      "docs/api.md#nope: no heading #nope",
      "docs/api.md#project-rules rule 11: no rule 11 under #project-rules",
    ]);
  });
});
