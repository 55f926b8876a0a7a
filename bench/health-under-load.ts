// /api/health while the server is loaded by generates and previews (issue 29 item 11), under the
// compiled binary: p99 of a health probe (one request at a time, 10 ms apart) idle, then while
// 8 clients each generate the program of a large scenario (2,000 nodes) without pause and
// --previewers users each start a preview of it, talk to it and stop it, over and over. Two
// owners' bots run in shared runners on the fake messenger (this process) meanwhile: none of
// their runners may be killed and no crash counted. The idle probe is the same-run baseline
// (target: loaded p99 <= 1.5x idle). Prints ONE JSON line.
//
//   bun bench/health-under-load.ts [--seconds 12] [--rounds 3] [--previewers 2]
import { join } from "node:path";
import { startFakeMessenger } from "../test/support/fake-messenger";
import { greeterScenario } from "../test/bots/scenario-fixture";
import { synthetic } from "./codegen-scenarios";
import { api, arg, latency, onCleanup, raiseTokenIds, ratio, runBench, startBinaryPlatform, until } from "./lib";

const SECONDS = arg("seconds", 12);
const PREVIEWERS = arg("previewers", 2);
const ROUNDS = arg("rounds", 3);
const GENERATORS = 8;

/** Health requests one at a time until `over()`; their latencies in ms. */
async function probe(url: string, over: () => boolean) {
  const samples: number[] = [];
  while (!over()) {
    const t0 = performance.now();
    const r = await fetch(`${url}/api/health`);
    await r.arrayBuffer();
    if (r.status !== 200) throw new Error(`health answered ${r.status}`);
    samples.push(performance.now() - t0);
    await Bun.sleep(10);
  }
  return samples;
}

await runBench("health-under-load", async () => {
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
  for (let round = 0; round < ROUNDS; round++) {
    let deadline = performance.now() + (SECONDS * 1000) / ROUNDS;
    idleSamples.push(...(await probe(p.url, () => performance.now() > deadline)));
    deadline = performance.now() + (SECONDS * 1000) / ROUNDS;
    const over = () => performance.now() > deadline;
    const generating = Array.from({ length: GENERATORS }, async () => {
      while (!over()) {
        const out = await api(p.url, "POST", `/api/projects/${large.id}/generate`, { cookie, json: {} });
        if (typeof out.code !== "string") throw new Error("generate gave no code");
        generates++;
      }
    });
    const previewing = previewers.map(async (c, i) => {
      while (!over()) {
        const s = await api(p.url, "POST", `/api/projects/${shared[i]}/preview`, { cookie: c, json: {}, expect: 201 });
        await api(p.url, "POST", `/api/preview/${s.id}/actions`, { cookie: c, json: { type: "text", text: "/start" } });
        await api(p.url, "DELETE", `/api/preview/${s.id}`, { cookie: c });
        previews++;
      }
    });
    loadedSamples.push(...(await probe(p.url, over)));
    await Promise.all([...generating, ...previewing]); // the last requests finish before the next idle window
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
