// A fleet of polling bots under the compiled binary, against the fake messenger in this process,
// all owned by ONE user (spread over projects of --per-project tokens). Proves the "Done when"
// figures of the shared runners (issue 17), each next to a same-run baseline:
//  1. start: time from the first `POST /api/bot/tokens/{id}/start` (sent --concurrency at a time)
//     until every bot's first getUpdates reached the fake; baseline: the same for the --active bots
//     alone, started earlier in the run;
//  2. memory: RSS of the platform process and all its descendants (read from /proc) with no bot
//     ever started, with no bot running after some ran (runners idle, if the mode keeps them) and
//     with all N running; per bot = (RSS_N − RSS_idle) / N; the number of processes; an idle bare
//     `bun` as the floor; CPU of the platform tree and of this process (the fake) while N bots
//     idle-poll, to show long polls do not spin;
//  3. update → reply (fake.sendText until the bot's sendMessage is recorded), --active users each
//     sending /start to a different bot --rate times a second (0: back to back, which measures a
//     saturated box rather than latency) for --windows windows of --seconds: with all N bots
//     running, and as the baseline with only those --active bots running. The baseline isolates
//     what the idle fleet costs; a single bot would instead mix in the cost of 50 concurrent chats
//     on two cores;
//  4. API: p99 of GET /api/projects/list (50 connections, a loadgen process) with 0 and N bots,
//     --windows runs of --seconds each.
// On a shared machine one window can be spoilt by other work, so the verdicts use the median of
// the windows' p99 (each window's p99 and the load average are in the output).
// Before starting N bots it estimates their memory from the --active ones and refuses (with the
// figures) when the machine would run out: process-per-bot mode cannot hold 1,000 bots on a small
// box. A fleet that does not come up within --window seconds fails with the bots still missing,
// their recent log lines and the server's output instead of hanging. BOT_ISOLATION and
// BACKGROUND_CPUS, when set in this process's environment, are handed to the server. Prints ONE
// JSON line.
//
//   bun bench/fleet.ts [--bots 1000] [--active 50] [--per-project 20] [--concurrency 16]
//                      [--window 120] [--seconds 5] [--windows 3] [--rate 4]
import { readFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { greeterScenario } from "../test/bots/scenario-fixture";
import { startFakeMessenger, type FakeBot, type RecordedCall } from "../test/support/fake-messenger";
import { BUN, api, arg, pool, brief, latency, median, onCleanup, raiseTokenIds, ratio, round, rssMb, runBench, runLoad, startBinaryPlatform } from "./lib";
import { cpuMs, startedAt, treeOf, treeRssMb } from "./proc";

const N = arg("bots", 1000);
const ACTIVE = Math.min(arg("active", 50), N);
const PER_PROJECT = Math.max(1, arg("per-project", 20));
const CONCURRENCY = Math.max(1, arg("concurrency", 16));
const WINDOW_S = arg("window", 120);
const SECONDS = arg("seconds", 5);
const WINDOWS = Math.max(1, arg("windows", 3));
const RATE = arg("rate", 4);
const OWNER = 1;
const ISOLATION = process.env.BOT_ISOLATION;
const CPUS = process.env.BACKGROUND_CPUS;
const TARGETS = { allPollingS: 30, totalMB: 1536, perBotMB: 1.5, replyP99Ms: 25, apiP99VsIdle: 1.2 };

interface Member {
  projectId: number;
  tokenId: number;
  bot: FakeBot;
}


/**
 * After the server stopped: the processes it started must be gone (bots and runners exit when its
 * pipe closes). Any still alive after a grace period is killed and reported; a pid is only taken
 * for the same process when its start time matches, so a reused pid is left alone.
 */
async function sweep(seen: Map<number, number | null>) {
  const mine = (pid: number) => seen.get(pid) !== null && startedAt(pid) === seen.get(pid);
  const deadline = Date.now() + 5000;
  let left = [...seen.keys()].filter(mine);
  while (left.length && Date.now() < deadline) {
    await Bun.sleep(100);
    left = left.filter(mine);
  }
  for (const pid of left) process.kill(pid, "SIGKILL");
  if (left.length) console.error(`fleet: ${left.length} bot process(es) outlived the server; killed`);
}

function memAvailableMb(): number {
  const m = /MemAvailable:\s+(\d+)\s+kB/.exec(readFileSync("/proc/meminfo", "utf8"));
  return m ? Number(m[1]) / 1024 : Infinity;
}

await runBench(
  "fleet",
  async () => {
    if (N < 1) throw new Error("--bots must be at least 1");
    const fake = await startFakeMessenger();
    onCleanup(() => fake.stop());
    const seen = new Map<number, number | null>(); // every platform descendant observed → its start time
    onCleanup(() => sweep(seen));
    const p = await startBinaryPlatform({ env: { MESSENGER_API_ROOT: fake.url, ...(ISOLATION ? { BOT_ISOLATION: ISOLATION } : {}), ...(CPUS ? { BACKGROUND_CPUS: CPUS } : {}) } });
    const root = p.server.proc.pid;
    const observe = () => {
      for (const pid of treeOf(root)) if (pid !== root && !seen.has(pid)) seen.set(pid, startedAt(pid));
      return { ...treeRssMb(root), serverMB: round(rssMb(root) ?? 0, 1) };
    };
    raiseTokenIds(join(p.dir, "data", "botloom.db"), N + 2);
    const cookie = await p.login(OWNER);

    // --- the fleet: projects of PER_PROJECT tokens each ---
    const setupT0 = performance.now();
    const projects: number[] = [];
    for (let i = 0; i < Math.ceil(N / PER_PROJECT); i++) projects.push((await api(p.url, "POST", "/api/projects", { cookie, json: { name: `Fleet ${i}`, data: greeterScenario } })).id);
    const fleet: Member[] = [];
    await pool(Array.from({ length: N }, (_, i) => i), 8, async (i) => {
      const projectId = projects[Math.floor(i / PER_PROJECT)];
      const bot = fake.addBot({ username: `fleet${i}_bot` });
      const token = await api(p.url, "POST", `/api/bot/projects/${projectId}/tokens`, { cookie, json: { token: bot.token } });
      fleet.push({ projectId, tokenId: token.id, bot });
    });
    const setupS = round((performance.now() - setupT0) / 1000, 1);
    // the active bots are spread over the whole fleet (and so over its projects)
    const step = Math.floor(N / ACTIVE);
    const active = fleet.filter((_, i) => i % step === 0).slice(0, ACTIVE);

    const start = (m: Member) => api(p.url, "POST", `/api/bot/tokens/${m.tokenId}/start`, { cookie });
    const stop = (m: Member) => api(p.url, "POST", `/api/bot/tokens/${m.tokenId}/stop`, { cookie });
    /** WINDOWS load runs of SECONDS; the medians are the figures (see `exchanges` for why). */
    const apiLoad = async () => {
      const load1 = loadavg()[0];
      const runs = [];
      for (let i = 0; i < WINDOWS; i++) runs.push(brief(await runLoad({ base: p.url, targets: [{ path: "/api/projects/list", headers: { cookie } }], connections: 50, seconds: SECONDS, warmupSeconds: 1 })));
      const errors = runs.reduce((sum, r) => sum + r.errors, 0);
      return { rps: median(runs.map((r) => r.rps)), p50Ms: median(runs.map((r) => r.p50Ms)), p99Ms: median(runs.map((r) => r.p99Ms)), runP99Ms: runs.map((r) => r.p99Ms), errors, loadAverage1m: round(load1, 2) };
    };

    /** Starts `members` and resolves with the ms from the first start request until the last first poll. */
    const startAll = async (members: Member[], what: string) => {
      fake.clear(); // earlier polls of these tokens must not count
      const boundMs = WINDOW_S * 1000;
      const polled = new Map<number, number>();
      const t0 = performance.now();
      const firstPolls = members.map((m) =>
        fake.waitForCall(m.bot.token, (c: RecordedCall) => c.method === "getUpdates", boundMs).then(
          () => void polled.set(m.tokenId, performance.now() - t0),
          () => {},
        ),
      );
      await pool(members, CONCURRENCY, start);
      const requestsMs = performance.now() - t0;
      await Promise.all(firstPolls);
      if (polled.size < members.length) throw new Error(await missing(members, polled, what));
      return { allPollingMs: round(Math.max(...polled.values()), 0), startRequestsMs: round(requestsMs, 0) };
    };

    /** Why the fleet did not come up: the bots still missing, their last log lines, the server's output. */
    const missing = async (members: Member[], polled: Map<number, number>, what: string) => {
      const absent = members.filter((m) => !polled.has(m.tokenId));
      const shown = absent.slice(0, 3);
      const logs = await Promise.all(
        shown.map(async (m) => {
          const lines: { message?: string }[] = await api(p.url, "GET", `/api/projects/${m.projectId}/logs/all?tokenId=${m.tokenId}&limit=40`, { cookie }).catch((e) => [{ message: String(e) }]);
          const said = lines.map((l) => l.message ?? "").filter((t) => t.trim() && !/^\s+at /.test(t)); // stack frames say little here
          const status = await api(p.url, "GET", `/api/bot/tokens/${m.tokenId}/status`, { cookie }).catch(() => ({ status: "unknown" }));
          return `  token ${m.tokenId} (${status.status}): ${said.slice(-3).join(" | ") || "no log lines"}`;
        }),
      );
      const tree = observe();
      return [
        `${what}: ${polled.size} of ${members.length} bots polled within ${WINDOW_S} s (--window); ${absent.length} never did, e.g.:`,
        ...logs,
        `platform tree: ${tree.processes} processes, ${tree.totalMB} MB; server output (tail):`,
        p.server.output().trim().split("\n").slice(-10).join("\n"),
      ].join("\n");
    };

    /**
     * One user per member sending /start to its bot, RATE times a second (or back to back with
     * --rate 0), for WINDOWS windows of SECONDS; each sample is the time until the reply is
     * recorded by the fake. The median of the windows' p99 is the figure: other work on a shared
     * machine spoils single windows (seen: one window at p99 1 s, the next at 18 ms).
     */
    const exchanges = async (members: Member[]) => {
      const samples: number[][] = Array.from({ length: WINDOWS }, () => []);
      const periodMs = RATE > 0 ? 1000 / RATE : 0;
      const load1 = loadavg()[0];
      const platform = cpuOf();
      const cpu0 = process.cpuUsage();
      const t0 = performance.now();
      const windowMs = SECONDS * 1000;
      const end = t0 + WINDOWS * windowMs;
      await Promise.all(
        members.map(async (m, i) => {
          const user = { id: 700_000 + i, first_name: `Chat${i}` };
          await Bun.sleep(Math.random() * periodMs); // users do not write in lockstep
          for (let n = 0; performance.now() < end; n++) {
            const sentAt = performance.now();
            fake.sendText(m.bot.token, user, "/start");
            await fake.waitForSent(m.bot.token, user.id, 1, 10_000).catch((e: Error) => {
              throw new Error(`bot of token ${m.tokenId} did not answer /start: ${e.message}`);
            });
            // the first reply warms the bot's chat up
            if (n > 0) samples[Math.min(WINDOWS - 1, Math.floor((sentAt - t0) / windowMs))].push(performance.now() - sentAt);
            const pause = sentAt + periodMs - performance.now();
            if (pause > 0) await Bun.sleep(pause);
          }
        }),
      );
      const wall = performance.now() - t0;
      const cpu = process.cpuUsage(cpu0);
      const windows = samples.map((w) => latency(w));
      return {
        ...latency(samples.flat()),
        windowP99Ms: windows.map((w) => w.p99Ms),
        medianWindowP99Ms: median(windows.map((w) => w.p99Ms)),
        perS: round((samples.flat().length / wall) * 1000, 0),
        fakeCpuPct: round(((cpu.user + cpu.system) / 1000 / wall) * 100, 1),
        platformCpuPct: platform(wall),
        loadAverage1m: round(load1, 2),
      };
    };

    /** Starts counting the CPU time of the platform tree; the result gives it in % of `wallMs`, server apart. */
    const cpuOf = () => {
      const pids = treeOf(root);
      const before = pids.map(cpuMs);
      return (wallMs: number) => {
        const used = pids.map((pid, i) => Math.max(0, (cpuMs(pid) ?? before[i] ?? 0) - (before[i] ?? 0)));
        const pct = (ms: number) => round((ms / wallMs) * 100, 1);
        return { server: pct(used[0]), bots: pct(used.slice(1).reduce((a, b) => a + b, 0)) };
      };
    };

    /** CPU used by the platform tree and by this process (the fake) while nothing is sent. */
    const idleCpu = async (ms: number) => {
      const platform = cpuOf();
      const self0 = process.cpuUsage();
      const t0 = performance.now();
      await Bun.sleep(ms);
      const wall = performance.now() - t0;
      const self = process.cpuUsage(self0);
      return { platformPct: platform(wall), fakePct: round(((self.user + self.system) / 1000 / wall) * 100, 1) };
    };

    // --- 0 bots ---
    await Bun.sleep(1000);
    const rss0 = observe();
    const api0 = await apiLoad();
    const bare = Bun.spawn([BUN, "-e", "setInterval(() => {}, 1000)"], { stdout: "ignore", stderr: "ignore" });
    onCleanup(() => bare.kill("SIGKILL"));
    await Bun.sleep(500);
    const bareBunMB = rssMb(bare.pid);
    bare.kill("SIGKILL");

    // --- baseline: only the active bots ---
    const activeStart = await startAll(active, `${ACTIVE} active bots`);
    await Bun.sleep(1000);
    const rssActive = observe();
    const replyActiveOnly = await exchanges(active);
    await pool(active, CONCURRENCY, stop);
    await Bun.sleep(2000);
    const rssIdle = observe(); // no bot running; runners, if the mode keeps them, idle

    // refuse a fleet this machine cannot hold, from what the active bots measured
    const perActiveMb = Math.max(0, (rssActive.totalMB - rssIdle.totalMB) / ACTIVE);
    const needMb = perActiveMb * N;
    const availableMb = memAvailableMb();
    if (needMb > availableMb * 0.8) {
      throw new Error(
        `${N} bots would need about ${round(needMb / 1024, 1)} GB (${round(perActiveMb, 1)} MB per bot measured with ${ACTIVE} running, ` +
          `${rssActive.processes} processes), ${round(availableMb / 1024, 1)} GB available: lower --bots, or run the bots in shared runners (BOT_ISOLATION=runner)`,
      );
    }

    // --- N bots ---
    const fleetStart = await startAll(fleet, `${N} bots`);
    await Bun.sleep(3000);
    const rssN = observe();
    const cpuN = await idleCpu(3000);
    const replyWithFleet = await exchanges(active);
    const apiN = await apiLoad();
    const perBotMB = round((rssN.totalMB - rssIdle.totalMB) / N, 2);

    return {
      bots: N,
      active: ACTIVE,
      projects: projects.length,
      isolation: ISOLATION ?? "default",
      setupS,
      start: {
        concurrency: CONCURRENCY,
        [`bots${N}`]: fleetStart,
        [`bots${ACTIVE}`]: activeStart,
        allPollingVsActive: ratio(fleetStart.allPollingMs, activeStart.allPollingMs),
      },
      rss: {
        noBotEverMB: rss0.totalMB,
        idleMB: rssIdle.totalMB,
        [`bots${ACTIVE}MB`]: rssActive.totalMB,
        [`bots${N}MB`]: rssN.totalMB,
        perBotMB,
        bareBunMB: bareBunMB === null ? null : round(bareBunMB, 1),
        processes: { noBotEver: rss0.processes, idle: rssIdle.processes, [`bots${ACTIVE}`]: rssActive.processes, [`bots${N}`]: rssN.processes },
        // the platform process alone: what it keeps per bot (state, log buffers) apart from the runners
        serverMB: { noBotEver: rss0.serverMB, idle: rssIdle.serverMB, [`bots${N}`]: rssN.serverMB },
      },
      idleCpuWithFleet: cpuN,
      updateToReply: {
        seconds: SECONDS,
        windows: WINDOWS,
        perUserPerS: RATE || "back to back",
        [`bots${N}`]: replyWithFleet,
        [`bots${ACTIVE}Only`]: replyActiveOnly,
        p99VsActiveOnly: ratio(replyWithFleet.medianWindowP99Ms, replyActiveOnly.medianWindowP99Ms),
      },
      apiProjectsList: { bots0: api0, [`bots${N}`]: apiN, p99VsBots0: ratio(apiN.p99Ms, api0.p99Ms) },
      targets: TARGETS,
      meets: {
        allPolling: fleetStart.allPollingMs <= TARGETS.allPollingS * 1000,
        totalRss: rssN.totalMB <= TARGETS.totalMB,
        perBotRss: perBotMB <= TARGETS.perBotMB,
        replyP99: replyWithFleet.medianWindowP99Ms <= TARGETS.replyP99Ms,
        apiP99: apiN.p99Ms <= api0.p99Ms * TARGETS.apiP99VsIdle,
      },
    };
  },
  { timeoutMs: 9 * 60_000 },
);
