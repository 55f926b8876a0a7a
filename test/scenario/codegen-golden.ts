// SHA-256 of the programs (and warnings) generated for fixed inputs: every compat file, every
// built-in template and the bench's synthetic scenarios, each with two option sets. The recorded
// hashes (codegen-golden.json) pin the generator's output byte for byte, so that a change meant
// only to make generation faster cannot change a program unnoticed. The recorded programs
// themselves are kept too, so that a failure shows a readable diff: every distinct line once
// (codegen-golden.lines.txt, in order of first appearance) and each program as runs of line
// numbers (codegen-golden.programs.json) — the runtime all programs share is stored once.
//
// Re-record ONLY when the output is meant to change (a new node type, a runtime edit):
//   bun test/scenario/codegen-golden.ts --write
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createHash } from "node:crypto";
import { builtInTemplateFiles } from "../../assets/templates";
import { logicBlock, synthetic } from "../../bench/codegen-scenarios";
import { generateBot, type GenerateOptions } from "../../src/scenario";

export const GOLDEN_FILE = join(import.meta.dir, "codegen-golden.json");
export const LINES_FILE = join(import.meta.dir, "codegen-golden.lines.txt");
export const PROGRAMS_FILE = join(import.meta.dir, "codegen-golden.programs.json");
const COMPAT_DIR = join(import.meta.dir, "..", "..", "..", "shared", "compat");
export const HAS_COMPAT = existsSync(COMPAT_DIR);
const COMPAT = ["bot-manager", "cleanup-chat", "kotik-simple-anketa", "vprogulke-admin-panel"].flatMap((name) =>
  ["current", "legacy"].map((form) => ({ key: `compat/${form}/${name}`, path: join(COMPAT_DIR, form, `${name}.json`) })),
);

const OPTION_SETS: Record<string, (name: string) => GenerateOptions> = {
  plain: (name) => ({ projectName: name, userDatabaseEnabled: false }),
  flags: (name) => ({
    projectName: name,
    userDatabaseEnabled: true,
    enableLogging: true,
    flags: { catchAllHandlers: true, protectContent: true, contentCache: true },
    mediaCache: { "https://example.com/b.jpg": "file-b", "https://example.com/a.jpg": "file-a" },
  }),
};

/** The inputs, by name: compat files only when ../shared/compat exists. */
export function goldenInputs(): Record<string, unknown> {
  const inputs: Record<string, unknown> = {};
  if (HAS_COMPAT) for (const c of COMPAT) inputs[c.key] = readFileSync(c.path, "utf8");
  for (const t of builtInTemplateFiles) inputs[`template/${t.file}`] = t.text;
  inputs["synthetic/messages-1000"] = synthetic(1000);
  inputs["synthetic/logic-1000"] = synthetic(1000, logicBlock);
  return inputs;
}

const sha256 = (s: string) => createHash("sha256").update(s).digest("hex");

export interface Generated {
  /** SHA-256 of "program \0 warnings as JSON" */
  hash: string;
  /** the program with its warnings after it, one per line: what a diff shows */
  text: string;
}

/** name → option set → the generated program, its warnings and their hash. */
export function goldenPrograms(inputs = goldenInputs()): Record<string, Record<string, Generated>> {
  const out: Record<string, Record<string, Generated>> = {};
  for (const [name, input] of Object.entries(inputs)) {
    out[name] = {};
    for (const [set, opts] of Object.entries(OPTION_SETS)) {
      const bot = generateBot(input, opts(name));
      const hash = sha256(`${bot.code}\u0000${JSON.stringify(bot.warnings)}`);
      out[name][set] = { hash, text: [bot.code, "// ---- warnings ----", ...bot.warnings.map((w) => JSON.stringify(w))].join("\n") };
    }
  }
  return out;
}

/** name → option set → hash. */
export function goldenHashes(inputs = goldenInputs()): Record<string, Record<string, string>> {
  return hashesOf(goldenPrograms(inputs));
}

export function hashesOf(programs: Record<string, Record<string, Generated>>): Record<string, Record<string, string>> {
  return Object.fromEntries(Object.entries(programs).map(([name, sets]) => [name, Object.fromEntries(Object.entries(sets).map(([set, g]) => [set, g.hash]))]));
}

/**
 * Whose text is kept for diffs: the built-in templates (in this repository). The compat files live
 * outside it, and the synthetic thousand-node scenarios would add 0.7 MB of table lines; all share
 * the runtime and the node compilers with the templates, so a change that reaches them mostly
 * shows in a template's diff too (theirs are checked by hash alone).
 */
const TEXT_KEPT = (name: string) => name.startsWith("template/");

/** A program as runs [first line, count] over the shared table of distinct lines. */
type Runs = [number, number][];

function encode(programs: Record<string, Record<string, Generated>>): { lines: string[]; runs: Record<string, Record<string, Runs>> } {
  // A line is stored once per the two lines before it, so that a "}" of the shared runtime is not
  // taken for one of a data table: the runtime then reads as one long run in every program.
  const index = new Map<string, number>();
  const lines: string[] = [];
  const runs: Record<string, Record<string, Runs>> = {};
  for (const [name, sets] of Object.entries(programs)) {
    if (!TEXT_KEPT(name)) continue;
    runs[name] = {};
    for (const [set, g] of Object.entries(sets)) {
      const out: Runs = [];
      const text = g.text.split("\n");
      for (const [n, line] of text.entries()) {
        const key = `${text[n - 2] ?? ""}\u0000${text[n - 1] ?? ""}\u0000${line}`;
        let i = index.get(key);
        if (i === undefined) {
          index.set(key, (i = lines.length));
          lines.push(line);
        }
        const last = out.at(-1);
        if (last && last[0] + last[1] === i) last[1]++;
        else out.push([i, 1]);
      }
      runs[name][set] = out;
    }
  }
  return { lines, runs };
}

/** The recorded text of one program (with its warnings), or null when it was not recorded. */
export function recordedProgram(name: string, set: string): string | null {
  if (!existsSync(LINES_FILE) || !existsSync(PROGRAMS_FILE)) return null;
  const lines = readFileSync(LINES_FILE, "utf8").split("\n");
  const runs = (JSON.parse(readFileSync(PROGRAMS_FILE, "utf8")) as Record<string, Record<string, Runs>>)[name]?.[set];
  return runs ? runs.flatMap(([first, count]) => lines.slice(first, first + count)).join("\n") : null;
}

if (import.meta.main) {
  if (!process.argv.includes("--write")) throw new Error("usage: bun test/scenario/codegen-golden.ts --write");
  if (!HAS_COMPAT) throw new Error(`compat files not found at ${COMPAT_DIR}: the recording must include them`);
  const programs = goldenPrograms();
  const { lines, runs } = encode(programs);
  writeFileSync(GOLDEN_FILE, JSON.stringify(hashesOf(programs), null, 2) + "\n");
  writeFileSync(LINES_FILE, lines.join("\n"));
  writeFileSync(PROGRAMS_FILE, JSON.stringify(runs) + "\n");
  console.log(`written ${GOLDEN_FILE}, ${LINES_FILE} (${lines.length} distinct lines), ${PROGRAMS_FILE}`);
}
