// Faults in shared runners, under the compiled binary against the fake messenger in this process.
// Two owners with --bots bots each (each owner's bots share one runner). Users talk to --talkers
// bots of each owner without pause; replies per second and p99 are measured:
//  - baseline: no fault (the same-run baseline);
//  - throws: a bot of owner A whose every send fails at the messenger, flooded with updates;
//  - blocks: a bot of owner A runs a query that would block its runner for minutes (the runner is
//    killed after BOT_RUNNER_BLOCK_SECONDS, 5 s by default; A's other bots move to a new runner);
//  - allocates: a bot of owner B builds a string of nearly 1 GB (limit BOT_RUNNER_MEMORY_MB=512 here).
// For each fault: replies/s to the other owner's bots during the fault (they never share the
// runner), to the same owner's other bots, the longest gap without a reply for those, and whether
// the faulty bot is named in its log. Prints ONE JSON line.
//
//   bun bench/runner-faults.ts [--bots 20] [--talkers 5]
import { join } from "node:path";
import { startFakeMessenger, type FakeBot } from "../test/support/fake-messenger";
import { api, arg, latency, onCleanup, raiseTokenIds, ratio, round, runBench, startBinaryPlatform, until } from "./lib";
import { faultScenario as scenario } from "../test/bots/scenario-fixture";

const BOTS = arg("bots", 20);
const TALKERS = arg("talkers", 5);


interface Bot {
  tokenId: number;
  projectId: number;
  fake: FakeBot;
}

await runBench(
  "runner-faults",
  async () => {
    const fake = await startFakeMessenger();
    onCleanup(() => fake.stop());
    const p = await startBinaryPlatform({ env: { MESSENGER_API_ROOT: fake.url, BOT_RUNNERS: "1", BOT_RUNNER_MEMORY_MB: "512", LOG_LEVEL: "warn" } });
    raiseTokenIds(join(p.dir, "data", "botloom.db"), 2 * BOTS + 2);
    const owners = { a: await p.login(11), b: await p.login(12) };
    const fleet = async (cookie: string, prefix: string): Promise<Bot[]> => {
      const project = await api(p.url, "POST", "/api/projects", { cookie, json: { name: prefix, data: scenario } });
      const bots: Bot[] = [];
      for (let i = 0; i < BOTS; i++) {
        const f = fake.addBot({ username: `${prefix}${i}_bot` });
        const token = await api(p.url, "POST", `/api/bot/projects/${project.id}/tokens`, { cookie, json: { token: f.token } });
        await api(p.url, "POST", `/api/bot/tokens/${token.id}/start`, { cookie });
        bots.push({ tokenId: token.id, projectId: project.id, fake: f });
      }
      return bots;
    };
    const a = await fleet(owners.a, "ownera");
    const b = await fleet(owners.b, "ownerb");
    for (const bot of [...a, ...b]) await until(() => fake.calls(bot.fake.token, "getUpdates").length > 0, `${bot.fake.username} to poll`, 30_000);

    /** Users talking to the given bots without pause until `done` resolves: replies, latencies, longest gap. */
    const talk = async (bots: Bot[], done: Promise<unknown>) => {
      let over = false;
      void done.finally(() => (over = true));
      const samples: number[] = [];
      let longestGapMs = 0;
      const t0 = performance.now();
      await Promise.all(
        bots.map(async (bot, i) => {
          const from = { id: 50_000 + bot.tokenId * 10 + i, first_name: "Talker" };
          let last = performance.now();
          while (!over) {
            const t = performance.now();
            fake.sendText(bot.fake.token, from, "/start");
            try {
              await fake.waitForSent(bot.fake.token, from.id, 1, 30_000);
              samples.push(performance.now() - t);
            } catch {
              continue;
            }
            longestGapMs = Math.max(longestGapMs, performance.now() - last);
            last = performance.now();
          }
        }),
      );
      const seconds = (performance.now() - t0) / 1000;
      const l = latency(samples);
      return { replies: samples.length, perSecond: round(samples.length / seconds, 1), p99Ms: l.p99Ms, longestGapMs: round(longestGapMs, 0) };
    };
    const logged = async (bot: Bot, cookie: string, text: string) => JSON.stringify(await api(p.url, "GET", `/api/projects/${bot.projectId}/logs/all?limit=1000&tokenId=${bot.tokenId}`, { cookie })).includes(text);
    /** Talks to TALKERS other bots of the faulty bot's owner and of the other owner while `fault` runs. */
    const during = async (owner: "a" | "b", fault: () => Promise<unknown>) => {
      const over = fault();
      const [same, other] = owner === "a" ? [a, b] : [b, a];
      const [sameOwner, otherOwner] = await Promise.all([talk(same.slice(1, 1 + TALKERS), over), talk(other.slice(1, 1 + TALKERS), over)]);
      return { sameOwner, otherOwner };
    };

    const baseline = await during("a", () => Bun.sleep(5000));

    const thrower = a[0]!;
    const throws = await during("a", async () => {
      for (let i = 0; i < 200; i++) fake.failNext(thrower.fake.token, "sendMessage", { error_code: 400, description: "Bad Request: injected failure" });
      for (let i = 0; i < 200; i++) fake.sendText(thrower.fake.token, { id: 90_000 + i, first_name: "Flood" }, "/start");
      await Bun.sleep(5000);
    });
    const throwerNamed = await logged(thrower, owners.a, "injected failure").catch(() => false);

    const blocker = a[0]!;
    let blockNamed = false;
    const blocks = await during("a", async () => {
      fake.sendText(blocker.fake.token, { id: 91_000, first_name: "Blocker" }, "/block");
      await until(async () => (blockNamed = await logged(blocker, owners.a, "blocked its runner's event loop")), "the blocking bot to be named", 60_000, 200);
      await until(async () => (await logged(a[1]!, owners.a, "moved to another runner")) || null, "the others to move", 30_000, 200);
      await Bun.sleep(2000);
    });
    await api(p.url, "POST", `/api/bot/tokens/${blocker.tokenId}/stop`, { cookie: owners.a });

    const grower = b[0]!;
    let growNamed = false;
    const grows = await during("b", async () => {
      fake.sendText(grower.fake.token, { id: 92_000, first_name: "Grower" }, "/grow");
      await until(async () => (growNamed = await logged(grower, owners.b, "its runner's memory reached")), "the growing bot to be named", 60_000, 200);
      await until(async () => (await logged(b[1]!, owners.b, "moved to another runner")) || null, "the others to move", 30_000, 200);
      await Bun.sleep(2000);
    });
    await api(p.url, "POST", `/api/bot/tokens/${grower.tokenId}/stop`, { cookie: owners.b });

    // Both owners' baselines are alike (same bots, same load): the ratios use the talkers' own.
    const figures = (f: typeof baseline, named: boolean) => ({
      ...f,
      named,
      otherOwnerVsBaseline: ratio(f.otherOwner.perSecond, baseline.otherOwner.perSecond),
      sameOwnerVsBaseline: ratio(f.sameOwner.perSecond, baseline.sameOwner.perSecond),
    });
    return { botsPerOwner: BOTS, talkersPerOwner: TALKERS, baseline, throws: figures(throws, throwerNamed), blocks: figures(blocks, blockNamed), allocates: figures(grows, growNamed) };
  },
  { timeoutMs: 8 * 60_000 },
);
