// /api/health while the server is loaded by generates and previews (issue 29 item 11), under the
// compiled binary: p99 of a health probe (a process of its own; one request at a time, 10 ms
// apart) idle, then while
// 8 clients each generate the program of a large scenario (2,000 nodes) without pause and
// --previewers users each start a preview of it, talk to it and stop it, over and over. Two
// owners' bots run in shared runners on the fake messenger (this process) meanwhile: none of
// their runners may be killed and no crash counted. The idle probe is the same-run baseline
// (target: loaded p99 <= 1.5x idle). Prints ONE JSON line.
//
//   bun bench/health-under-load.ts [--seconds 12] [--rounds 3] [--generators 8] [--previewers 2]
import { join } from "node:path";
import { startFakeMessenger } from "../test/support/fake-messenger";
import { greeterScenario } from "../test/bots/scenario-fixture";
import { synthetic } from "./codegen-scenarios";
import { api, arg, BUN, latency, onCleanup, raiseTokenIds, ratio, runBench, startBinaryPlatform, until } from "./lib";

const SECONDS = arg("seconds", 12);
const PREVIEWERS = arg("previewers", 2);
const ROUNDS = arg("rounds", 3);
const GENERATORS = arg("generators", 8);

/**
 * Health requests one at a time, 10 ms apart, for `ms`: their latencies. The probe is a process of
 * its own, so this process's work (the load's clients, the fake messenger) does not delay it.
 */
async function probe(url: string, ms: number): Promise<number[]> {
  const code = `const s=[];const end=performance.now()+${ms};while(performance.now()<end){const t=performance.now();const r=await fetch(${JSON.stringify(url + "/api/health")});await r.arrayBuffer();if(r.status!==200)throw new Error("health "+r.status);s.push(performance.now()-t);await Bun.sleep(10)}console.log(JSON.stringify(s))`;
  const proc = Bun.spawn([BUN, "-e", code], { stdout: "pipe", stderr: "inherit" });
  onCleanup(() => proc.kill());
  const out = await new Response(proc.stdout).text();
  if ((await proc.exited) !== 0) throw new Error("the health probe failed");
  return JSON.parse(out);
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
  generate: { projectId: number; cookie: string };
  previews: { cookie: string; projectId: number }[];
}

/**
 * The load's clients, as a process of their own at a lower priority (`nice`): on a deployed server
 * they are elsewhere, so their CPU must not count against the server's answers. Resolves once the
 * last of their requests is answered.
 */
async function load(spec: ClientSpec): Promise<{ generates: number; previews: number }> {
  const proc = Bun.spawn(["nice", "-n", "10", BUN, import.meta.path, "--clients", JSON.stringify(spec)], { stdout: "pipe", stderr: "inherit" });
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
  const generating = Array.from({ length: spec.generators }, async () => {
    for (; !over(); generates++) await generate(spec.url, spec.generate.projectId, spec.generate.cookie);
  });
  const previewing = spec.previews.map(async ({ cookie, projectId }) => {
    for (; !over(); previews++) {
      const s = await api(spec.url, "POST", `/api/projects/${projectId}/preview`, { cookie, json: {}, expect: 201 });
      await api(spec.url, "POST", `/api/preview/${s.id}/actions`, { cookie, json: { type: "text", text: "/start" } });
      await api(spec.url, "DELETE", `/api/preview/${s.id}`, { cookie });
    }
  });
  await Promise.all([...generating, ...previewing]);
  console.log(JSON.stringify({ generates, previews }));
}

if (process.argv[2] === "--clients") await clients(JSON.parse(process.argv[3]!));
else await runBench("health-under-load", async () => {
  const fake = await startFakeMessenger();
  onCleanup(() => fake.stop());
  const p = await startBinaryPlatform({ env: { MESSENGER_API_ROOT: fake.url, BOT_RUNNERS: "1", LOG_LEVEL: "warn" } });
  raiseTokenIds(join(p.dir, "data", "botloom.db"), 4);

  // Two owners' bots in their runners.
  const bots: { cookie: string; projectId: number; token: string; tokenId: number }[] = [];
  for (const owner of [21, 22]) {
    const cookie = await p.login(owner);
    const project = await api(p.url, "POST", "/api/projects", { cookie, json: { name: `Owner${owner}`, data: greeterScenario } });
    const f = fake.addBot({ username: `owner${owner}_bot` });
    const token = await api(p.url, "POST", `/api/bot/projects/${project.id}/tokens`, { cookie, json: { token: f.token } });
    await api(p.url, "POST", `/api/bot/tokens/${token.id}/start`, { cookie });
    await until(() => fake.calls(f.token, "getUpdates").length > 0, "the bot to poll", 30_000);
    bots.push({ cookie, projectId: project.id, token: f.token, tokenId: token.id });
  }
  const answers = async (round: number) => {
    for (const [i, b] of bots.entries()) {
      const user = { id: 9100 + 10 * round + i, first_name: "Ann" };
      fake.sendText(b.token, user, "/start");
      await fake.waitForSent(b.token, user.id, 1, 30_000);
    }
  };
  await answers(0);

  const cookie = await p.login(31);
  const large = await api(p.url, "POST", "/api/projects", { cookie, json: { name: "Large", data: synthetic(2000) } });
  const previewers = await Promise.all(Array.from({ length: PREVIEWERS }, (_, i) => p.login(41 + i)));
  const shared = await Promise.all(previewers.map(async (c, i) => (await api(p.url, "POST", "/api/projects", { cookie: c, json: { name: `Preview${i}`, data: synthetic(2000) } })).id as number));

  // Idle and loaded windows alternate (the machine is shared: its other load then falls on both alike).
  const idleSamples: number[] = [];
  const loadedSamples: number[] = [];
  let generates = 0;
  let previews = 0;
  const windowMs = (SECONDS * 1000) / ROUNDS;
  const spec: ClientSpec = { url: p.url, ms: windowMs, generators: GENERATORS, generate: { projectId: large.id, cookie }, previews: previewers.map((c, i) => ({ cookie: c, projectId: shared[i]! })) };
  for (let round = 0; round < ROUNDS; round++) {
    idleSamples.push(...(await probe(p.url, windowMs)));
    const [samples, done] = await Promise.all([probe(p.url, windowMs), load(spec)]);
    loadedSamples.push(...samples);
    generates += done.generates;
    previews += done.previews;
  }
  const idle = latency(idleSamples);
  const loaded = latency(loadedSamples);

  await answers(1);
  const launches = await Promise.all(bots.map(async (b) => (await api(p.url, "GET", `/api/projects/${b.projectId}/launches/all`, { cookie: b.cookie })) as { status: string }[]));
  const runnersKilled = (p.server.output().match(/bot runner \d+ killed/g) ?? []).length;
  return {
    seconds: SECONDS,
    rounds: ROUNDS,
    generators: GENERATORS,
    previewers: PREVIEWERS,
    idle,
    loaded,
    p99Ratio: ratio(loaded.p99Ms, idle.p99Ms),
    generates,
    previews,
    runnersKilled,
    // every bot still in its first launch: no runner restarted, no crash counted
    botsRelaunched: launches.filter((l) => l.length !== 1 || l[0]!.status !== "running").length,
  };
});
