// The machine's floor for bench/health-under-load.ts: the same health probe against a server that
// does nothing else (one Bun.serve answering {"ok":true}), idle and while processes like that
// bench's load run beside it — the worst scenario SQL in two processes (10 and 19 nicer, as a
// runner and a preview bot), a process started every half second (a preview's start) and bursts
// of CPU 19 nicer (the generator's threads). Each round measures idle, the load on every core, and
// the load kept off the first core (as the server keeps its bots: BACKGROUND_CPUS=auto), and that
// again with the HTTP traffic of that bench's load sent to the server by clients kept off the first
// core too: eight answers of 0.9 MB a second (its generates) and forty small requests (its previews
// and their bots' Bot API calls), each answered without work. No Botloom code answers here: what
// the ratios show is the kernel's, the VM's and Bun's own (docs/performance.md "One core kept for
// the event loop"). Prints ONE JSON line.
//
//   bun bench/health-floor.ts [--seconds 4] [--rounds 3] [--probe fetch]
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { backgroundCpus, setProcessCpus } from "../src/lib/priority";
import { freePort } from "../test/support/process";
import { arg, BUN, healthProbe, latency, probeArg, onCleanup, ratio, runBench } from "./lib";
import { BURN, SETUP, STATEMENTS } from "./worst-sql";

const SECONDS = arg("seconds", 4);
const ROUNDS = arg("rounds", 3);
const PROBE = probeArg();

/** One process running the worst SQL without pause on a file of its own (TEMP in files, as a project's). */
const burner = (dir: string) => `
import { Database } from "bun:sqlite";
const db = new Database(${JSON.stringify(join(dir, "p.db"))});
db.exec("PRAGMA temp_store = FILE");
const statements = ${JSON.stringify(STATEMENTS)};
for (const c of ${JSON.stringify(SETUP)}) db.run(statements[c.slice(1)]);
for (;;) for (const c of ${JSON.stringify(BURN)}) { db.prepare(statements[c.slice(1)]).all(); await Bun.sleep(1); }`;
const CPU_BURSTS = `for (;;) { const t = performance.now(); const o = []; while (performance.now() - t < 30) { o.push(JSON.stringify({ a: Math.random() })); if (o.length > 1e4) o.length = 0; } await Bun.sleep(95); }`;
const A_START = `const t = performance.now(); const o = []; while (performance.now() - t < 60) o.push(JSON.stringify({ n: o.length })); await Bun.sleep(300);`;

/** The do-nothing server: {"ok":true} for the probe and small requests, a kept 0.9 MB body for /program. */
const SERVER = (port: number) => `
const program = new Blob(['{"code":' + JSON.stringify("x".repeat(900_000)) + '}'], { type: "application/json" });
Bun.serve({ port: ${port}, hostname: "127.0.0.1", fetch: (req) => new URL(req.url).pathname === "/program" ? new Response(program) : Response.json({ ok: true }) });`;

/** The load's traffic at its rates: 8 programs and 40 small JSON requests a second, kept-alive connections. */
const TRAFFIC = (url: string) => `
const every = (ms, f) => { const loop = async () => { for (;;) { const t = performance.now(); await f(); await Bun.sleep(Math.max(0, ms - (performance.now() - t))); } }; return loop(); };
for (let i = 0; i < 2; i++) every(250, async () => { const r = await fetch(${JSON.stringify(url + "/program")}, { method: "POST", body: "{}" }); await r.arrayBuffer(); });
for (let i = 0; i < 4; i++) every(100, async () => { const r = await fetch(${JSON.stringify(url + "/bot/sendMessage")}, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ chat_id: 1, text: "x".repeat(120) }) }); await r.json(); });`;

/** Starts the load; its processes on `cores` (null: wherever the kernel puts them). Returns its stop. */
function startLoad(dir: string, cores: Uint8Array | null): () => void {
  const procs = [
    Bun.spawn(["nice", "-n", "10", BUN, "-e", burner(join(dir, "a"))], { stdout: "ignore", stderr: "inherit" }),
    Bun.spawn(["nice", "-n", "19", BUN, "-e", burner(join(dir, "b"))], { stdout: "ignore", stderr: "inherit" }),
    Bun.spawn(["nice", "-n", "19", BUN, "-e", CPU_BURSTS], { stdout: "ignore", stderr: "inherit" }),
  ];
  for (const p of procs) setProcessCpus(p.pid, cores);
  let stopped = false;
  void (async () => {
    while (!stopped) {
      const p = Bun.spawn(["nice", "-n", "19", BUN, "-e", A_START], { stdout: "ignore", stderr: "inherit" });
      setProcessCpus(p.pid, cores);
      procs.push(p);
      await Bun.sleep(500);
    }
  })();
  return () => {
    stopped = true;
    for (const p of procs) p.kill("SIGKILL");
  };
}

await runBench("health-floor", async () => {
  const dir = mkdtempSync(join(tmpdir(), "botloom-floor-"));
  for (const sub of ["a", "b"]) mkdirSync(join(dir, sub));
  onCleanup(() => rmSync(dir, { recursive: true, force: true }));
  const port = await freePort();
  const server = Bun.spawn([BUN, "-e", SERVER(port)], { stdout: "ignore", stderr: "inherit" });
  onCleanup(() => server.kill());
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 100 && !(await fetch(`${url}/api/health`).then((r) => r.ok, () => false)); i++) await Bun.sleep(20);
  const cores = backgroundCpus();
  const idle: number[] = [];
  const anywhere: number[] = [];
  const keptOff: number[] = [];
  const withTraffic: number[] = [];
  const under = async (into: number[], where: Uint8Array | null, traffic = false) => {
    const stop = startLoad(dir, where);
    const clients = traffic ? Bun.spawn(["nice", "-n", "10", BUN, "-e", TRAFFIC(url)], { stdout: "ignore", stderr: "inherit" }) : null;
    if (clients) {
      setProcessCpus(clients.pid, where);
      onCleanup(() => clients.kill());
    }
    await Bun.sleep(800); // the burners past their setup
    into.push(...(await healthProbe(url, SECONDS * 1000, PROBE)));
    stop();
    clients?.kill("SIGKILL");
    await Bun.sleep(500);
  };
  for (let r = 0; r < ROUNDS; r++) {
    idle.push(...(await healthProbe(url, SECONDS * 1000, PROBE)));
    await under(anywhere, null);
    if (cores) await under(keptOff, cores);
    if (cores) await under(withTraffic, cores, true);
  }
  const i = latency(idle);
  const a = latency(anywhere);
  const k = cores ? latency(keptOff) : null;
  const t = cores ? latency(withTraffic) : null;
  return {
    probe: PROBE,
    idle: i,
    loadAnywhere: a,
    loadOffFirstCore: k,
    loadAndTrafficOffFirstCore: t,
    p99RatioAnywhere: ratio(a.p99Ms, i.p99Ms),
    p99RatioOffFirstCore: k ? ratio(k.p99Ms, i.p99Ms) : null,
    p99RatioWithTraffic: t ? ratio(t.p99Ms, i.p99Ms) : null,
  };
});
