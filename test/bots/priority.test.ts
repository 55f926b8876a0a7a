// Who gets the cores first (src/lib/priority.ts): a runner hosting bots runs BOT_NICE nicer than
// the server, so a bot burning CPU in its scenario SQL cannot delay the server's answers
// (bench/health-under-load.ts); and on two cores or more, bots and background threads keep off the
// first, left to the event loop. Real processes, fake messenger.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { getPriority, tmpdir } from "node:os";
import { join } from "node:path";
import { BACKGROUND_NICE, BOT_NICE, backgroundCpus, backgroundThread, cpusOfThisThread, lowerPriority, lowerProcessPriority, setCpus, spareCores, spareCoresOf, useBackgroundCpus, withoutFirstCpu } from "../../src/lib/priority";
import { workerPool } from "../../src/lib/worker-pool";
import { createTestApp, loginAs } from "../support/app";
import { coresOfThisThread, coresOfThreads, listOf } from "../support/cpus";
import { until } from "../support/process";
import { act, addBot, startRunnerPlatform, type RunnerPlatform } from "./runner-platform";

let p: RunnerPlatform;

beforeAll(async () => {
  p = await startRunnerPlatform();
});

afterAll(async () => {
  await p.close();
});

test("lowerPriority makes a process nicer than the server by the amount asked, at most 19", async () => {
  const sleeper = Bun.spawn(["sleep", "30"]);
  try {
    lowerPriority(sleeper.pid, BACKGROUND_NICE);
    expect(getPriority(sleeper.pid)).toBe(Math.min(19, getPriority(0) + BACKGROUND_NICE));
    lowerPriority(sleeper.pid, 40);
    expect(getPriority(sleeper.pid)).toBe(19);
  } finally {
    sleeper.kill();
  }
});

test("lowerProcessPriority reaches every thread of a process, not only its main one", async () => {
  const proc = Bun.spawn([process.execPath, "-e", "setInterval(() => {}, 1000)"]);
  try {
    const tasks = () => readdirSync(`/proc/${proc.pid}/task`).map(Number);
    await until(() => tasks().length > 1, "the process's own threads");
    lowerPriority(proc.pid, BOT_NICE); // its main thread alone
    expect(new Set(tasks().map((tid) => getPriority(tid))).size).toBe(2);
    lowerProcessPriority(proc.pid, BACKGROUND_NICE);
    expect(new Set(tasks().map((tid) => getPriority(tid)))).toEqual(new Set([Math.min(19, getPriority(0) + BACKGROUND_NICE)]));
  } finally {
    proc.kill();
  }
});

test("a runner hosting bots runs BOT_NICE below the server", async () => {
  const cookie = await loginAs(p.t, 811);
  const b = await addBot(p, cookie, "Niced");
  expect((await act(p, b, "start")).status).toBe(200);
  await until(() => p.fake.calls(b.bot.token, "getUpdates").length > 0, "the bot to poll");
  const runner = p.t.ctx.bots.state(b.tokenId).pid!;
  expect(getPriority(runner)).toBe(Math.min(19, getPriority(0) + BOT_NICE));
  expect(getPriority(runner)).toBeGreaterThan(getPriority(0));
}, 60_000);

const bytes = (...b: number[]) => Uint8Array.from(b);

