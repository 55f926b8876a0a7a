// The bot runtime under the compiled binary, against the fake messenger in this process:
//  - how many bots start in 30 s (bounded at --max bots): start requests 4 at a time; a bot counts
//    once it polls (its first getUpdates reaches the fake);
//  - RSS per running bot (sum of VmRSS of the server's child processes — runners, or one process per
//    bot with BOT_ISOLATION=process — / the bots running), next to an idle bare
//    `bun` process (same-run baseline);
//  - API p99 (GET /api/projects/list, 50 connections from a second process) with 0, 25 and all
//    started bots running;
//  - update → reply latency in webhook mode (the fake delivers to the platform's webhook URL; timed
//    until the bot's sendMessage is recorded), next to the same bot in polling mode.
// Prints ONE JSON line.
//
//   bun bench/bots.ts [--max 100] [--window 30] [--seconds 5] [--messages 200]
import { join } from "node:path";
import { greeterScenario } from "../test/bots/scenario-fixture";
import { startFakeMessenger, type FakeBot } from "../test/support/fake-messenger";
import { BUN, api, arg, brief, childrenOf, latency, onCleanup, raiseTokenIds, ratio, round, rssMb, runBench, runLoad, startBinaryPlatform, until } from "./lib";

const MAX = arg("max", 100);
const WINDOW_S = arg("window", 30);
const SECONDS = arg("seconds", 5);
const MESSAGES = arg("messages", 200);
const START_CONCURRENCY = 4;
const OWNER = 1;

await runBench(
  "bots",
  async () => {
    const fake = await startFakeMessenger();
    onCleanup(() => fake.stop());
    const p = await startBinaryPlatform({ env: { MESSENGER_API_ROOT: fake.url }, webhooks: true });
    raiseTokenIds(join(p.dir, "data", "botloom.db"), MAX + 2);
    const cookie = await p.login(OWNER);

    const addBot = async (name: string) => {
      const project = await api(p.url, "POST", "/api/projects", { cookie, json: { name, data: greeterScenario } });
      const bot = fake.addBot({ username: `${name.toLowerCase()}_bot` });
      const token = await api(p.url, "POST", `/api/bot/projects/${project.id}/tokens`, { cookie, json: { token: bot.token } });
      return { projectId: project.id as number, tokenId: token.id as number, bot };
    };
    const bots: { tokenId: number; bot: FakeBot }[] = [];
    for (let i = 0; i < MAX; i++) bots.push(await addBot(`Fleet${i}`));
    const start = (tokenId: number) => api(p.url, "POST", `/api/bot/tokens/${tokenId}/start`, { cookie });
    const stop = (tokenId: number) => api(p.url, "POST", `/api/bot/tokens/${tokenId}/stop`, { cookie });
    const polls = (b: FakeBot) => fake.calls(b.token, "getUpdates").length > 0;
    const apiLoad = async () => brief(await runLoad({ base: p.url, targets: [{ path: "/api/projects/list", headers: { cookie } }], connections: 50, seconds: SECONDS, warmupSeconds: 1 }));

    // --- update → reply latency, webhook mode and polling mode, with no other bot running ---
    const user = { id: 9001, first_name: "Lat" };
    const replyLatency = async (mode: "webhook" | "polling") => {
      const b = await addBot(`Latency${mode}`);
      if (mode === "webhook") await api(p.url, "PATCH", `/api/bot/tokens/${b.tokenId}`, { cookie, json: { launchMode: "webhook" } });
      await start(b.tokenId);
      if (mode === "polling") await until(() => polls(b.bot), "the polling bot", 15_000);
      const samples: number[] = [];
      for (let i = 0; i < MESSAGES + 10; i++) {
        const t0 = performance.now();
        fake.sendText(b.bot.token, user, "/start");
        await fake.waitForSent(b.bot.token, user.id, 1, 10_000);
        if (i >= 10) samples.push(performance.now() - t0); // the first few warm the bot up
      }
      await stop(b.tokenId);
      return latency(samples);
    };
    const webhookReply = await replyLatency("webhook");
    const pollingReply = await replyLatency("polling");

    // --- API with no bot running ---
    const api0 = await apiLoad();

    // --- start rate: as many bots as start in the window, at most MAX ---
    const t0 = performance.now();
    const readyAt = new Map<number, number>();
    let next = 0;
    const starter = async () => {
      while (next < bots.length && performance.now() - t0 < WINDOW_S * 1000) {
        const b = bots[next++];
        await start(b.tokenId);
      }
    };
    const watcher = (async () => {
      while (performance.now() - t0 < WINDOW_S * 1000 && readyAt.size < bots.length) {
        for (const b of bots) if (!readyAt.has(b.tokenId) && polls(b.bot)) readyAt.set(b.tokenId, performance.now() - t0);
        await Bun.sleep(10);
      }
    })();
    await Promise.all(Array.from({ length: START_CONCURRENCY }, starter));
    const requested = next;
    await watcher;
    const started = readyAt.size;
    const allReadyMs = started === bots.length ? Math.max(...readyAt.values()) : null;

    // --- memory of the running bots (idle for a moment first) ---
    await Bun.sleep(2000);
    const pids = childrenOf(p.server.proc.pid);
    const rss = pids.map(rssMb).filter((x): x is number => x !== null);
    const bare = Bun.spawn([BUN, "-e", "setInterval(() => {}, 1000)"], { stdout: "ignore", stderr: "ignore" });
    onCleanup(() => bare.kill("SIGKILL"));
    await Bun.sleep(500);
    const bareRss = rssMb(bare.pid);
    bare.kill("SIGKILL");
    const serverRss = rssMb(p.server.proc.pid);

    // --- API with all started bots, then with 25 ---
    const apiAll = await apiLoad();
    const running = bots.filter((b) => readyAt.has(b.tokenId));
    for (const b of running.slice(25)) await stop(b.tokenId);
    const api25 = await apiLoad();

    return {
      startWindowS: WINDOW_S,
      maxBots: MAX,
      startRequested: requested,
      startedInWindow: started,
      allReadyMs: allReadyMs === null ? null : round(allReadyMs, 0),
      perBotStartMs: started ? round((allReadyMs ?? WINDOW_S * 1000) / started, 1) : null,
      rss: {
        bots: started,
        processes: rss.length,
        perBotMB: started ? round(rss.reduce((a, b) => a + b, 0) / started, 2) : null,
        totalMB: round(rss.reduce((a, b) => a + b, 0), 0),
        bareBunMB: bareRss === null ? null : round(bareRss, 1),
        perBotVsBareBun: started && bareRss ? ratio(rss.reduce((a, b) => a + b, 0) / started, bareRss) : null,
        serverMB: serverRss === null ? null : round(serverRss, 1),
      },
      apiProjectsList: {
        bots0: api0,
        bots25: api25,
        [`bots${started}`]: apiAll,
        p99At25VsAt0: ratio(api25.p99Ms, api0.p99Ms),
        [`p99At${started}VsAt0`]: ratio(apiAll.p99Ms, api0.p99Ms),
      },
      updateToReply: { messages: MESSAGES, webhook: webhookReply, polling: pollingReply, webhookP50VsPolling: ratio(webhookReply.p50Ms, pollingReply.p50Ms) },
    };
  },
  { timeoutMs: 8 * 60_000 },
);
