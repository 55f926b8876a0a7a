// /api/health while one user runs the worst scenario SQL the probe of issue 29 used, against idle,
// in the same run on the same server (its own process, `bun src/main.ts serve`). The worst case:
// a preview bot's psql_query drops bot_state and puts in its place 400 rows with a generated
// column that costs a 40 MB string per row read, then keeps burning CPU in recursive queries;
// then the user also polls GET /api/preview/{sid}/variables back to back (the read that stalled
// the server 7.9 s), and, as the same-run baseline of that load, the session view GET
// /api/preview/{sid} back to back (no project file read). Prints one JSON line: health latency in
// each phase, the p99 ratios (to idle; variables reads to view reads), the reads made.
//   bun bench/project-sql.ts [--probes 1000] [--rounds 5]   (probes per phase, over all rounds)
import { join } from "node:path";
import { commandNode, hostileNodes, messageNode, scenarioOf, sqlNode } from "../test/support/hostile-sql";
import { devLoginOnServer, freePort, startProcessServer } from "../test/support/process";
import { api, arg, BENCH_ADMIN_KEY, BENCH_SESSION_SECRET, latency, onCleanup, ratio, ROOT, runBench, tempDir, until } from "./lib";

const PROBES = arg("probes", 1000);
const ROUNDS = arg("rounds", 5);
const scenario = scenarioOf(
  ...hostileNodes("bot_state", 400, "ready"),
  messageNode("ready", "ready"),
  commandNode("c2", "/burn", "b1"),
  sqlNode("b1", "burnt", "WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c LIMIT 3000000) SELECT count(*) AS n FROM c"),
  messageNode("burnt", "burnt"),
);

async function probe(url: string): Promise<number> {
  const t0 = performance.now();
  const r = await fetch(`${url}/api/health`);
  await r.arrayBuffer();
  if (r.status !== 200) throw new Error(`health answered ${r.status}`);
  return performance.now() - t0;
}

async function probes(url: string, n: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push(await probe(url));
  return out;
}

await runBench("project-sql", async () => {
  const dir = tempDir("project-sql");
  const port = await freePort();
  const env = { ADMIN_KEY: BENCH_ADMIN_KEY, SESSION_SECRET: BENCH_SESSION_SECRET, MESSENGER_API_ROOT: "http://127.0.0.1:9" };
  const server = await startProcessServer([process.execPath, join(ROOT, "src/main.ts"), "serve"], { cwd: dir, env, port, timeoutMs: 60_000 });
  onCleanup(() => server.stop("SIGTERM"));
  const url = server.url;
  const cookie = await devLoginOnServer(url, BENCH_ADMIN_KEY, 1);
  const project = await api(url, "POST", "/api/projects", { cookie, json: { name: "Worst SQL", data: scenario } });
  const preview = await api(url, "POST", `/api/projects/${project.id}/preview`, { cookie, json: {}, expect: 201 });
  const sid = preview.id as string;

  let version = 0;
  const say = async (text: string, reply: string) => {
    const sent = await api(url, "POST", `/api/preview/${sid}/actions`, { cookie, json: { type: "text", text } });
    version = sent.version;
    await until(async () => {
      const t = await api(url, "GET", `/api/preview/${sid}/transcript?after=${version}&wait=1000`, { cookie });
      version = t.version;
      return t.entries.some((e: { from: string; text?: string }) => e.from === "bot" && e.text === reply);
    }, `the reply "${reply}"`, 60_000);
  };
  await say("/hostile", "ready");

  /** Health probes while the user reads `path` back to back (none: idle); the reads' latencies. */
  const whileReading = async (n: number, path?: string) => {
    let reading = path !== undefined;
    const reads: number[] = [];
    const reader = (async () => {
      while (reading) {
        const t0 = performance.now();
        await api(url, "GET", path!, { cookie });
        reads.push(performance.now() - t0);
      }
    })();
    const health = await probes(url, n);
    reading = false;
    await reader;
    return { health, reads };
  };

  // Rounds interleave the phases, so a change of the machine's load (it is shared) falls on all of
  // them alike. Idle: the preview quiet. Then the bot burns CPU in its queries throughout: health
  // alone; with back-to-back reads of the session view (no project file: what any endpoint costs
  // health); with back-to-back reads of the variables (the read that stalled the server).
  for (let i = 0; i < 20; i++) await probe(url);
  const idle: number[] = [];
  const whileSql: number[] = [];
  const view = { health: [] as number[], reads: [] as number[] };
  const variables = { health: [] as number[], reads: [] as number[] };
  const per = Math.ceil(PROBES / ROUNDS);
  let burns = 0;
  for (let round = 0; round < ROUNDS; round++) {
    idle.push(...(await whileReading(per)).health);
    let burning = true;
    const burner = (async () => {
      while (burning) {
        await say("/burn", "burnt");
        burns++;
      }
    })();
    whileSql.push(...(await whileReading(per)).health);
    for (const [into, path] of [[view, `/api/preview/${sid}`], [variables, `/api/preview/${sid}/variables`]] as const) {
      const r = await whileReading(per, path);
      into.health.push(...r.health);
      into.reads.push(...r.reads);
    }
    burning = false;
    await burner;
  }

  const idleFigures = latency(idle);
  const sqlFigures = latency(whileSql);
  const viewFigures = latency(view.health);
  const readFigures = latency(variables.health);
  return {
    probes: PROBES,
    rounds: ROUNDS,
    healthIdle: idleFigures,
    healthWhileSql: sqlFigures,
    healthWhileSqlAndViewReads: viewFigures,
    healthWhileSqlAndVariablesReads: readFigures,
    p99RatioSql: ratio(sqlFigures.p99Ms, idleFigures.p99Ms),
    p99RatioSqlAndVariablesReads: ratio(readFigures.p99Ms, idleFigures.p99Ms),
    p99RatioVariablesVsViewReads: ratio(readFigures.p99Ms, viewFigures.p99Ms),
    viewReads: latency(view.reads),
    variablesReads: latency(variables.reads),
    burns,
  };
});
