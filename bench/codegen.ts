// Generation time of the bot program (normalize + validate + compile + render) for synthetic
// scenarios of 100 / 1,000 / 5,000 nodes and for the real 216-node vprogulke scenario: median and
// minimum of several runs after a warm-up, then the same phases timed one by one (median ms) to
// show where the time goes. The machine is shared, so compare figures of the same run only.
// Prints ONE JSON line of figures.
//
//   bun bench/codegen.ts [--runs 7]
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { generateBot, normalizeDocument, validateScenario } from "../src/scenario";
import { documentNodesSchema } from "../src/scenario/model";
import { compileScenario } from "../src/scenario/codegen/compile";
import { renderProgram, type ProgramSettings } from "../src/scenario/codegen/program";
import { logicBlock, synthetic } from "./codegen-scenarios";

function arg(name: string, def: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const v = i >= 0 ? Number(process.argv[i + 1]) : def;
  if (!Number.isInteger(v) || v <= 0) throw new Error(`--${name} must be a positive integer`);
  return v;
}
const RUNS = arg("runs", 7);

function median(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

const ms = (v: number) => Number(v.toFixed(2));
const OPTS = { projectName: "Bench", userDatabaseEnabled: true, flags: { catchAllHandlers: true, protectContent: true, contentCache: true } };
const SETTINGS: ProgramSettings = { projectName: "Bench", userDatabase: true, logging: false, catchAll: true, protectContent: true, contentCache: true, mediaCache: {} };

/** The steps of generateBot, timed one by one (its warning merge and line count are left out). */
function phases(doc: unknown): Record<string, number> {
  const t: number[] = [performance.now()];
  const normalized = normalizeDocument(doc);
  t.push(performance.now());
  validateScenario(normalized);
  t.push(performance.now());
  const parsed = documentNodesSchema.parse(normalized);
  t.push(performance.now());
  const { compiled } = compileScenario(parsed);
  t.push(performance.now());
  renderProgram(SETTINGS, compiled);
  t.push(performance.now());
  return { normalize: t[1]! - t[0]!, validate: t[2]! - t[1]!, parse: t[3]! - t[2]!, compile: t[4]! - t[3]!, render: t[5]! - t[4]! };
}

function measure(doc: unknown) {
  const first = generateBot(doc, OPTS); // warm-up (and the size figures)
  const times: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    const t0 = performance.now();
    generateBot(doc, OPTS);
    times.push(performance.now() - t0);
  }
  const split: Record<string, number[]> = {};
  for (let r = 0; r < RUNS; r++) for (const [k, v] of Object.entries(phases(doc))) (split[k] ??= []).push(v);
  const phaseMs = Object.fromEntries(Object.entries(split).map(([k, v]) => [k, ms(median(v)!)]));
  return { medianMs: ms(median(times)!), minMs: ms(Math.min(...times)), phaseMs, lines: first.lines, kb: Math.round(first.code.length / 1024) };
}

const figures: Record<string, unknown> = { bench: "codegen", runs: RUNS };
for (const n of [100, 1000, 5000]) figures[`nodes${n}`] = measure(synthetic(n));
// 1,000 logic and data nodes; nodes1000 (the Level 1 mix) above is its same-run baseline.
figures.logic1000 = measure(synthetic(1000, logicBlock));
const vprogulke = join(import.meta.dir, "..", "..", "shared", "compat", "current", "vprogulke-admin-panel.json");
figures.vprogulke216 = existsSync(vprogulke) ? measure(JSON.parse(readFileSync(vprogulke, "utf8"))) : "compat file not found";
console.log(JSON.stringify(figures));
