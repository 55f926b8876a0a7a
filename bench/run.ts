// `npm run bench`: runs every benchmark in bench/ one after another (each as its own `bun`
// process, so none disturbs another), keeps the ONE JSON line each prints, writes
// bench/results.json and prints a short table of the headline figures with their same-run
// baselines. Extra arguments pick benchmarks by name: `bun bench/run.ts webhook bots`.
import { readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const DIR = import.meta.dir;
/** Helpers, not benchmarks. */
const NOT_BENCHMARKS = new Set(["run", "lib", "loadgen", "scenarios", "codegen-scenarios", "proc", "worst-sql"]);
/** Quick ones first; the rest alphabetically. */
const ORDER = ["codegen", "cold-start", "projects-list", "studio", "api-throughput", "webhook", "bots", "fake-messenger", "fleet"];
const PER_BENCH_LIMIT_MS = 10 * 60_000;

const all = readdirSync(DIR)
  .filter((f) => f.endsWith(".ts") && !f.endsWith(".d.ts"))
  .map((f) => f.slice(0, -3))
  .filter((n) => !NOT_BENCHMARKS.has(n))
  .sort((a, b) => (ORDER.indexOf(a) + 1 || 99) - (ORDER.indexOf(b) + 1 || 99) || a.localeCompare(b));
const picked = process.argv.slice(2);
const names = picked.length ? all.filter((n) => picked.includes(n)) : all;

type Figures = Record<string, any>;
const results: Record<string, Figures | { error: string }> = {};
const started = new Date();

for (const name of names) {
  process.stderr.write(`▶ ${name} … `);
  const t0 = performance.now();
  const proc = Bun.spawn([process.execPath, join(DIR, `${name}.ts`)], { cwd: join(DIR, ".."), stdout: "pipe", stderr: "pipe", stdin: "ignore" });
  const timer = setTimeout(() => proc.kill("SIGTERM"), PER_BENCH_LIMIT_MS);
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  clearTimeout(timer);
  const line = out.trim().split("\n").reverse().find((l) => l.startsWith("{"));
  const secs = ((performance.now() - t0) / 1000).toFixed(0);
  if (code === 0 && line) {
    results[name] = JSON.parse(line);
    process.stderr.write(`${secs} s\n`);
  } else {
    results[name] = { error: `exit ${code}: ${(err || out).trim().split("\n").slice(-5).join(" | ")}` };
    process.stderr.write(`FAILED (${secs} s)\n${err}\n`);
  }
}

writeFileSync(join(DIR, "results.json"), JSON.stringify({ ranAt: started.toISOString(), bun: Bun.version, cpus: navigator.hardwareConcurrency, results }, null, 2) + "\n");

// --- the table -------------------------------------------------------------------------------

type Row = [bench: string, figure: string, value: string, baseline: string, ratio: string];
const rows: Row[] = [];
const ms = (x: unknown) => (typeof x === "number" ? `${x.toFixed(x < 10 ? 2 : 1)} ms` : "—");
const rps = (x: unknown) => (typeof x === "number" ? `${x} req/s` : "—");
const ratio = (a: unknown, b: unknown) => (typeof a === "number" && typeof b === "number" && b ? Number((a / b).toFixed(3)) : null);
const num = (x: unknown) => (x === null || x === undefined ? "—" : String(x));

function headline(name: string, r: Figures) {
  switch (name) {
    case "cold-start":
      rows.push([name, "start → /api/health 200 (median)", ms(r.firstStartMs?.median), `bare Bun.serve ${ms(r.bareServeMs?.median)}`, num(r.firstVsBare)]);
      rows.push([name, "restart on existing data (median)", ms(r.restartMs?.median), `bare Bun.serve ${ms(r.bareServeMs?.median)}`, num(r.restartVsBare)]);
      rows.push([name, "restart → first answer of the whole app (median)", ms(r.restartAppMs?.median), `bare Bun.serve ${ms(r.bareServeMs?.median)}`, num(ratio(r.restartAppMs?.median, r.bareServeMs?.median))]);
      rows.push([name, "binary size", `${r.binaryMB} MB`, `bare Bun binary ${r.bareBinaryMB} MB`, `+${r.ownMB} MB`]);
      return;
    case "api-throughput":
      for (const k of ["projectsList", "botProjects"]) {
        const f = r[k];
        if (!f) continue;
        rows.push([name, `${k} throughput (50 conn)`, rps(f.app?.rps), `bare ${rps(f.bare?.rps)}`, num(f.rpsVsBare)]);
        rows.push([name, `${k} p50 / p99`, `${ms(f.app?.p50Ms)} / ${ms(f.app?.p99Ms)}`, `bare ${ms(f.bare?.p50Ms)} / ${ms(f.bare?.p99Ms)}`, num(f.p99VsBare)]);
      }
      return;
    case "projects-list":
      rows.push([name, `throughput (${r.concurrency} conn, in-process client)`, rps(r.app?.rps), `bare ${rps(r.bare?.rps)}`, num(r.appVsBare)]);
      rows.push([name, "p50 / p99", `${ms(r.app?.p50Ms)} / ${ms(r.app?.p99Ms)}`, `bare ${ms(r.bare?.p50Ms)} / ${ms(r.bare?.p99Ms)}`, ""]);
      return;
    case "editor":
      if (r.skipped) return;
      rows.push([name, `open ${r.open?.file ?? "compat file"} → interactive (median)`, ms(r.open?.medianMs), `empty project ${ms(r.open?.emptyProjectMedianMs)}`, r.open?.withinBudget === undefined ? "" : r.open.withinBudget ? "≤ 1 s" : "> 1 s"]);
      for (const [file, f] of Object.entries<any>(r.openCompat?.files ?? {})) rows.push([name, `open ${file} (${f.nodes} nodes, median)`, ms(f.medianMs), `empty project ${ms(r.openCompat?.emptyProjectMedianMs)}`, ""]);
      if (r.drawingWalk) rows.push([name, "drawing walk (issue 27): user actions", num(r.drawingWalk.actions), `text entries alone ${num(r.drawingWalk.textEntriesBaseline)}`, r.drawingWalk.meetsTarget ? "≤ 25" : "> 25"]);
      rows.push([name, "1,000-node pan/zoom (rAF)", `${num(r.panZoom?.fps)} fps, p95 ${ms(r.panZoom?.p95FrameMs)}`, `empty canvas ${num(r.panZoom?.emptyCanvasFps)} fps`, r.panZoom?.meetsTarget ? "≥ 50 fps" : "< 50 fps"]);
      return;
    case "webhook":
      rows.push([name, "intake throughput", rps(r.intake?.rps), `direct to bot ${rps(r.direct?.rps)}`, num(r.rpsVsDirect)]);
      rows.push([name, "intake p50 / p99", `${ms(r.intake?.p50Ms)} / ${ms(r.intake?.p99Ms)}`, `direct ${ms(r.direct?.p50Ms)} / ${ms(r.direct?.p99Ms)}`, num(r.p99VsDirect)]);
      return;
    case "bots": {
      rows.push([name, `bots polling within ${r.startWindowS} s (max ${r.maxBots})`, num(r.startedInWindow), `all ready in ${r.allReadyMs ?? "—"} ms`, `${r.perBotStartMs ?? "—"} ms/bot`]);
      rows.push([name, `RSS per running bot (${r.rss?.processes} processes)`, `${r.rss?.perBotMB} MB`, `idle bare bun ${r.rss?.bareBunMB} MB`, num(r.rss?.perBotVsBareBun)]);
      const a = r.apiProjectsList ?? {};
      for (const k of Object.keys(a).filter((k) => /^bots\d+$/.test(k) && k !== "bots0")) rows.push([name, `API p99 with ${k.slice(4)} bots`, ms(a[k].p99Ms), `0 bots ${ms(a.bots0?.p99Ms)}`, num(a[`p99At${k.slice(4)}VsAt0`] ?? 1)]);
      const u = r.updateToReply ?? {};
      rows.push([name, "update → reply, webhook p50 / p99", `${ms(u.webhook?.p50Ms)} / ${ms(u.webhook?.p99Ms)}`, `polling ${ms(u.polling?.p50Ms)} / ${ms(u.polling?.p99Ms)}`, num(u.webhookP50VsPolling)]);
      return;
    }
    case "stops": {
      rows.push([name, "generated bot: SIGTERM → exit (median)", ms(r.botStopMs), `bare bun ${ms(r.bareBunStopMs)}`, num(r.botStopRatio)]);
      rows.push([name, "declared 60 MB JSON body → 413 (median)", ms(r.body60MbRefusedMs), `health round trip ${ms(r.healthRoundTripMs)}`, num(r.refusalRatio)]);
      rows.push([name, "fake messenger: held getUpdates answered by an update", ms(r.heldPollAnsweredMs), `immediate ${ms(r.immediatePollMs)}`, ""]);
      return;
    }
    case "ai-answer":
      rows.push([name, `ai_answer update → answer p50 / p99 (${r.asks} asks, 5 turns of memory)`, `${ms(r.ai?.p50Ms)} / ${ms(r.ai?.p99Ms)}`, `plain message ${ms(r.ping?.p50Ms)} / ${ms(r.ping?.p99Ms)}; fake LLM alone ${ms(r.llmDirect?.p50Ms)}`, num(r.p50VsPing)]);
      return;
    case "waits":
      rows.push([name, `${r.waits} due waits: bot start → all fired (median)`, ms(r.startToAllFiredMs), `no waits: start → first answer ${ms(r.noWaitsStartToFirstAnswerMs)}`, num(r.firedVsStart)]);
      rows.push([name, `bot RSS after ${r.waits} waits fired (peak)`, `${num(r.rssMB)} MB (${num(r.peakRssMB)} MB)`, `no waits ${num(r.rssNoWaitsMB)} MB (${num(r.peakRssNoWaitsMB)} MB)`, num(r.rssRatio)]);
      return;
    case "fake-messenger": {
      const u = r.updateToReply ?? {};
      rows.push([name, `${r.bots} long polls held (${r.clientProcesses} client processes): CPU of the fake`, `${num(r.idleCpu?.fakePct)} %`, `clients ${num(r.idleCpu?.clientsPct)} %`, ""]);
      rows.push([name, `update → reply p50 / p99, ${r.active} chats, minimal bots`, `${ms(u.paced?.p50Ms)} / ${ms(u.paced?.p99Ms)}`, `back to back: ${num(u.backToBack?.perS)}/s, p99 ${ms(u.backToBack?.p99Ms)}`, ""]);
      return;
    }
    case "analytics": {
      const e = r.endpoint ?? {};
      const u = r.updateToReply ?? {};
      rows.push([name, `GET /analytics, 90 days by day, ${e.messages} messages / ${e.users} users (service p50 / p99)`, `${ms(e.big?.figures?.p50Ms)} / ${ms(e.big?.figures?.p99Ms)}`, `100 users ${ms(e.baseline?.figures?.p50Ms)} / ${ms(e.baseline?.figures?.p99Ms)}`, num(e.serverP50RatioToBaseline)]);
      rows.push([name, `update → reply p50 / p99, counting on (${u.bots} bots a side)`, `${ms(u.countingOn?.p50Ms)} / ${ms(u.countingOn?.p99Ms)}`, `off ${ms(u.countingOff?.p50Ms)} / ${ms(u.countingOff?.p99Ms)}`, num(u.p99Ratio)]);
      return;
    }
    case "campaigns": {
      rows.push([name, `campaign sends/s, ${r.recipients} recipients`, `${r.sendsPerSecond}/s`, `fake back to back ${r.fakeBackToBackPerSecond}/s`, num(r.ofCeiling)]);
      rows.push([name, "server RSS at start → end", `${r.serverRssMB?.atStart?.toFixed?.(1)} → ${r.serverRssMB?.atEnd?.toFixed?.(1)} MB`, "", ""]);
      const a = r.apiInterleaved ?? {};
      rows.push([name, "API p99 while sending, alternated with paused phases", ms(a.whileSending?.p99Ms), `paused ${ms(a.whilePaused?.p99Ms)}`, num(a.p99Ratio)]);
      rows.push([name, "server main thread CPU while sending (ms/s)", `${a.mainThreadCpuMsPerS?.whileSending}`, `paused ${a.mainThreadCpuMsPerS?.whilePaused}`, ""]);
      rows.push([name, "API p99 while sending, vs before and after", ms(r.apiWhileSending?.during?.p99Ms), `idle ${ms(r.apiWhileSending?.idle?.both?.p99Ms)}`, num(r.apiWhileSending?.p99Ratio)]);
      return;
    }
    case "hooks":
      rows.push([name, `inbound hook → message p50 / p99 (${r.isolation})`, `${ms(r.hookToMessage?.p50Ms)} / ${ms(r.hookToMessage?.p99Ms)}`, `webhook intake → reply ${ms(r.intakeToReply?.p50Ms)} / ${ms(r.intakeToReply?.p99Ms)}`, num(r.p99VsIntake)]);
      return;
    case "dialogs": {
      const u = r.updateToReply ?? {};
      rows.push([name, `update → reply p50 / p99, recording on (${r.bots} bots)`, `${ms(u.recordingOn?.p50Ms)} / ${ms(u.recordingOn?.p99Ms)}`, `retention 0 ${ms(u.retention0?.p50Ms)} / ${ms(u.retention0?.p99Ms)}`, num(u.p99Ratio)]);
      rows.push([name, "RSS recording adds per bot", `${r.rss?.addedPerRecordingBotMB} MB`, `fleet ${r.rss?.perBotMB} MB/bot`, ""]);
      const pg = r.pages ?? {};
      rows.push([name, `page p99, ${pg.chats} chats / ${pg.messages} messages (service)`, ms(pg.big?.service?.p99Ms), `100 chats / 1,000 messages ${ms(pg.baseline100Chats1000Messages?.service?.p99Ms)}`, num(pg.p99RatioToBaseline)]);
      return;
    }
    case "tables": {
      const big = r.big ?? {};
      const base = r.baseline1000 ?? {};
      rows.push([name, `page of ${r.rows} rows p99: first / last / next (server)`, `${ms(big.firstPage?.p99Ms)} / ${ms(big.lastPage?.p99Ms)} / ${ms(big.nextFromMiddle?.p99Ms)}`, `1,000 rows first ${ms(base.firstPage?.p99Ms)}`, num(r.firstPageRatio)]);
      const j = big.jumps ?? {};
      rows.push([name, `page jumped to in the middle of ${r.rows} rows p50 / p99: marks kept / after a bot's commit (first ever ${ms(j.firstEverMs)})`, `${ms(j.marksKept?.p50Ms)} / ${ms(j.marksKept?.p99Ms)}, ${ms(j.afterBotWrite?.p50Ms)} / ${ms(j.afterBotWrite?.p99Ms)}`, `plain OFFSET ${ms(j.marksKeptPlainOffset?.p50Ms)} / ${ms(j.marksKeptPlainOffset?.p99Ms)}`, num(r.jumpAfterWriteVsOffset)]);
      rows.push([name, `page in the middle sorted by a column with an index p50, ${r.rows} rows`, ms(big.sortedIndexedMiddle?.p50Ms), `1,000 rows ${ms(base.sortedIndexedMiddle?.p50Ms)}`, ""]);
      rows.push([name, `sorted by a column without an index p50, ${r.rows} rows (worker)`, ms(big.sortedUnindexed?.p50Ms), `1,000 rows ${ms(base.sortedUnindexed?.p50Ms)}`, num(r.sortedUnindexedRatio)]);
      rows.push([name, `search of text columns p50, ${r.rows} rows (worker)`, ms(big.search?.p50Ms), `1,000 rows ${ms(base.search?.p50Ms)}`, ""]);
      rows.push([name, "/api/health p99 while big-table searches run (reads in a worker)", ms(r.health?.duringSearches?.p99Ms), `idle ${ms(r.health?.idle?.p99Ms)}`, num(r.health?.p99Ratio)]);
      rows.push([name, `CSV import of ${r.imports?.big?.rows} rows: in all / write lock held`, `${ms(r.imports?.big?.ms)} / ${ms(r.imports?.big?.lockMs)}`, `1,000 rows ${ms(r.imports?.baseline1000?.ms)} / ${ms(r.imports?.baseline1000?.lockMs)}`, ""]);
      return;
    }
    case "runner-memory": {
      const b = r.perBot ?? {};
      const kb = (x: unknown) => (typeof x === "number" ? `${x} KB` : "—");
      rows.push([name, `runner RSS per started bot, with its database (${r.bots} bots)`, kb(b.withDatabase?.startedKB), `without one ${kb(b.withoutDatabase?.startedKB)}`, num(ratio(b.withDatabase?.startedKB, b.withoutDatabase?.startedKB))]);
      rows.push([name, "kept per bot after one reply each, once idle again", kb(b.withDatabase?.idleAgainKB), `right after the replies ${kb(b.withDatabase?.afterOneReplyKB)}`, ""]);
      return;
    }
    case "fleet": {
      const n = r.bots;
      const a = r.active;
      const mb = (x: unknown) => (typeof x === "number" ? `${x} MB` : "—");
      const s = r.start ?? {};
      rows.push([name, `${n} bots polling (first start → last first poll)`, ms(s[`bots${n}`]?.allPollingMs), `${a} bots ${ms(s[`bots${a}`]?.allPollingMs)}`, num(s.allPollingVsActive)]);
      const m = r.rss ?? {};
      rows.push([name, `RSS, platform + all processes, ${n} bots (${m.processes?.[`bots${n}`]} processes)`, mb(m[`bots${n}MB`]), `no bot running ${mb(m.idleMB)}`, ""]);
      rows.push([name, "RSS per bot beyond the idle platform", mb(m.perBotMB), `idle bare bun ${mb(m.bareBunMB)}`, num(ratio(m.perBotMB, m.bareBunMB))]);
      const u = r.updateToReply ?? {};
      rows.push([name, `update → reply p50 / p99 (median window), ${a} chats, ${n} bots`, `${ms(u[`bots${n}`]?.p50Ms)} / ${ms(u[`bots${n}`]?.medianWindowP99Ms)}`, `${a} bots only ${ms(u[`bots${a}Only`]?.p50Ms)} / ${ms(u[`bots${a}Only`]?.medianWindowP99Ms)}`, num(u.p99VsActiveOnly)]);
      const l = r.apiProjectsList ?? {};
      rows.push([name, `API p99 (projects/list, median run) with ${n} bots`, ms(l[`bots${n}`]?.p99Ms), `0 bots ${ms(l.bots0?.p99Ms)}`, num(l.p99VsBots0)]);
      return;
    }
    case "runner-faults":
      for (const fault of ["throws", "blocks", "allocates"] as const) {
        const f = r[fault] ?? {};
        rows.push([name, `${fault}: other owner's bots, replies/s (p99)`, `${num(f.otherOwner?.perSecond)} (${ms(f.otherOwner?.p99Ms)})`, `no fault ${num(r.baseline?.otherOwner?.perSecond)} (${ms(r.baseline?.otherOwner?.p99Ms)})`, num(f.otherOwnerVsBaseline)]);
        rows.push([name, `${fault}: same owner's bots, replies/s, longest gap`, `${num(f.sameOwner?.perSecond)}, ${ms(f.sameOwner?.longestGapMs)}`, `no fault ${num(r.baseline?.sameOwner?.perSecond)}, ${ms(r.baseline?.sameOwner?.longestGapMs)}`, f.named ? "named" : "NOT named"]);
      }
      return;
    case "studio":
      rows.push([name, "projects page first contentful paint (cold, median)", ms(r.projectsPage?.fcpMs), `static HTML ${ms(r.staticHtml?.fcpMs)}`, num(r.fcpVsStatic)]);
      rows.push([name, "projects page list on screen (cold, median)", ms(r.projectsPage?.listReadyMs), `static HTML ${ms(r.staticHtml?.readyMs)}`, ""]);
      rows.push([name, "shell shipped, gzip (JS + CSS)", `${r.shellGzipKB} KB`, `budget ${r.budgets?.shellGzipKB} KB`, ""]);
      rows.push([name, "Logs tab poll (200 newest lines, p50)", `${ms(r.logsPoll?.poll?.p50Ms)}, ${r.logsPoll?.poll?.kb} KB`, `GET /api/auth/me ${ms(r.logsPoll?.authMe?.p50Ms)}`, num(r.logsPoll?.pollVsAuthMe)]);
      return;
    case "preview":
      rows.push([name, "message → reply in the transcript, p50 / p99", `${ms(r.preview?.p50Ms)} / ${ms(r.preview?.p99Ms)}`, `production via fake messenger ${ms(r.production?.p50Ms)} / ${ms(r.production?.p99Ms)}`, num(r.p50VsProduction)]);
      rows.push([name, "preview start (bot polling)", ms(r.previewStartMs), "", ""]);
      return;
    case "beside-bots":
      rows.push([name, "generate of a 2,000-node scenario while a bot burns SQL, p50", ms(r.burning?.generateMs?.p50Ms), `quiet ${ms(r.quiet?.generateMs?.p50Ms)}`, num(r.generateBurningVsQuiet)]);
      rows.push([name, "preview start of it while a bot burns SQL, p50", ms(r.burning?.previewStartMs?.p50Ms), `quiet ${ms(r.quiet?.previewStartMs?.p50Ms)}`, num(r.previewStartBurningVsQuiet)]);
      rows.push([name, "another bot's reply while generates run, p50", ms(r.botReply?.generating?.p50Ms), `quiet ${ms(r.botReply?.quiet?.p50Ms)}`, num(r.botReplyGeneratingVsQuiet)]);
      return;
    case "health-under-load":
      rows.push([name, "/api/health p99 under generate, preview and scenario SQL load", ms(r.loaded?.p99Ms), `idle ${ms(r.idle?.p99Ms)}`, num(r.p99Ratio)]);
      rows.push([name, "generates/s, previews/s, runners killed", `${num(r.generatesPerSecond)}, ${num(r.previewsPerSecond)}, ${num(r.runnersKilled)}`, "", ""]);
      return;
    case "health-floor":
      rows.push([name, "a server that does nothing: health p99, load on every core", ms(r.loadAnywhere?.p99Ms), `idle ${ms(r.idle?.p99Ms)}`, num(r.p99RatioAnywhere)]);
      rows.push([name, "same, load kept off the first core", ms(r.loadOffFirstCore?.p99Ms), `idle ${ms(r.idle?.p99Ms)}`, num(r.p99RatioOffFirstCore)]);
      rows.push([name, "same, with health-under-load's HTTP traffic (clients off the first core)", ms(r.loadAndTrafficOffFirstCore?.p99Ms), `idle ${ms(r.idle?.p99Ms)}`, num(r.p99RatioWithTraffic)]);
      return;
    case "codegen":
      for (const [k, v] of Object.entries(r)) {
        if (v && typeof v === "object" && "medianMs" in v) rows.push([name, `generate ${k}`, ms(v.medianMs), `${v.lines} lines, ${v.kb} KB`, ""]);
        else if (v && typeof v === "object" && "generateMs" in v) rows.push([name, `generate ${k}`, ms(v.generateMs), `JSON round trip ${ms(v.jsonRoundTripMs)}`, num(v.vsJsonRoundTrip)]);
      }
      return;
    default:
      for (const [k, v] of Object.entries(r)) if (typeof v === "number" && k !== "cpus") rows.push([name, k, String(v), "", ""]);
  }
}

for (const [name, r] of Object.entries(results)) {
  if ("error" in r && typeof r.error === "string") rows.push([name, "FAILED", r.error.slice(0, 80), "", ""]);
  else headline(name, r as Figures);
}
const head: Row = ["bench", "figure", "value", "same-run baseline", "ratio"];
const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
const fmt = (r: Row) => r.map((c, i) => c.padEnd(widths[i])).join("  ").trimEnd();
console.log(fmt(head));
console.log(widths.map((w) => "-".repeat(w)).join("  "));
for (const r of rows) console.log(fmt(r));
console.log(`\nbench/results.json written (${names.length} benchmarks, Bun ${Bun.version}, ${navigator.hardwareConcurrency} CPUs)`);
process.exit(Object.values(results).some((r) => "error" in r) ? 1 : 0);
