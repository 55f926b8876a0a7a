// The compiled executable cannot hold one file both as text and as a module: the text import then
// reads `undefined` (bots started from the binary failed to write their node_modules when the
// campaign renderer imported "jsep", whose ES build bots get as text). This holds every source file
// to it: no module import of the server's (static or dynamic, types aside) resolves to a file
// embedded as text; files embedded as text themselves (the bot runtime) are not modules there.
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";

const ROOT = join(import.meta.dir, "../..");

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return sources(p);
    return /\.(ts|tsx)$/.test(e.name) ? [p] : [];
  });
}

const resolve = (spec: string, from: string): string | null => {
  try {
    return Bun.resolveSync(spec, dirname(from));
  } catch {
    return null; // bun: built-ins and the like
  }
};

const TEXT = /import\s+\w+\s+from\s+"([^"]+)"\s+with\s*\{\s*type:\s*"text"\s*\}/g;
const MODULE = /(?:^|\n)\s*(?:import|export)\s+(?!type\b)[^;"]*?from\s+"([^"]+)"(?!\s+with\s*\{\s*type:\s*"(?:text|file)")|import\(\s*"([^"]+)"\s*\)|require\(\s*"([^"]+)"\s*\)/g;

describe("files embedded as text", () => {
  const files = sources(join(ROOT, "src"));
  const text = new Map<string, string>();
  for (const f of files) for (const m of readFileSync(f, "utf8").matchAll(TEXT)) {
    const target = resolve(m[1]!, f);
    if (target) text.set(target, f);
  }

  test("some are found (the scan reads the import form the source uses)", () => {
    expect([...text.keys()].some((p) => p.includes("jsep"))).toBe(true);
    expect(text.size).toBeGreaterThan(20);
  });

  test("none is also imported as a module", () => {
    const clashes: string[] = [];
    // a file embedded as text is never a module of the executable: what it imports is not bundled
    for (const f of files.filter((x) => !text.has(x))) {
      for (const m of readFileSync(f, "utf8").matchAll(MODULE)) {
        const spec = m[1] ?? m[2] ?? m[3];
        if (!spec) continue;
        const target = resolve(spec, f);
        if (target && text.has(target)) clashes.push(`${f.slice(ROOT.length + 1)} imports ${spec}, embedded as text by ${text.get(target)!.slice(ROOT.length + 1)}`);
      }
    }
    expect(clashes).toEqual([]);
  });
});
