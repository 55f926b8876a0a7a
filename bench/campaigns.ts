// Campaigns (docs/campaigns.md): one campaign to --recipients users on the fake messenger with the
// token's pace raised to its limit (sendsPerSecond 1000), the server as its own process. Each
// figure beside a same-run baseline:
//  1. sends per second of the campaign (startedAt → finishedAt) vs the fake's back-to-back ceiling:
//     this process calling sendMessage one after another, as the sender does;
//  2. the server's RSS when the campaign starts vs when it is done (flat: nothing per recipient
//     stays in memory);
//  3. API p99 (GET of the campaign, and of a page of its recipients) while it sends vs the same
//     requests with the sender idle (target ≤ 1.2×), in a second campaign of the same audience that
//     alternates: probes for a second while it sends, pause, probes for a second while it is paused,
//     resume, ... so the busy and the idle samples meet the same load of the (shared) machine and
//     the same data. Beside it, the CPU time of the server's main thread (the event loop that
//     answers requests) per second of each kind of phase: the work the sender leaves there, a
//     figure the machine's load disturbs far less than a p99. The first campaign's probes while it sends vs before it and after it are kept
//     as `apiWhileSending` (the figure of earlier rounds). The fake messenger runs as a process of
//     its own: in this one, answering ~1,000 sends a second held the probes' own event loop and
//     counted into the server's latency.
// Prints ONE JSON line.
//
//   bun bench/campaigns.ts [--recipients 10000] [--full (100,000)] [--probes 300] [--phase-ms 1000]
import { Database } from "bun:sqlite";
import { join } from "node:path";
import { devLoginOnServer, startProcessServer } from "../test/support/process";
import { BUN, api, arg, cpuMs, latency, onCleanup, ratio, round, rssMb, runBench, tempDir, threadCpuMs, until, ROOT, BENCH_ADMIN_KEY, BENCH_SESSION_SECRET } from "./lib";

const FULL = process.argv.includes("--full");
const N = FULL ? 100_000 : arg("recipients", 10_000);
const PROBES = arg("probes", 300);
const PHASE_MS = arg("phase-ms", 1000);
/**
 * Probes a second, at most: a fixed rate rather than back to back, so the probes cost the server the
 * same in every phase and either sender (a faster API answered more back-to-back probes, and that
 * work took CPU from the campaign being measured on the shared machine).
 */
const PROBE_RATE = arg("probe-rate", 200);
const CEILING_CALLS = Math.min(N, 3000);
const TARGET_P99_RATIO = 1.2;
const ALTERNATED_MAX = 10_000;