describe("one core kept for the event loop", () => {
  test.each([
    ["cores 0 and 1", bytes(0b11), bytes(0b10)],
    ["cores 0-3", bytes(0b1111), bytes(0b1110)],
    ["cores 2 and 5 (a server started on some)", bytes(0b100100), bytes(0b100000)],
    ["cores 0 and 9", bytes(0b1, 0b10), bytes(0, 0b10)],
    ["cores 7 and 8", bytes(0b10000000, 0b1), bytes(0, 0b1)],
    ["one core", bytes(0b1), null],
    ["only core 12", bytes(0, 0b10000), null],
    ["none", bytes(0, 0), null],
  ])("background cores of %s", (_name, mask, expected) => {
    expect(withoutFirstCpu(mask)).toEqual(expected);
    expect(mask).toEqual(mask.slice()); // the given mask is left as it was
  });

  const background = backgroundCpus();
  const many = background !== null;
  if (!many) console.warn("one core on this machine: the background cores are not narrowed, tests of it skipped");
  const first = coresOfThisThread();

  test.if(many)("a runner hosting bots, every thread of it, is off the event loop's core", async () => {
    const cookie = await loginAs(p.t, 812);
    const b = await addBot(p, cookie, "OffCore");
    expect((await act(p, b, "start")).status).toBe(200);
    await until(() => p.fake.calls(b.bot.token, "getUpdates").length > 0, "the bot to poll");
    const runner = p.t.ctx.bots.state(b.tokenId).pid!;
    const threads = coresOfThreads(runner);
    expect(threads.length).toBeGreaterThan(1); // its watchdog and Bun's own threads as well
    expect(new Set(threads)).toEqual(new Set([listOf(background!)]));
    expect(coresOfThisThread()).toBe(first); // the server's own are left as they were
  }, 60_000);

  /**
   * A worker entry that enters the background as the server's threads do and answers each job with
   * its niceness, its cores and the niceness it would give a process BOT_NICE below the server; to
   * "nested", also those of a thread it starts.
   */
  const entry = join(mkdtempSync(join(tmpdir(), "botloom-nice-")), "nice-worker.ts");
  writeFileSync(entry, `import { BOT_NICE, backgroundThread, enterBackground, nicenessBelow } from ${JSON.stringify(new URL("../../src/lib/priority.ts", import.meta.url).pathname)};
import { getPriority } from "node:os";
enterBackground();
const mine = () => ({ nice: getPriority(0), cores: require("fs").readFileSync("/proc/thread-self/status", "utf8").match(/Cpus_allowed_list:\\s*(\\S+)/)[1], process: nicenessBelow(BOT_NICE) });
self.onmessage = async (e) => {
  if (e.data !== "nested") return postMessage(mine());
  const w = new Worker(import.meta.path, backgroundThread());
  const child = await new Promise((resolve) => { w.onmessage = (m) => resolve(m.data); w.postMessage("self"); });
  void w.terminate();
  postMessage({ ...mine(), child });
};`);
  type Seen = { nice: number; cores: string; process: number; child: { nice: number; cores: string; process: number } };
  const seenBy = async (setting: "auto" | "all"): Promise<Seen> => {
    useBackgroundCpus(setting);
    const w = new Worker(entry, backgroundThread());
    try {
      const answer = new Promise<Seen>((resolve) => (w.onmessage = (e: MessageEvent<Seen>) => resolve(e.data)));
      w.postMessage("nested");
      return await answer;
    } finally {
      void w.terminate();
      useBackgroundCpus("auto");
    }
  };
  const below = (by: number) => Math.min(19, getPriority(0) + by);

  test.if(many)("off the event loop's core, background threads run beside the bots, and count a thread's or process's niceness from the server's", async () => {
    const seen = await seenBy("auto");
    expect(seen).toEqual({ nice: below(BOT_NICE), cores: listOf(background!), process: below(BOT_NICE), child: { nice: below(BOT_NICE), cores: listOf(background!), process: below(BOT_NICE) } });
    expect(coresOfThisThread()).toBe(first); // the event loop's own are never narrowed
  });

  test("sharing the event loop's core (BACKGROUND_CPUS=all), background threads run 19 nicer, and so do the threads they start, on every core", async () => {
    const seen = await seenBy("all");
    expect(seen).toEqual({ nice: below(BACKGROUND_NICE), cores: first, process: below(BOT_NICE), child: { nice: below(BACKGROUND_NICE), cores: first, process: below(BOT_NICE) } });
    expect(coresOfThisThread()).toBe(first);
  });



  test("BACKGROUND_CPUS reaches the server: all gives background threads no cores to move to", () => {
    // the cores a background thread started now would be given (Bun's Worker takes node's workerData)
    const given = () => (backgroundThread() as { workerData: { backgroundCpus: number[] | null } }).workerData.backgroundCpus;
    const all = createTestApp({ env: { BACKGROUND_CPUS: "all" } });
    expect(given()).toBeNull();
    all.cleanup();
    const auto = createTestApp();
    expect(given()).toEqual(background && [...background]);
    auto.cleanup();
  });

  test.each([
    ["one core", bytes(0b1), 1],
    ["cores 0 and 1", bytes(0b11), 1],
    ["cores 0-2", bytes(0b111), 2],
    ["cores 3, 9 and 12 (a container's cpuset)", bytes(0b1000, 0b10010), 2],
    ["sixteen cores", bytes(0xff, 0xff), 2],
    ["none", bytes(0, 0), 1],
  ])("threads a pool may run beside the event loop on %s", (_name, mask, expected) => {
    expect(spareCoresOf(mask)).toBe(expected);
  });

  test("the pools' threads: the cores the thread may use less one, at most two, at least one", () => {
    const mine = cpusOfThisThread()!;
    const cores = [...mine.keys()].flatMap((byte) => [0, 1, 2, 3, 4, 5, 6, 7].filter((bit) => mine[byte]! & (1 << bit)).map((bit) => byte * 8 + bit));
    try {
      // the thread narrowed to its first k cores, as a container's cpuset would leave it
      for (let k = 1; k <= cores.length; k++) {
        const mask = new Uint8Array(mine.length);
        for (const c of cores.slice(0, k)) mask[c >> 3]! |= 1 << (c & 7);
        expect(setCpus(0, mask)).toBe(true);
        expect([k, spareCores()]).toEqual([k, Math.max(1, Math.min(2, k - 1))]);
      }
    } finally {
      setCpus(0, mine);
    }
  });

  test.if(many)("the pool of the generator and the Tables reads gives its threads the background cores", async () => {
    useBackgroundCpus("auto");
    const run = workerPool<string, { cores: string }>({ entry, size: 2, idleMs: 50, name: "cores" });
    expect((await Promise.all([run("a"), run("b")])).map((r) => r.cores)).toEqual([listOf(background!), listOf(background!)]);
  });
});
