// Merge aid for branches begun before the runtime became modules (docs/runtime.md): their edits to
// a runtime file's old String.raw literal are merged, three ways, into the module of this tree.
// The old literals are turned into module text first (the same steps the conversion took), so a
// branch's edit meets the same context lines. Delete this file once no such branch is left.
//
//   bun scripts/port-runtime-literal.ts <base-rev> <branch-rev>
//
// For every runtime file <branch-rev> changed since <base-rev> (both in the literal form), the
// module in the working tree gets the change; conflicts are left marked, as git does, and listed.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const DIR = "src/scenario/codegen/runtime";
const SECTION = "\n// ─── ";
const DECLARATION = /^(async function|function|const|let|interface|type|class) /;
/** hosted.ts's last line, which program.ts writes now (HOSTED_RETURN): a module cannot return. */
const HOSTED_RETURN = /\n+return \{ start: startHosted, stop: \(reason: string\) => shutdown\(reason\) \};\n$/;

/** The code of a runtime file in the old form, as its module holds it: literals joined, declarations exported. */
export function literalAsModule(source: string): string {
  const literals = [...source.matchAll(/^export const RUNTIME_\w+ = String\.raw`\n([\s\S]*?)^`;$/gm)].map((m) => m[1]!);
  if (literals.length === 0) throw new Error("no String.raw runtime literal in this text");
  const code = literals
    .join("\n")
    .replace(HOSTED_RETURN, "\n")
    .replace(/[\u{10000}-\u{10ffff}]/gu, (c) => "\\u{" + c.codePointAt(0)!.toString(16) + "}"); // as assign.ts writes them
  return code
    .split("\n")
    .map((line) => (DECLARATION.test(line) ? "export " + line : line))
    .join("\n");
}

/** Merges base → branch (old form) into the module text `current`; `conflicts` as git merge-file counts them. */
export function portEdit(current: string, base: string, branch: string): { text: string; conflicts: number } {
  const at = current.indexOf(SECTION) + 1;
  if (at === 0) throw new Error("the module has no section line");
  const dir = mkdtempSync(join(tmpdir(), "port-runtime-"));
  try {
    const files = { current: join(dir, "current"), base: join(dir, "base"), branch: join(dir, "branch") };
    writeFileSync(files.current, current.slice(at));
    writeFileSync(files.base, literalAsModule(base));
    writeFileSync(files.branch, literalAsModule(branch));
    const r = spawnSync("git", ["merge-file", "-L", "this tree", "-L", "base", "-L", "branch", files.current, files.base, files.branch]);
    if (r.status === null || r.status < 0) throw new Error("git merge-file failed: " + r.stderr);
    return { text: current.slice(0, at) + readFileSync(files.current, "utf8"), conflicts: r.status };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function git(...args: string[]): string {
  const r = spawnSync("git", args, { encoding: "utf8" });
  if (r.status !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr}`);
  return r.stdout;
}

if (import.meta.main) {
  const [base, branch] = process.argv.slice(2);
  if (!base || !branch) {
    console.error("usage: bun scripts/port-runtime-literal.ts <base-rev> <branch-rev>");
    process.exit(2);
  }
  const changed = git("diff", "--name-only", base, branch, "--", DIR).split("\n").filter(Boolean);
  let conflicted = 0;
  for (const path of changed) {
    const old = git("show", `${base}:${path}`);
    if (!old.includes("String.raw`")) {
      console.log(`${path}: not a literal file; merge it as usual`);
      continue;
    }
    const { text, conflicts } = portEdit(readFileSync(path, "utf8"), old, git("show", `${branch}:${path}`));
    writeFileSync(path, text);
    conflicted += conflicts;
    console.log(`${path}: ${conflicts === 0 ? "merged" : `${conflicts} conflict(s) marked`}`);
  }
  console.log("then: tsc --noEmit -p . names what a new line needs imported; export what another part uses.");
  process.exit(conflicted > 0 ? 1 : 0);
}