await runBench("campaigns", async () => {
  const fake = await fakeProcess();
  onCleanup(() => fake.stop());
  const dir = tempDir("campaigns");
  const server = await startProcessServer([BUN, join(ROOT, "src/main.ts"), "serve"], {
    cwd: dir,
    env: { ADMIN_KEY: BENCH_ADMIN_KEY, SESSION_SECRET: BENCH_SESSION_SECRET, LOG_LEVEL: "warn", MESSENGER_API_ROOT: fake.url, DATA_DIR: join(dir, "data"), BOTS_DIR: join(dir, "bots") },
  });
  onCleanup(() => server.stop("SIGTERM"));
  const cookie = await devLoginOnServer(server.url, BENCH_ADMIN_KEY, 1);
  const project = await api(server.url, "POST", "/api/projects", { cookie, json: { name: "Campaign bench" } });
  const bot = await fake.addBot();
  const token = await api(server.url, "POST", `/api/bot/projects/${project.id}/tokens`, { cookie, json: { token: bot.token } });
  await api(server.url, "PATCH", `/api/bot/tokens/${token.id}`, { cookie, json: { sendsPerSecond: 1000 } });
  const base = `/api/bot/tokens/${token.id}/campaigns`;
  await api(server.url, "POST", `${base}/audience-size`, { cookie, json: {} }); // opens (creates) the project file

  // the audience: N recorded users, written straight into the project file
  const file = new Database(join(dir, "data", "projects", `${project.id}.db`));
  file.exec("PRAGMA busy_timeout = 5000");
  const now = new Date().toISOString();
  const insert = file.prepare("INSERT INTO bot_users (token_id, user_id, first_name, first_seen_at, last_seen_at, variables) VALUES (?, ?, ?, ?, ?, ?)");
  file.transaction(() => {
    for (let i = 0; i < N; i++) insert.run(token.id, String(10_000_000 + i), `U${i}`, now, now, JSON.stringify({ city: `C${i % 100}` }));
  })();
  file.close();

  // baseline 1: the fake's back-to-back ceiling for one sender
  const other = await fake.addBot();
  const c0 = performance.now();
  for (let i = 0; i < CEILING_CALLS; i++) {
    await fetch(`${fake.url}/bot${other.token}/sendMessage`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ chat_id: 20_000_000 + i, text: `Hello U${i} from C${i % 100}` }) }).then((r) => r.arrayBuffer());
  }
  const ceiling = CEILING_CALLS / ((performance.now() - c0) / 1000);
  await fake.clear(other.token);

  const created = await api(server.url, "POST", base, { cookie, json: { name: "Bench", message: { text: "Hello {first_name} from {city}" }, audience: {} }, expect: 201 });
  /** One probe: the campaign (odd) or a page of its sent recipients (even); answers the campaign when it read it. */
  let nextProbe = 0;
  const probeOnce = async (id: number, i: number, samples: number[]) => {
    const wait = nextProbe - performance.now();
    if (wait > 0) await Bun.sleep(wait);
    nextProbe = Math.max(nextProbe, performance.now() - 1000 / PROBE_RATE) + 1000 / PROBE_RATE;
    const path = i % 2 ? `${base}/${id}` : `${base}/${id}/recipients?status=sent&perPage=50&page=${1 + (i % 20)}`;
    const t0 = performance.now();
    const answer = await api(server.url, "GET", path, { cookie });
    samples.push(performance.now() - t0);
    return i % 2 ? answer : undefined;
  };
  const probe = async () => {
    const samples: number[] = [];
    for (let i = 0; i < PROBES; i++) await probeOnce(created.id, i, samples);
    return samples;
  };
  await probe(); // warm
  const idleBefore = await probe();

  const pid = server.proc.pid;
  await api(server.url, "POST", `${base}/${created.id}/start`, { cookie });
  const rssStart = rssMb(pid);
  // probes while it sends (stopped once the campaign is done, so they measure only "during")
  const during: number[] = [];
  let sending = true;
  const prober = (async () => {
    let i = 0;
    while (sending) if ((await probeOnce(created.id, i++, during))?.status === "done") sending = false;
  })();
  let rssPeak = rssStart ?? 0;
  const done = await until(async () => {
    rssPeak = Math.max(rssPeak, rssMb(pid) ?? 0);
    const c = await api(server.url, "GET", `${base}/${created.id}`, { cookie });
    return c.status === "done" ? c : undefined;
  }, "the campaign done", 30 * 60_000, 200);
  sending = false;
  await prober;
  const rssEnd = rssMb(pid);
  // the baseline: the same requests on the same data (every recipient written) with the sender idle
  const idleAfter = await probe();
  const received = (await fake.sent(bot.token)).length;
  const interleaved = await alternate();
  const receivedAlternated = (await fake.sent(bot.token)).length - received;
  const seconds = (Date.parse(done.finishedAt) - Date.parse(done.startedAt)) / 1000;
  const sendsPerSecond = round(N / seconds, 1);
  const duringLat = latency(during);
  const idle = latency([...idleBefore, ...idleAfter]);
  return {
    recipients: N,
    sent: done.counts.sent,
    failed: done.counts.failed,
    receivedByFake: received,
    seconds: round(seconds, 1),
    sendsPerSecond,
    fakeBackToBackPerSecond: round(ceiling, 1),
    ofCeiling: ratio(sendsPerSecond, ceiling),
    serverRssMB: { atStart: rssStart, peak: round(rssPeak, 1), atEnd: rssEnd, growth: rssStart && rssEnd ? round(rssEnd - rssStart, 1) : null },
    apiInterleaved: { ...interleaved, receivedByFake: receivedAlternated, target: TARGET_P99_RATIO },
    apiWhileSending: { idle: { before: latency(idleBefore), after: latency(idleAfter), both: idle }, during: duringLat, p99Ratio: ratio(duringLat.p99Ms, idle.p99Ms) },
  };

  /**
   * The second campaign: PHASE_MS of probes while it sends, pause, PHASE_MS of probes while it is
   * paused (the sender idle), resume, until it is done. A phase's probes go on only while its state
   * holds (a pause answers once the window in flight is recorded).
   */
  async function alternate() {
    // at most 10,000 recipients (an audience's list of ids): with --full the phases measure the same, in minutes less
    const audience = N <= ALTERNATED_MAX ? {} : { userIds: Array.from({ length: ALTERNATED_MAX }, (_, i) => String(10_000_000 + i)) };
    const c = await api(server.url, "POST", base, { cookie, json: { name: "Bench, alternated", message: { text: "Again {first_name} from {city}" }, audience }, expect: 201 });
    const busy: number[] = [];
    const idle: number[] = [];
    const cpu = { busyMs: 0, busyS: 0, idleMs: 0, idleS: 0, busyAllMs: 0 };
    const mainCpu = () => threadCpuMs(pid, pid) ?? 0;
    const allCpu = () => cpuMs(pid) ?? 0;
    let phases = 0;
    await api(server.url, "POST", `${base}/${c.id}/start`, { cookie });
    for (let i = 0; ; ) {
      const t0 = performance.now();
      const c0 = mainCpu();
      const a0 = allCpu();
      let status = "sending";
      while (performance.now() < t0 + PHASE_MS && status === "sending") status = (await probeOnce(c.id, i++, busy))?.status ?? status;
      if (status !== "sending") break;
      cpu.busyMs += mainCpu() - c0;
      cpu.busyAllMs += allCpu() - a0;
      cpu.busyS += (performance.now() - t0) / 1000;
      const paused = await fetch(`${server.url}${base}/${c.id}/pause`, { method: "POST", headers: { cookie } });
      if (paused.status === 409) break; // done meanwhile
      phases++;
      const t1 = performance.now();
      const c1 = mainCpu();
      while (performance.now() < t1 + PHASE_MS) await probeOnce(c.id, i++, idle);
      cpu.idleMs += mainCpu() - c1;
      cpu.idleS += (performance.now() - t1) / 1000;
      await api(server.url, "POST", `${base}/${c.id}/resume`, { cookie });
    }
    const done = await until(async () => {
      const now = await api(server.url, "GET", `${base}/${c.id}`, { cookie });
      return now.status === "done" ? now : undefined;
    }, "the alternated campaign done", 30 * 60_000, 100);
    const b = latency(busy);
    const q = latency(idle);
    // the whole server process while sending, for the sender's own cost wherever it runs
    const mainThreadCpuMsPerS = { whileSending: round(cpu.busyMs / cpu.busyS, 1), whilePaused: round(cpu.idleMs / cpu.idleS, 1), processWhileSending: round(cpu.busyAllMs / cpu.busyS, 1) };
    return { phases, sent: done.counts.sent, failed: done.counts.failed, whileSending: b, whilePaused: q, p99Ratio: ratio(b.p99Ms, q.p99Ms), p50Ratio: ratio(b.p50Ms, q.p50Ms), mainThreadCpuMsPerS };
  }
}, { timeoutMs: 60 * 60_000 });

