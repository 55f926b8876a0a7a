// Done-when check of issue 13: every node of the eight compat files is a type the generated bot
// runs (or skips on purpose, silently: comment). Reads ../shared/compat in place; skipped without it.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { generateBot } from "../../src/scenario";
import { COMPAT_FILES, HAS_COMPAT } from "./harness";

const compatTest = HAS_COMPAT ? test : test.skip;

describe("compat files generate without unsupported node types", () => {
  for (const f of COMPAT_FILES) {
    compatTest(`${f.form}/${f.name}.json`, () => {
      const record = JSON.parse(readFileSync(f.path, "utf8"));
      const out = generateBot(record, { projectName: record.name ?? f.name, userDatabaseEnabled: true });
      const unsupported = out.warnings.filter((w) => w.code === "NODE_TYPE_UNKNOWN" || w.code === "NODE_TYPE_OUT_OF_SCOPE" || /does not run|unknown type/.test(w.message));
      expect(unsupported).toEqual([]);
      expect(out.code).not.toContain("// Left out (node types this version does not run yet):");
    });
  }
});
