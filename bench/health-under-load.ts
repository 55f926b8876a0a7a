// /api/health while the server is loaded by generates and previews (issue 29 item 11), under the
// compiled binary: p99 of a health probe (a process of its own; one request at a time, 10 ms
// apart) idle, then while
// 8 clients generate the program of a large scenario (2,000 nodes), eight times a second in all,
// --previewers users each start a preview of it, talk to it and stop it, once a second each, and
// one user runs the worst scenario SQL of issue 29's probe (expensive generated columns, a big
// sort, a recursive CTE, TEMP filled near its cap) without pause in a bot of a third owner (its
// runner, on the fake messenger) and in a preview of the same scenario: the loads of issue 29's
// probe. Two owners' bots run in shared runners on the fake messenger (this process) meanwhile:
// none of the runners may be killed and no crash counted. The idle probe is the same-run baseline
// (target: loaded p99 <= 1.5x idle). Prints ONE JSON line.
//
//   bun bench/health-under-load.ts [--seconds 24] [--rounds 3] [--generators 8] [--previewers 2] [--sql 1]
//     [--generate-rate N]: N generates a second in all (default 8; 0: each client without pause)
//     [--preview-rate N]: each previewer starts N previews a second (default 1; 0: without pause)
//   24 seconds of each kind of window by default (about 2,200 probes each): a p99 then rests on
//   its 22 worst samples rather than 11 (docs/performance.md "The figure on a second machine").
//   [--settle 5]: seconds of quiet before each idle window. With the first round not measured
//   and each window's first second of probes not kept, the idle windows are quiet: before, they
//   held a noisy first window and the probe's own start, and the ratio read low (1.71x where it is
//   1.96x, medians of the same evening; docs/performance.md "The figure against a quiet server")
//   --profile <dir>: the server from source under Bun's CPU profiler (written there at the end)
//   --gc-log: the server logs its garbage collections (BUN_JSC_logGC); reports, per kind of
//     window, the collections of the event loop's heap and their pauses
//   --gc-timer-off: the server without Bun's own GC timer (BUN_GC_TIMER_DISABLE), to compare
//   --probe fetch: the probe's requests through fetch (whose HTTP client is a thread of its own)
//     instead of on a raw kept-alive socket read on the probe's only thread (the default since
//     round three's ninth stop: on busy cores the probe's own threads took the event loop's core
//     most often; docs/performance.md "Previews in a thread of their own")
//   --probe stamped: the socket probe's requests through libc, each also timed to its answer's arrival
//     at the probe's socket (the kernel's receive stamp, bench/stamped-probe.ts): reports `atSocket`,
//     the server's part without the probe's own wait for a core (docs/performance.md "The figure,
//     eighteenth stop")
//   --clients-anywhere: the load's clients (a process of their own) on every core; by default they
//     run on the cores the server leaves to background work, as clients elsewhere would not take
//     the server's own core (docs/performance.md "One core kept for the event loop")
//   --background-cpus all: the server started with BACKGROUND_CPUS=all (bots on every core), to compare
//   --messenger-anywhere: this process (the fake messenger the runners' bots talk to) stays on every
//     core; by default, once the server is up, it moves to the cores the server leaves to background
//     work, as the clients do: the messenger is elsewhere too (docs/performance.md "Previews in a
//     thread of their own"). The probe runs on every core either way.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { backgroundCpus, cpusOfThisThread, setProcessCpus } from "../src/lib/priority";
import { startFakeMessenger } from "../test/support/fake-messenger";
import { greeterScenario } from "../test/bots/scenario-fixture";
import { synthetic } from "./codegen-scenarios";
import { BURN, SETUP, WORST_SQL } from "./worst-sql";
import { api, arg, BUN, healthProbe, latency, stampedHealthProbe, probeArg, onCleanup, raiseTokenIds, ratio, runBench, startBinaryPlatform, until } from "./lib";