/** The fake messenger as a process of its own (test/support/fake-messenger.ts standalone), driven through /__control. */
async function fakeProcess() {
  const proc = Bun.spawn([BUN, join(ROOT, "test/support/fake-messenger.ts")], { cwd: ROOT, stdout: "pipe", stderr: "inherit" });
  const reader = (proc.stdout as ReadableStream<Uint8Array>).getReader();
  let out = "";
  const deadline = Date.now() + 20_000;
  while (!/FAKE_MESSENGER_URL=(\S+)/.test(out)) {
    if (Date.now() > deadline) throw new Error("the fake messenger did not start");
    const { value, done } = await reader.read();
    if (done) throw new Error(`the fake messenger exited: ${out}`);
    out += new TextDecoder().decode(value);
  }
  const url = /FAKE_MESSENGER_URL=(\S+)/.exec(out)![1]!;
  const control = async (method: string, path: string) => {
    const r = await fetch(`${url}/__control/${path}`, { method, headers: { "content-type": "application/json" }, body: method === "POST" ? "{}" : undefined });
    if (!r.ok) throw new Error(`fake control ${path}: ${r.status}`);
    return r.json();
  };
  return {
    url,
    addBot: () => control("POST", "bots") as Promise<{ token: string }>,
    sent: (token: string) => control("GET", `${encodeURIComponent(token)}/sent`) as Promise<unknown[]>,
    clear: (token: string) => control("POST", `${encodeURIComponent(token)}/clear`),
    stop: async () => {
      proc.kill("SIGTERM");
      await proc.exited;
    },
  };
}
