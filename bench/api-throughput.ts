// Throughput and p50/p99 of GET /api/projects/list (session cookie) and GET /api/bot/projects
// (bot_manager PAT + messenger_id, as the bot-manager client calls it) under 50 keep-alive
// connections from a SECOND process (bench/loadgen.ts), next to a bare Bun.serve answering a JSON
// of the same size in the same run. Prints ONE JSON line.
//
//   bun bench/api-throughput.ts [--seconds 5] [--connections 50] [--projects 100] [--nodes 50]
import { arg, bareServer, brief, ratio, runBench, runLoad, startPlatform } from "./lib";
import { benchScenario } from "./scenarios";

const SECONDS = arg("seconds", 5);
const CONNECTIONS = arg("connections", 50);
const PROJECTS = arg("projects", 100);
const NODES = arg("nodes", 50);
const USER = 424242;

await runBench("api-throughput", async () => {
  const p = await startPlatform();
  p.ctx.auth.upsertUser({ id: USER, firstName: "Bench" });
  for (let i = 0; i < PROJECTS; i++) p.ctx.projects.create(USER, { name: `Project ${i}`, description: `Bench project ${i}`, data: benchScenario(NODES, `p${i}`) });
  const cookie = await p.login(USER);
  const pat = p.ctx.auth.createPat(USER, "bench", ["bot_manager"]).token;

  const endpoints: { name: string; path: string; headers: Record<string, string> }[] = [
    { name: "projectsList", path: "/api/projects/list", headers: { cookie } },
    { name: "botProjects", path: `/api/bot/projects?messenger_id=${USER}`, headers: { authorization: `Bearer ${pat}` } },
  ];
  const out: Record<string, unknown> = { projects: PROJECTS, nodesPerProject: NODES, connections: CONNECTIONS, seconds: SECONDS };
  for (const e of endpoints) {
    const sample = await fetch(p.url + e.path, { headers: e.headers });
    const text = await sample.text();
    if (sample.status !== 200) throw new Error(`${e.path} answered ${sample.status}: ${text}`);
    const parsed = JSON.parse(text);
    // The floor: the same JSON, serialised per request like a handler does.
    const bare = bareServer(() => JSON.stringify(parsed));
    const load = (base: string, path: string, headers: Record<string, string>) =>
      runLoad({ base, targets: [{ path, headers }], connections: CONNECTIONS, seconds: SECONDS, warmupSeconds: 1 });
    const bareFig = await load(bare.url, "/", {});
    const appFig = await load(p.url, e.path, e.headers);
    bare.stop();
    if (appFig.errors || bareFig.errors) throw new Error(`${e.name}: errors under load ${JSON.stringify(appFig.errorSamples ?? bareFig.errorSamples)}`);
    out[e.name] = { responseBytes: Buffer.byteLength(text), app: brief(appFig), bare: brief(bareFig), rpsVsBare: ratio(appFig.rps, bareFig.rps), p99VsBare: ratio(appFig.p99Ms, bareFig.p99Ms) };
  }
  return out;
});