const SECONDS = arg("seconds", 24);
const PREVIEWERS = arg("previewers", 2);
const ROUNDS = arg("rounds", 3);
const GENERATORS = arg("generators", 8);
/** 0 leaves the worst scenario SQL out (the load of the first version of this bench) */
const SQL = arg("sql", 1);
/** generates a second in all (0: each client without pause): compares servers at the same offered load */
const RATE = arg("generate-rate", 8);
/** preview cycles (start, a message, stop) a second per previewer (0: without pause) */
const PREVIEW_RATE = arg("preview-rate", 1);
/**
 * Seconds of quiet before each idle window: what the load leaves behind when it stops (its last
 * previews stopping, its files written out) is the load's, not the idle server's.
 */
const SETTLE = arg("settle", 5);
/** The probe's first second in each window is not kept (bench/lib.ts healthProbe). */
const PROBE_WARMUP_MS = 1000;
const PROFILE = process.argv.includes("--profile") ? process.argv[process.argv.indexOf("--profile") + 1] : undefined;
const GC_LOG = process.argv.includes("--gc-log");
const GC_TIMER_OFF = process.argv.includes("--gc-timer-off");
/** the load's clients on the cores the server leaves to background work (default), or on every core */
const CLIENTS_CPUS = process.argv.includes("--clients-anywhere") ? "any" : "background";
/** the server's BACKGROUND_CPUS (docs/operations.md): all shares every core with the bots, to compare */
const SERVER_CPUS = process.argv.includes("--background-cpus") ? process.argv[process.argv.indexOf("--background-cpus") + 1] : undefined;
/** the health probe's client (bench/lib.ts healthProbe): socket (default) or fetch */
const PROBE = probeArg();
/** this process (the fake messenger) on the background cores once the server is up (default), or on every core */
const MESSENGER_CPUS = process.argv.includes("--messenger-anywhere") ? "any" : "background";


type ThreadFigures = { cpuMs: number; waitMs: number; sysMs: number; wakeups: number; preemptions: number };

/**
 * The server's main thread (the event loop: its thread id is the process id) from /proc: CPU it
 * used and time it waited, ready, for a core (schedstat), in ms; how often it was woken (it slept
 * and something woke it) and preempted. Together they tell work on the event loop from contention
 * for the cores, which the health p99 alone cannot; on a VM each wake-up costs a wait for a core
 * (docs/performance.md "The waits for a core, tested").
 */
