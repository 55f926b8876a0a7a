// The real scenario files in ../shared/compat (today's and the legacy form): they normalize,
// validate without errors, generate fast and deterministically, and the generated programs
// (plus those of the test fixtures) type-check against grammY's types with the repo's tsc.
import { describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { countNodes, generateBot, normalizeDocument, renderInterpreter, validateScenario } from "../../src/scenario";
import { ACTION_TYPES, TRIGGER_NODE_TYPES } from "../../src/scenario/types-messaging";
import { detailsScenario, logicScenario, showcaseScenario } from "./fixtures";
import { MESSAGING_FIXTURES } from "./fixtures-messaging";
import { COMPAT_FILES, HAS_COMPAT, removeDir, ROOT, tmpDir } from "./harness";

const compatTest = HAS_COMPAT ? test : test.skip;
/** Node types of the messaging, trigger and moderation families: none may be skipped. */
const RUN_TYPES: string[] = [...ACTION_TYPES, ...TRIGGER_NODE_TYPES];

describe("compat scenario files", () => {
  for (const f of COMPAT_FILES) {
    compatTest(`${f.form}/${f.name}.json normalizes, validates and generates`, () => {
      const record = JSON.parse(readFileSync(f.path, "utf8"));
      const d = normalizeDocument(record);
      expect(d).toBe(record.data); // a template record: its `data` is the document
      const { errors } = validateScenario(d);
      expect(errors).toEqual([]);
      const counts = countNodes(d);
      expect(counts.nodesCount).toBeGreaterThan(10);
      const out = generateBot(record, { projectName: record.name, userDatabaseEnabled: true });
      expect(out.code).toContain("const NODES: ScenarioNode[] = [");
      const skipped = out.warnings.filter((w) => /does not run|unknown type/.test(w.message) && RUN_TYPES.some((t) => w.message.includes(`"${t}"`)));
      expect(skipped).toEqual([]);
    });
  }

  // Its generation time is measured in bench/codegen.ts, beside the other scenario sizes.
  compatTest("the 216-node vprogulke file generates deterministically", () => {
    const record = JSON.parse(readFileSync(join(ROOT, "../shared/compat/current/vprogulke-admin-panel.json"), "utf8"));
    expect(countNodes(record.data).nodesCount).toBe(216);
    const opts = { projectName: record.name, userDatabaseEnabled: true, flags: { catchAllHandlers: true, protectContent: true, contentCache: true } };
    const first = generateBot(record, opts);
    const again = generateBot(JSON.parse(JSON.stringify(record)), opts);
    expect(again.code).toBe(first.code);
  });
});

test("generated programs and the runners' interpreter type-check against grammY (tsc --noEmit)", async () => {
  const dir = tmpDir("scenario-typecheck-");
  try {
    const programs: [string, unknown, Parameters<typeof generateBot>[1]][] = [
      ["showcase", showcaseScenario, { projectName: "Showcase", userDatabaseEnabled: false, flags: { catchAllHandlers: true, protectContent: true, contentCache: true }, mediaCache: { "x.jpg": "X" } }],
      ["logic", logicScenario, { projectName: "Logic", userDatabaseEnabled: true, enableLogging: true }],
      ["details", detailsScenario, { projectName: "Details", userDatabaseEnabled: false }],
      ["empty", { sheets: [] }, { projectName: "Empty", userDatabaseEnabled: false }],
      ["preview", logicScenario, { projectName: "Preview", userDatabaseEnabled: true, enableLogging: true, preview: true }],
      ...Object.entries(MESSAGING_FIXTURES).map(([name, d]): [string, unknown, Parameters<typeof generateBot>[1]] => [name, d, { projectName: name, userDatabaseEnabled: true, enableLogging: true }]),
    ];
    if (HAS_COMPAT) {
      for (const f of COMPAT_FILES) {
        const record = JSON.parse(readFileSync(f.path, "utf8"));
        programs.push([`${f.form}-${f.name}`, record, { projectName: record.name, userDatabaseEnabled: true }]);
      }
    }
    for (const [name, d, opts] of programs) writeFileSync(join(dir, `${name}.ts`), generateBot(d, opts).code);
    // The shared runners' interpreter is the same runtime inside createBot(tables, host).
    writeFileSync(join(dir, "interpreter.ts"), renderInterpreter());
    // Each generated file is a module of its own; the repo's compiler options apply (strict).
    writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({ extends: "../../tsconfig.json", include: ["*.ts"] }));
    const tsc = Bun.spawn([join(ROOT, "node_modules/.bin/tsc"), "--noEmit", "-p", join(dir, "tsconfig.json")], { cwd: ROOT, stdout: "pipe", stderr: "pipe" });
    const [out, err, code] = await Promise.all([new Response(tsc.stdout).text(), new Response(tsc.stderr).text(), tsc.exited]);
    expect(out + err).toBe("");
    expect(code).toBe(0);
  } finally {
    removeDir(dir);
  }
}, 60_000);
