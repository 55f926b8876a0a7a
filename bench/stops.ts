// Wall-clock figures the unit tests only bound (a machine under load may take longer, so a test
// that asserted them would fail for the wrong reason), measured here beside same-run baselines:
//  - a generated bot's graceful stop, SIGTERM → exit (baseline: a bare `bun` that exits on SIGTERM);
//  - a declared 60 MB JSON body refused with 413 after a few bytes (baseline: `GET /api/health`
//    over the same kind of raw connection);
//  - the fake messenger answering a held getUpdates when an update arrives (baseline: a getUpdates
//    answered at once from a waiting update).
// `bun bench/stops.ts [--runs 7]`
import { startBot, doc, node } from "../test/scenario/harness";
import { startFakeMessenger } from "../test/support/fake-messenger";
import { rawHttp } from "../test/support/raw-http";
import { BUN, arg, latency, onCleanup, ratio, runBench, startPlatform } from "./lib";

const RUNS = arg("runs", 7);

async function timeToExit(proc: ReturnType<typeof Bun.spawn>): Promise<number> {
  const t0 = performance.now();
  proc.kill("SIGTERM");
  await proc.exited;
  return performance.now() - t0;
}

/** Raw bytes on a fresh connection; ms until the head of the answer (and its status). */
async function rawRequest(port: number, head: string[], body = ""): Promise<{ status: number; ms: number }> {
  const r = await rawHttp(port, head, body, 10_000);
  if (r.headMs === null) throw new Error(`no answer to ${head[0]}`);
  return { status: r.status, ms: r.headMs };
}

await runBench("stops", async () => {
  const fake = await startFakeMessenger();
  onCleanup(() => fake.stop());

  // 1. graceful stop of a generated bot
  const botStops: number[] = [];
  const bareStops: number[] = [];
  const scenario = doc(node("start", "start", { command: "/start", messageText: "hi" }));
  for (let i = 0; i < RUNS; i++) {
    const b = await startBot(fake, scenario);
    await b.waitForOutput(/polling|started/i);
    botStops.push(await timeToExit(b.proc));
    const bare = Bun.spawn([BUN, "-e", "process.on('SIGTERM', () => process.exit(0)); console.log('up'); setInterval(() => {}, 1000)"], { stdout: "pipe" });
    await new Response(bare.stdout).body!.getReader().read();
    bareStops.push(await timeToExit(bare));
  }

  // 2. a declared 60 MB body against the platform, and a health round trip
  const p = await startPlatform();
  const port = Number(new URL(p.url).port);
  const cookie = await p.login(4242);
  const refusals: number[] = [];
  const health: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const big = await rawRequest(port, ["POST /api/projects HTTP/1.1", `Host: 127.0.0.1:${port}`, `Cookie: ${cookie}`, "Content-Type: application/json", `Content-Length: ${60 * 1024 * 1024}`], '{"name":"x');
    if (big.status !== 413) throw new Error(`expected 413, got ${big.status}`);
    refusals.push(big.ms);
    const h = await rawRequest(port, ["GET /api/health HTTP/1.1", `Host: 127.0.0.1:${port}`, "Connection: close"]);
    health.push(h.ms);
  }

  // 3. the fake messenger: a held long poll answered by an arriving update, and an immediate one
  const { token } = fake.addBot();
  const getUpdates = (params: object) => fetch(`${fake.url}/bot${token}/getUpdates`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(params) }).then((r) => r.json() as Promise<any>);
  const held: number[] = [];
  const immediate: number[] = [];
  let offset = 0;
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    const poll = getUpdates({ timeout: 5, offset });
    await fake.waitForCall(token, (c) => c.method === "getUpdates" && c.at >= Date.now() - 1000);
    fake.sendText(token, { id: 1, first_name: "A" }, `ping ${i}`);
    const got = await poll;
    held.push(performance.now() - t0);
    offset = got.result.at(-1).update_id + 1;
    fake.sendText(token, { id: 1, first_name: "A" }, `pong ${i}`);
    const t1 = performance.now();
    const now = await getUpdates({ timeout: 5, offset });
    immediate.push(performance.now() - t1);
    offset = now.result.at(-1).update_id + 1;
  }

  const bot = latency(botStops).p50Ms;
  const bare = latency(bareStops).p50Ms;
  const refused = latency(refusals).p50Ms;
  const healthMs = latency(health).p50Ms;
  const heldMs = latency(held).p50Ms;
  const immediateMs = latency(immediate).p50Ms;
  return {
    runs: RUNS,
    botStopMs: bot,
    bareBunStopMs: bare,
    botStopRatio: ratio(bot, bare),
    body60MbRefusedMs: refused,
    healthRoundTripMs: healthMs,
    refusalRatio: ratio(refused, healthMs),
    heldPollAnsweredMs: heldMs,
    immediatePollMs: immediateMs,
  };
});