function mainThread(pid: number): ThreadFigures {
  const [run, wait] = readFileSync(`/proc/${pid}/task/${pid}/schedstat`, "utf8").split(" ").map(Number);
  // stat's fields after the command's closing parenthesis: stime (in the kernel, clock ticks of 10 ms) is the 13th
  const stat = readFileSync(`/proc/${pid}/task/${pid}/stat`, "utf8");
  const stime = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[12]);
  const status = readFileSync(`/proc/${pid}/task/${pid}/status`, "utf8");
  const count = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+)`, "m").exec(status)?.[1] ?? 0);
  return { cpuMs: run! / 1e6, waitMs: wait! / 1e6, sysMs: stime * 10, wakeups: count("voluntary_ctxt_switches"), preemptions: count("nonvoluntary_ctxt_switches") };
}

/**
 * The collections of the event loop's heap (the first heap the server's GC log names; worker
 * threads have heaps of their own) in a stretch of the log: how many, and every pause in ms.
 */
function collections(log: string, heap: string): { count: number; pauses: number[] } {
  let count = 0;
  const pauses: number[] = [];
  for (const m of log.matchAll(/\[GC<(0x[0-9a-f]+)>: ([^\]]*)\]/g)) {
    if (m[1] !== heap) continue;
    if (m[2]!.includes("START")) count++;
    for (const p of m[2]!.matchAll(/ p=([0-9.]+)ms/g)) pauses.push(Number(p[1]));
  }
  return { count, pauses };
}

/** POST generate, reading the answer without parsing it (the program is large). */
async function generate(url: string, projectId: number, cookie: string) {
  const r = await fetch(`${url}/api/projects/${projectId}/generate`, { method: "POST", headers: { cookie, "content-type": "application/json" }, body: "{}" });
  const bytes = (await r.arrayBuffer()).byteLength;
  if (r.status !== 200 || bytes < 100_000) throw new Error(`generate answered ${r.status} with ${bytes} bytes`);
}

interface ClientSpec {
  url: string;
  ms: number;
  generators: number;
  /** generates a second in all; 0: without pause */
  rate: number;
  /** preview cycles a second per previewer; 0: without pause */
  previewRate: number;
  generate: { projectId: number; cookie: string };
  previews: { cookie: string; projectId: number }[];
  /** a user running the worst SQL in a preview of it */
  sqlPreview: { cookie: string; projectId: number } | null;
}

/**
 * The load's clients, as a process of their own at a lower priority (`nice`): on a deployed server
 * they are elsewhere, so their CPU must not count against the server's answers. Resolves once the
 * last of their requests is answered.
 */
async function load(spec: ClientSpec): Promise<{ generates: number; previews: number; previewBurns: number }> {
  const proc = Bun.spawn(["nice", "-n", "10", BUN, import.meta.path, "--clients", JSON.stringify(spec)], { stdout: "pipe", stderr: "inherit" });
  if (CLIENTS_CPUS === "background") setProcessCpus(proc.pid, backgroundCpus());
  onCleanup(() => proc.kill());
  const out = await new Response(proc.stdout).text();
  if ((await proc.exited) !== 0) throw new Error("the load's clients failed");
  return JSON.parse(out);
}

/** The body of that process: generate and preview loops until `ms` is over. */
async function clients(spec: ClientSpec) {
  const end = performance.now() + spec.ms;
  const over = () => performance.now() > end;
  let generates = 0;
  let previews = 0;
  const generating = Array.from({ length: spec.generators }, async (_, i) => {
    const every = spec.rate > 0 ? (1000 * spec.generators) / spec.rate : 0;
    let next = performance.now() + (every * i) / spec.generators;
    for (;;) {
      if (every) {
        await Bun.sleep(Math.max(0, next - performance.now()));
        next += every;
      }
      if (over()) return;
      await generate(spec.url, spec.generate.projectId, spec.generate.cookie);
      generates++;
    }
  });
  const previewing = spec.previews.map(async ({ cookie, projectId }) => {
    const every = spec.previewRate > 0 ? 1000 / spec.previewRate : 0;
    let next = performance.now();
    for (; !over(); previews++) {
      if (every) {
        await Bun.sleep(Math.max(0, next - performance.now()));
        next += every;
        if (over()) return;
      }
      const s = await api(spec.url, "POST", `/api/projects/${projectId}/preview`, { cookie, json: {}, expect: 201 });
      await api(spec.url, "POST", `/api/preview/${s.id}/actions`, { cookie, json: { type: "text", text: "/start" } });
      await api(spec.url, "DELETE", `/api/preview/${s.id}`, { cookie });
    }
  });
  let previewBurns = 0;
  const burning = spec.sqlPreview && (async ({ cookie, projectId }: { cookie: string; projectId: number }) => {
    const s = await api(spec.url, "POST", `/api/projects/${projectId}/preview`, { cookie, json: {}, expect: 201 });
    const say = async (text: string) => {
      let version = (await api(spec.url, "POST", `/api/preview/${s.id}/actions`, { cookie, json: { type: "text", text } })).version;
      await until(async () => {
        const t = await api(spec.url, "GET", `/api/preview/${s.id}/transcript?after=${version}&wait=1000`, { cookie });
        version = t.version;
        return t.entries.some((e: { from: string; text?: string }) => e.from === "bot" && e.text === "done");
      }, `the preview's answer to ${text}`, 60_000);
    };
    for (const command of SETUP) await say(command);
    for (; !over(); previewBurns++) for (const command of BURN) await say(command);
    await api(spec.url, "DELETE", `/api/preview/${s.id}`, { cookie });
  })(spec.sqlPreview);
  await Promise.all([...generating, ...previewing, burning]);
  console.log(JSON.stringify({ generates, previews, previewBurns }));
}

