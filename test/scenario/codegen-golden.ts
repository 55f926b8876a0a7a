// SHA-256 of the programs (and warnings) generated for fixed inputs: every compat file, every
// built-in template and the bench's synthetic scenarios, each with two option sets. The recorded
// hashes (codegen-golden.json) pin the generator's output byte for byte, so that a change meant
// only to make generation faster cannot change a program unnoticed.
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

/** name → option set → hash of "program \0 warnings as JSON". */
export function goldenHashes(inputs = goldenInputs()): Record<string, Record<string, string>> {
  const out: Record<string, Record<string, string>> = {};
  for (const [name, input] of Object.entries(inputs)) {
    out[name] = {};
    for (const [set, opts] of Object.entries(OPTION_SETS)) {
      const bot = generateBot(input, opts(name));
      out[name][set] = sha256(`${bot.code}\u0000${JSON.stringify(bot.warnings)}`);
    }
  }
  return out;
}

if (import.meta.main) {
  if (!process.argv.includes("--write")) throw new Error("usage: bun test/scenario/codegen-golden.ts --write");
  if (!HAS_COMPAT) throw new Error(`compat files not found at ${COMPAT_DIR}: the recording must include them`);
  writeFileSync(GOLDEN_FILE, JSON.stringify(goldenHashes(), null, 2) + "\n");
  console.log(`written ${GOLDEN_FILE}`);
}
