// Work a person waits for, while one owner's bot burns the CPU (docs/performance.md "Work a person
// waits for, beside the bots"): under the compiled binary on the fake messenger, a generate and a
// preview's start of a 2,000-node scenario (the scenario changed before each, so each is made anew)
// timed one at a time, first with the machine quiet (the same-run baseline), then while a third
// owner's bot runs the worst scenario SQL of issue 29's probe without pause. Then what that work
// costs the bots: another owner's bot's reply to /start, one at a time, quiet and while a client
// generates without pause (one answer every 50 ms). Prints ONE JSON line.
//
//   bun bench/beside-bots.ts [--n 12] [--replies 40]
import { join } from "node:path";
import { greeterScenario } from "../test/bots/scenario-fixture";
import { startFakeMessenger } from "../test/support/fake-messenger";
import { synthetic } from "./codegen-scenarios";
import { api, arg, latency, onCleanup, raiseTokenIds, ratio, runBench, startBinaryPlatform, until } from "./lib";
import { BURN, SETUP, WORST_SQL } from "./worst-sql";

const N = arg("n", 12);
const REPLIES = arg("replies", 40);


await runBench("beside-bots", async () => {
  const fake = await startFakeMessenger();
  onCleanup(() => fake.stop());
  const p = await startBinaryPlatform({ env: { MESSENGER_API_ROOT: fake.url, BOT_RUNNERS: "1", LOG_LEVEL: "warn" } });
  raiseTokenIds(join(p.dir, "data", "botloom.db"), 4);

  /** A running bot of a new owner with `data` as its scenario: how to talk to it. */
  const botOf = async (owner: number, data: unknown) => {
    const cookie = await p.login(owner);
    const project = await api(p.url, "POST", "/api/projects", { cookie, json: { name: `Owner${owner}`, data } });
    const f = fake.addBot({ username: `owner${owner}_bot` });
    const token = await api(p.url, "POST", `/api/bot/projects/${project.id}/tokens`, { cookie, json: { token: f.token } });
    await api(p.url, "POST", `/api/bot/tokens/${token.id}/start`, { cookie });
    await until(() => fake.calls(f.token, "getUpdates").length > 0, "the bot to poll", 30_000);
    let user = 9000 + owner * 100;
    /** Sends `text` as a new user and resolves with the ms until the bot's first answer. */
    return async (text: string) => {
      const from = { id: ++user, first_name: "Ann" };
      const t = performance.now();
      fake.sendText(f.token, from, text);
      await fake.waitForSent(f.token, from.id, 1, 60_000);
      return performance.now() - t;
    };
  };
  const burner = await botOf(23, WORST_SQL);
  for (const command of SETUP) await burner(command);
  const greeter = await botOf(22, greeterScenario);

  const cookie = await p.login(31);
  const data = synthetic(2000);
  const large = await api(p.url, "POST", "/api/projects", { cookie, json: { name: "Large", data } });
  let version = 0;
  /** A new scenario: the program cache then has no answer, and the generator makes the program anew. */
  const change = async () => {
    (data.sheets[0]!.nodes[0]!.data as { messageText?: string }).messageText = `changed ${++version}`;
    await api(p.url, "PUT", `/api/projects/${large.id}`, { cookie, json: { data } });
  };
  const generate = async () => {
    await change();
    const t = performance.now();
    const r = await fetch(`${p.url}/api/projects/${large.id}/generate`, { method: "POST", headers: { cookie, "content-type": "application/json" }, body: "{}" });
    const bytes = (await r.arrayBuffer()).byteLength;
    if (r.status !== 200 || bytes < 100_000) throw new Error(`generate answered ${r.status} with ${bytes} bytes`);
    return performance.now() - t;
  };
  const previewStart = async () => {
    await change();
    const t = performance.now();
    const s = await api(p.url, "POST", `/api/projects/${large.id}/preview`, { cookie, json: {}, expect: 201 });
    const ms = performance.now() - t;
    if (s.status !== "running") throw new Error(`the preview is ${s.status}`);
    await api(p.url, "DELETE", `/api/preview/${s.id}`, { cookie });
    return ms;
  };
  const waitedFor = async () => {
    const generates: number[] = [];
    const starts: number[] = [];
    for (let i = 0; i < N; i++) {
      generates.push(await generate());
      starts.push(await previewStart());
    }
    return { generateMs: latency(generates), previewStartMs: latency(starts) };
  };

  await waitedFor(); // not kept: the server's code compiled, its caches filled
  const quiet = await waitedFor();
  let burning = true;
  let burns = 0;
  const burn = (async () => {
    for (; burning; burns++) for (const command of BURN) await burner(command);
  })();
  await Bun.sleep(2000); // the burn under way
  const loaded = await waitedFor();
  burning = false;
  await burn;

  /** REPLIES answers to /start, one every 50 ms (so a phase of generates spans many of them). */
  const replies = async () => {
    const ms: number[] = [];
    for (let i = 0; i < REPLIES; i++) {
      ms.push(await greeter("/start"));
      await Bun.sleep(50);
    }
    return latency(ms);
  };
  await replies(); // not kept
  const repliesQuiet = await replies();
  let generating = true;
  let generates = 0;
  const generator = (async () => {
    for (; generating; generates++) await generate();
  })();
  await Bun.sleep(500);
  const repliesGenerating = await replies();
  generating = false;
  await generator;

  return {
    n: N,
    quiet,
    burning: loaded,
    sqlBurns: burns,
    generateBurningVsQuiet: ratio(loaded.generateMs.p50Ms, quiet.generateMs.p50Ms),
    previewStartBurningVsQuiet: ratio(loaded.previewStartMs.p50Ms, quiet.previewStartMs.p50Ms),
    botReply: { quiet: repliesQuiet, generating: repliesGenerating, generates },
    botReplyGeneratingVsQuiet: ratio(repliesGenerating.p50Ms, repliesQuiet.p50Ms),
  };
});