if (process.argv[2] === "--clients") await clients(JSON.parse(process.argv[3]!));
else await runBench("health-under-load", async () => {
  const fake = await startFakeMessenger();
  onCleanup(() => fake.stop());
  const p = await startBinaryPlatform({ env: { MESSENGER_API_ROOT: fake.url, BOT_RUNNERS: "1", LOG_LEVEL: "warn", ...(SERVER_CPUS ? { BACKGROUND_CPUS: SERVER_CPUS } : {}), ...(GC_LOG ? { BUN_JSC_logGC: "1" } : {}), ...(GC_TIMER_OFF ? { BUN_GC_TIMER_DISABLE: "1" } : {}) }, cpuProfileDir: PROFILE });
  raiseTokenIds(join(p.dir, "data", "botloom.db"), 4);
  // When a step fails, what the server said is the first thing to read.
  onCleanup(() => process.exitCode && console.error(`the server's output:\n${p.server.output().slice(-4000)}`));

  // Two owners' bots in their runners, and the third owner's bot that runs the worst SQL.
  const bots: { cookie: string; projectId: number; token: string; tokenId: number }[] = [];
  for (const owner of SQL ? [21, 22, 23] : [21, 22]) {
    const cookie = await p.login(owner);
    const project = await api(p.url, "POST", "/api/projects", { cookie, json: { name: `Owner${owner}`, data: owner === 23 ? WORST_SQL : greeterScenario } });
    const f = fake.addBot({ username: `owner${owner}_bot` });
    const token = await api(p.url, "POST", `/api/bot/projects/${project.id}/tokens`, { cookie, json: { token: f.token } });
    await api(p.url, "POST", `/api/bot/tokens/${token.id}/start`, { cookie });
    await until(() => fake.calls(f.token, "getUpdates").length > 0, "the bot to poll", 30_000);
    bots.push({ cookie, projectId: project.id, token: f.token, tokenId: token.id });
  }
  const sqlBot = SQL ? bots.pop()! : null;
  const answers = async (round: number) => {
    for (const [i, b] of bots.entries()) {
      const user = { id: 9100 + 10 * round + i, first_name: "Ann" };
      fake.sendText(b.token, user, "/start");
      await fake.waitForSent(b.token, user.id, 1, 30_000);
    }
  };
  await answers(0);
  const sqlUser = { id: 9300, first_name: "Eve" };
  const tell = async (text: string) => {
    fake.sendText(sqlBot!.token, sqlUser, text);
    await fake.waitForSent(sqlBot!.token, sqlUser.id, 1, 60_000);
  };
  if (sqlBot) for (const command of SETUP) await tell(command);
  /** The worst SQL in the third owner's bot, one round of BURN after another, for `ms`: how many rounds ran. */
  const burnInBot = async (ms: number) => {
    let burns = 0;
    if (!sqlBot) return 0;
    for (const end = performance.now() + ms; performance.now() < end; burns++) for (const command of BURN) await tell(command);
    return burns;
  };

  const cookie = await p.login(31);
  const large = await api(p.url, "POST", "/api/projects", { cookie, json: { name: "Large", data: synthetic(2000) } });
  const previewers = await Promise.all(Array.from({ length: PREVIEWERS }, (_, i) => p.login(41 + i)));
  const shared = await Promise.all(previewers.map(async (c, i) => (await api(p.url, "POST", "/api/projects", { cookie: c, json: { name: `Preview${i}`, data: synthetic(2000) } })).id as number));
  const sqlPreviewer = SQL ? await p.login(51) : null;
  const sqlPreview = sqlPreviewer ? { cookie: sqlPreviewer, projectId: (await api(p.url, "POST", "/api/projects", { cookie: sqlPreviewer, json: { name: "Worst SQL", data: WORST_SQL } })).id as number } : null;

  // Idle and loaded windows alternate (the machine is shared: its other load then falls on both alike).
  const idleSamples: number[] = [];
  const loadedSamples: number[] = [];
  /** with --probe stamped: the same requests timed to the answer's arrival at the probe's socket */
  const atSocket = { idle: [] as number[], loaded: [] as number[], unstamped: 0 };
  const probe = async (): Promise<{ seen: number[]; atSocket?: number[]; unstamped?: number }> =>
    PROBE === "stamped" ? stampedHealthProbe(p.url, windowMs, everyCore, PROBE_WARMUP_MS) : { seen: await healthProbe(p.url, windowMs, PROBE, everyCore, PROBE_WARMUP_MS) };
  let generates = 0;
  let previews = 0;
  let botBurns = 0;
  let previewBurns = 0;
  const windowMs = (SECONDS * 1000) / ROUNDS;
  const spec: ClientSpec = { url: p.url, ms: windowMs, generators: GENERATORS, rate: RATE, previewRate: PREVIEW_RATE, generate: { projectId: large.id, cookie }, previews: previewers.map((c, i) => ({ cookie: c, projectId: shared[i]! })), sqlPreview };
  const pid = p.server.proc.pid;
  const zero = (): ThreadFigures => ({ cpuMs: 0, waitMs: 0, sysMs: 0, wakeups: 0, preemptions: 0 });
  const thread = { idle: zero(), loaded: zero() };
  /** How long each kind of window lasted in all, in seconds (the probe's warm-up included). */
  const lasted = { idle: 0, loaded: 0 };
  /** The server's GC log of each kind of window (with --gc-log). */
  const gcLog = { idle: "", loaded: "" };
  /** Runs `window`, adding what the main thread did meanwhile to `into`. */
  const watched = async <T>(kind: "idle" | "loaded", window: () => Promise<T>): Promise<T> => {
    const into = thread[kind];
    const before = mainThread(pid);
    const logFrom = p.server.output().length;
    const started = performance.now();
    const out = await window();
    lasted[kind] += (performance.now() - started) / 1000;
    const after = mainThread(pid);
    for (const k of Object.keys(into) as (keyof ThreadFigures)[]) into[k] += after[k] - before[k];
    gcLog[kind] += p.server.output().slice(logFrom);
    return out;
  };
  // The probe keeps every core this process had; the server, its bots and runners keep theirs.
  const everyCore = cpusOfThisThread();
  if (MESSENGER_CPUS === "background") setProcessCpus(process.pid, backgroundCpus());
  // One window of the load first, not measured: the figures are of a server that has seen the load
  // before (its code compiled by the JIT, its caches filled), as a server that has been up a while has.
  await Promise.all([load(spec), burnInBot(windowMs)]);
  // The load runs while the probe warms up too, and a little longer (the probe is a process to start).
  const loadMs = PROBE_WARMUP_MS + windowMs + 250;
  /** Each measured round's p99s: a round far from the others says the machine was not steady. */
  const perRound = { idle: [] as number[], loaded: [] as number[] };
  // Round -1 is not measured either: the first idle window was the noisiest of any (its p99
  // 1.6-2.0 ms where later idle windows gave 0.6-0.7), whatever the warm-up's length: the warm-up
  // sends no probes, so the server's JIT compiles the probe's path there (docs/performance.md "The
  // figure against a quiet server").
  for (let round = -1; round < ROUNDS; round++) {
    const measured = round >= 0;
    const watch = <T>(kind: "idle" | "loaded", window: () => Promise<T>) => (measured ? watched(kind, window) : window());
    await Bun.sleep(SETTLE * 1000);
    const idleProbe = await watch("idle", probe);
    const [loadedProbe, done, burns] = await watch("loaded", () => Promise.all([probe(), load({ ...spec, ms: loadMs }), burnInBot(loadMs)]));
    if (!measured) continue;
    const quiet = idleProbe.seen;
    const samples = loadedProbe.seen;
    idleSamples.push(...quiet);
    loadedSamples.push(...samples);
    atSocket.idle.push(...(idleProbe.atSocket ?? []));
    atSocket.loaded.push(...(loadedProbe.atSocket ?? []));
    atSocket.unstamped += (idleProbe.unstamped ?? 0) + (loadedProbe.unstamped ?? 0);
    perRound.idle.push(latency(quiet).p99Ms);
    perRound.loaded.push(latency(samples).p99Ms);
    generates += done.generates;
    previews += done.previews;
    previewBurns += done.previewBurns;
    botBurns += burns;
  }
  const idle = latency(idleSamples);
  const loaded = latency(loadedSamples);

  await answers(1);
  const launches = await Promise.all([...bots, ...(sqlBot ? [sqlBot] : [])].map(async (b) => (await api(p.url, "GET", `/api/projects/${b.projectId}/launches/all`, { cookie: b.cookie })) as { status: string }[]));
  const kills = p.server.output().match(/bot runner \d+ killed.*/g) ?? [];
  // the server process's resident memory after the run (what a GC setting costs)
  const serverRssMb = Number((Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) / 1024).toFixed(1));
  const loadedSeconds = lasted.loaded;
  return {
    seconds: SECONDS,
    rounds: ROUNDS,
    settleSeconds: SETTLE,
    probeWarmupMs: PROBE_WARMUP_MS,
    generators: GENERATORS,
    generateRate: RATE,
    previewRate: PREVIEW_RATE,
    previewers: PREVIEWERS,
    idle,
    loaded,
    p99Ratio: ratio(loaded.p99Ms, idle.p99Ms),
    p99PerRound: perRound,
    ...(PROBE === "stamped" ? { atSocket: stampedFigures(atSocket) } : {}),
    generates,
    previews,
    generatesPerSecond: Number((generates / loadedSeconds).toFixed(2)),
    previewsPerSecond: Number((previews / loadedSeconds).toFixed(2)),
    // /burn rounds of the worst SQL: in the third owner's bot, in a preview
    sqlBurns: { bot: botBurns, preview: previewBurns },
    // the event loop's thread per second of each kind of window: CPU used, time waited for a core, wake-ups, preemptions
    mainThreadPerSecond: Object.fromEntries(Object.entries(thread).map(([k, v]) => [k, Object.fromEntries(Object.entries(v).map(([f, n]) => [f, Number((n / lasted[k as keyof typeof lasted]).toFixed(1))]))])),
    ...(GC_LOG ? { gc: gcSummary(p.server.output(), gcLog, lasted) } : {}),
    ...(GC_TIMER_OFF ? { gcTimer: "off" } : {}),
    probe: PROBE,
    messenger: MESSENGER_CPUS,
    serverRssMb,
    runnersKilled: kills.length,
    ...(kills.length ? { kills } : {}),
    // every bot still in its first launch: no runner restarted, no crash counted
    botsRelaunched: launches.filter((l) => l.length !== 1 || l[0]!.status !== "running").length,
  };
});

