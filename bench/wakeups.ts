// How much a CPU-bound process at a given niceness delays the server's answers (docs/performance.md
// "Where the health p99 under load goes"): the compiled server, idle, probed with /api/health (one
// request at a time, 10 ms apart, from a process of its own) while as many busy loops as the machine
// has cores run at each niceness in turn, windows alternated over rounds with an idle window as the
// same-run baseline. This is what chose how much nicer than the server bots (BOT_NICE) and
// background work (BACKGROUND_NICE) run, src/lib/priority.ts. Prints ONE JSON line.
//
//   bun bench/wakeups.ts [--seconds 4] [--rounds 3]
import { availableParallelism } from "node:os";
import { BACKGROUND_NICE, BOT_NICE } from "../src/lib/priority";
import { arg, BUN, healthProbe, latency, onCleanup, ratio, runBench, startBinaryPlatform } from "./lib";

const SECONDS = arg("seconds", 4);
const ROUNDS = arg("rounds", 3);
const NICES = [...new Set([5, 10, 15, BOT_NICE, BACKGROUND_NICE])].sort((a, b) => a - b);

/** One busy loop per core at niceness `nice` (the server's own is 0) while `window` runs. */
async function busy<T>(nice: number, window: () => Promise<T>): Promise<T> {
  const loops = Array.from({ length: availableParallelism() }, () => Bun.spawn(["nice", "-n", String(nice), BUN, "-e", "for(;;){}"], { stdout: "ignore", stderr: "inherit" }));
  onCleanup(() => loops.forEach((l) => l.kill()));
  try {
    return await window();
  } finally {
    for (const l of loops) l.kill();
    await Promise.all(loops.map((l) => l.exited));
  }
}

await runBench("wakeups", async () => {
  const p = await startBinaryPlatform();
  const ms = SECONDS * 1000;
  const idle: number[] = [];
  const loaded = new Map<number, number[]>(NICES.map((n) => [n, []]));
  for (let round = 0; round < ROUNDS; round++) {
    idle.push(...(await healthProbe(p.url, ms, "fetch")));
    for (const nice of NICES) loaded.get(nice)!.push(...(await busy(nice, () => healthProbe(p.url, ms, "fetch"))));
  }
  const base = latency(idle);
  return {
    seconds: SECONDS,
    rounds: ROUNDS,
    busyLoops: availableParallelism(),
    idle: base,
    // health p99 with a busy loop per core at each niceness, and its ratio to idle
    byNice: Object.fromEntries([...loaded].map(([nice, samples]) => {
      const l = latency(samples);
      return [`nice${nice}`, { p50Ms: l.p50Ms, p99Ms: l.p99Ms, p99Ratio: ratio(l.p99Ms, base.p99Ms) }];
    })),
    botNice: BOT_NICE,
    backgroundNice: BACKGROUND_NICE,
  };
});
