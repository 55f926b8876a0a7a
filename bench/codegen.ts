// Generation time of the bot program (normalize + validate + compile + render) for synthetic
// scenarios of 100 / 1,000 / 5,000 nodes and for the real 216-node vprogulke scenario. Median of
// several runs after a warm-up. Prints ONE JSON line of figures.
//
//   bun bench/codegen.ts [--runs 7]
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { generateBot } from "../src/scenario";
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

function measure(doc: unknown) {
  const opts = { projectName: "Bench", userDatabaseEnabled: true, flags: { catchAllHandlers: true, protectContent: true, contentCache: true } };
  const first = generateBot(doc, opts); // warm-up (and the size figures)
  const times: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    const t0 = performance.now();
    generateBot(doc, opts);
    times.push(performance.now() - t0);
  }
  return { medianMs: Number(median(times).toFixed(2)), lines: first.lines, kb: Math.round(first.code.length / 1024) };
}

const figures: Record<string, unknown> = { bench: "codegen", runs: RUNS };
for (const n of [100, 1000, 5000]) figures[`nodes${n}`] = measure(synthetic(n));
// 1,000 logic and data nodes; nodes1000 (the Level 1 mix) above is its same-run baseline.
figures.logic1000 = measure(synthetic(1000, logicBlock));
const vprogulke = join(import.meta.dir, "..", "..", "shared", "compat", "current", "vprogulke-admin-panel.json");
figures.vprogulke216 = existsSync(vprogulke) ? measure(JSON.parse(readFileSync(vprogulke, "utf8"))) : "compat file not found";
console.log(JSON.stringify(figures));