/** The server's part: the same probes to their answers' arrival at the probe's socket. */
function stampedFigures(at: { idle: number[]; loaded: number[]; unstamped: number }) {
  const idle = latency(at.idle);
  const loaded = latency(at.loaded);
  // answers the kernel gave no stamp count as the probe saw them (rare; never shorter)
  return { idle, loaded, p99Ratio: ratio(loaded.p99Ms, idle.p99Ms), unstamped: at.unstamped };
}

/** Per kind of window: the event loop heap's collections a second and their pauses (p50, p90, max, ms a second). */
function gcSummary(whole: string, logs: { idle: string; loaded: string }, lasted: { idle: number; loaded: number }) {
  const heap = /GC<(0x[0-9a-f]+)>/.exec(whole)?.[1] ?? "";
  return Object.fromEntries(
    Object.entries(logs).map(([kind, log]) => {
      const seconds = lasted[kind as keyof typeof lasted];
      const { count, pauses } = collections(log, heap);
      const l = pauses.length ? latency(pauses) : null;
      return [kind, { perSecond: Number((count / seconds).toFixed(2)), pauseP50Ms: l?.p50Ms ?? 0, pauseP90Ms: l?.p90Ms ?? 0, pauseMaxMs: l?.maxMs ?? 0, pausedMsPerSecond: Number((pauses.reduce((a, b) => a + b, 0) / seconds).toFixed(1)) }];
    }),
  );
}
