// Cold start of the compiled binary: spawn → first 200 from /api/health, median of 10, in an empty
// folder (first run: migrations, template seeding) and again on the data it left (a restart).
// The server listens before its app is loaded (src/listener.ts), so a restart is also measured to
// the first answer that needs the whole app (GET /admin/api/status): `restartAppMs`.
// Same-run baseline: a compiled bare Bun.serve answering /api/health, started the same way. Also
// the binary sizes. Prints ONE JSON line. `--against <binary>` also starts another build (say, the
// previous round's) the same way, alternately with this one, for a before/after on a busy machine.
//
//   bun bench/cold-start.ts [--runs 10] [--against dist/botloom-old]
import { mkdirSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { buildBinary, freePort } from "../test/support/process";
import { ROOT, arg, latency, onCleanup, ratio, round, runBench, tempDir } from "./lib";

const RUNS = arg("runs", 10);
const againstAt = process.argv.indexOf("--against");
// Absolute: every start runs in a folder of its own.
const AGAINST = againstAt >= 0 ? resolve(process.argv[againstAt + 1] ?? "") : undefined;
const DEADLINE_MS = 20_000;

/** The public route answered only by the whole app (the admin area is mounted outside production). */
const APP_PATH = "/admin/api/status";

/** Milliseconds from spawn to the first 200 of `path`; the process is killed afterwards. */
async function coldStart(cmd: string[], cwd: string, path = "/api/health"): Promise<number> {
  const port = await freePort();
  const t0 = performance.now();
  const proc = Bun.spawn(cmd, {
    cwd,
    env: { PATH: process.env.PATH ?? "", HOME: cwd, HOST: "127.0.0.1", PORT: String(port), LOG_LEVEL: "silent" },
    stdout: "ignore",
    stderr: "pipe",
    stdin: "ignore",
  });
  const kill = () => proc.kill("SIGKILL");
  onCleanup(kill);
  try {
    for (;;) {
      if (proc.exitCode !== null) throw new Error(`${cmd[0]} exited with ${proc.exitCode}: ${await new Response(proc.stderr).text()}`);
      try {
        const r = await fetch(`http://127.0.0.1:${port}${path}`);
        await r.arrayBuffer();
        if (r.status === 200) return performance.now() - t0;
      } catch {}
      if (performance.now() - t0 > DEADLINE_MS) throw new Error(`${cmd[0]} not healthy after ${DEADLINE_MS} ms`);
      await Bun.sleep(2);
    }
  } finally {
    kill();
    await proc.exited;
  }
}

/** A compiled Bun.serve with nothing else: the floor for start time and for size. */
async function bareBinary(dir: string): Promise<string> {
  const entry = join(dir, "bare.ts");
  writeFileSync(
    entry,
    `Bun.serve({ port: Number(process.env.PORT), hostname: "127.0.0.1", fetch: () => Response.json({ database: true, templates: true, ready: true }) });\n`,
  );
  const outfile = join(ROOT, "dist", "bare-bench");
  const r = await Bun.build({ entrypoints: [entry], compile: { outfile }, bytecode: true, format: "esm", target: "bun", minify: true });
  if (!r.success) throw new Error(`bare build failed: ${r.logs.join("\n")}`);
  return outfile;
}

await runBench("cold-start", async () => {
  const binary = await buildBinary(ROOT, "botloom-bench");
  const work = tempDir("cold");
  const bare = await bareBinary(work);
  const first: number[] = [];
  const restart: number[] = [];
  const restartApp: number[] = [];
  const baseline: number[] = [];
  const other = { first: [] as number[], restart: [] as number[], restartApp: [] as number[] };
  for (let i = 0; i < RUNS; i++) {
    const dir = join(work, `run-${i}`);
    mkdirSync(dir);
    // Interleaved, so a burst of load from elsewhere on the machine hits both alike.
    baseline.push(await coldStart([bare], dir));
    first.push(await coldStart([binary, "serve"], dir));
    restart.push(await coldStart([binary, "serve"], dir));
    restartApp.push(await coldStart([binary, "serve"], dir, APP_PATH));
    if (AGAINST) {
      const otherDir = join(work, `against-${i}`);
      mkdirSync(otherDir);
      other.first.push(await coldStart([AGAINST, "serve"], otherDir));
      other.restart.push(await coldStart([AGAINST, "serve"], otherDir));
      other.restartApp.push(await coldStart([AGAINST, "serve"], otherDir, APP_PATH));
    }
  }
  const f = latency(first);
  const r = latency(restart);
  const b = latency(baseline);
  const size = statSync(binary).size;
  const bareSize = statSync(bare).size;
  return {
    runs: RUNS,
    firstStartMs: { median: f.p50Ms, max: f.maxMs },
    restartMs: { median: r.p50Ms, max: r.maxMs },
    restartAppMs: { median: latency(restartApp).p50Ms, max: latency(restartApp).maxMs },
    bareServeMs: { median: b.p50Ms, max: b.maxMs },
    firstVsBare: ratio(f.p50Ms, b.p50Ms),
    restartVsBare: ratio(r.p50Ms, b.p50Ms),
    binaryMB: round(size / 1048576, 1),
    bareBinaryMB: round(bareSize / 1048576, 1),
    ownMB: round((size - bareSize) / 1048576, 1),
    ...(AGAINST ? { against: { binary: AGAINST, firstStartMs: latency(other.first).p50Ms, restartMs: latency(other.restart).p50Ms, restartAppMs: latency(other.restartApp).p50Ms } } : {}),
  };
});
