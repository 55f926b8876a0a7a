// The runtime is real modules (src/scenario/codegen/runtime/) whose text from the first section line
// on becomes one scope in every generated bot (codegen/runtime-text.ts). Imports above that line are
// dropped, so they may only name what the program has anyway: a sibling runtime file or a library
// the program itself imports under the same name. The runner's own files (bots/runner/) are written
// beside the interpreter on their own: they may take only types from protocol.ts.
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { generateBot, RUNNER_OUTBOX_MODULE } from "../../src/scenario";

const RUNTIME = join(import.meta.dir, "../../src/scenario/codegen/runtime");
const RUNNER = join(import.meta.dir, "../../src/bots/runner");
const SECTION = "\n// ─── ";

/** import lines of a source: [whole statement, names part, module] */
const importsOf = (source: string) => [...source.matchAll(/^import (type )?(.*?) from "([^"]+)";$/gm)].map((m) => ({ line: m[0], typeOnly: !!m[1], names: m[2]!, module: m[3]! }));

/** "{ a, b as c, type D }" or "x" → local names with what they import */
function bindings(names: string): string[] {
  const braces = names.match(/^\{ (.*) \}$/);
  if (!braces) return [`default as ${names}`];
  return braces[1]!.split(",").map((n) => n.trim().replace(/^type /, "")).map((n) => (n.includes(" as ") ? n : `${n} as ${n}`));
}

/** What a runtime file's imports would break in the program (whose own imports are `program`). */
function problems(file: string, source: string, program: ReturnType<typeof importsOf>): string[] {
  const at = source.indexOf(SECTION);
  if (at < 0) return [`${file}: no "// ─── " section line`];
  const out: string[] = [];
  const head = source.slice(0, at);
  const body = source.slice(at);
  if (/^\s*import\b/m.test(body)) out.push(`${file}: an import below the first section line reaches the bot`);
  if (/String\.raw/.test(source)) out.push(`${file}: a String.raw literal`);
  const has = new Map(program.map((p) => [p.module, new Set(bindings(p.names))]));
  for (const imp of importsOf(head)) {
    if (imp.module.startsWith("./") && !imp.module.includes("/", 2)) continue; // a sibling: its text is in the program (or it is declarations only)
    const given = has.get(imp.module);
    if (!given) {
      out.push(`${file}: imports "${imp.module}", which the program does not`);
      continue;
    }
    for (const b of bindings(imp.names)) if (!imp.typeOnly && !given.has(b)) out.push(`${file}: "${b}" of "${imp.module}" is not imported by the program under that name`);
  }
  return out;
}

const program = importsOf(generateBot({ sheets: [] }, { projectName: "Imports", userDatabaseEnabled: false }).code);
/** program-data.ts only declares, for the type checker, what the program itself writes: never text. */
const runtimeFiles = readdirSync(RUNTIME).filter((f) => f.endsWith(".ts") && f !== "program-data.ts");

describe("runtime modules", () => {
  test("every runtime file imports only what the generated program has", () => {
    expect(program.map((p) => p.module)).toContain("grammy");
    expect(runtimeFiles.length).toBeGreaterThanOrEqual(24);
    const found = runtimeFiles.flatMap((f) => problems(f, readFileSync(join(RUNTIME, f), "utf8"), program));
    expect(found).toEqual([]);
  });

  test("the check refuses a library the program lacks, a renamed binding, an import in the text and a literal", () => {
    const bad = [
      'import { Bot } from "grammy";',
      'import { readFileSync as read } from "node:fs";',
      'import { spawn } from "node:child_process";',
      'import { x } from "../emit";',
      "",
      "// ─── Section ───",
      'import { Cron } from "croner";',
      "const T = String.raw`x`;",
    ].join("\n");
    expect(problems("bad.ts", bad, program)).toEqual([
      'bad.ts: an import below the first section line reaches the bot',
      "bad.ts: a String.raw literal",
      '"readFileSync as read" of "node:fs" is not imported by the program under that name'.replace(/^/, "bad.ts: "),
      'bad.ts: imports "node:child_process", which the program does not',
      'bad.ts: imports "../emit", which the program does not',
    ]);
    expect(problems("none.ts", "const a = 1;\n", program)).toEqual(['none.ts: no "// ─── " section line']);
  });

  test("the runner's own files take only types from protocol.ts (they run without it beside them); main.ts also the outbox the pool writes beside it", () => {
    const locals = (f: string) => importsOf(readFileSync(join(RUNNER, f), "utf8")).filter((i) => i.module.startsWith(".")).map((i) => [i.module, i.typeOnly]);
    expect(locals("watchdog.ts")).toEqual([["./protocol", true]]);
    expect(locals("main.ts")).toEqual([["./protocol", true], ["./outbox.ts", false]]);
    // what the pool writes as .runner/outbox.ts: the runtime's outbox, a module that imports nothing
    expect(RUNNER_OUTBOX_MODULE).toContain("export function createOutbox(");
    expect(importsOf(RUNNER_OUTBOX_MODULE)).toEqual([]);
    expect(readFileSync(join(import.meta.dir, "../../src/bots/runner-pool.ts"), "utf8")).toContain('"outbox.ts": RUNNER_OUTBOX_MODULE');
  });
});
