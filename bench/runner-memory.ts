// What one more bot costs a shared runner (issue 24: the fleet's memory per bot ≤ 0.5 MB): two
// real runners (src/bots/runner/main.ts with the platform's interpreter, spoken to over their JSON
// lines) against the fake messenger in this process. Runner A hosts bots with their project's
// database file (20 tokens a file, as bench/fleet.ts); runner B, the same-run baseline, the same
// bots without one (DATABASE_PATH unset: everything in memory), so the difference is what a bot's
// SQLite connection costs. Both take --bots/2 bots, then --bots/2 more, started alternately in
// batches; the per-bot figure is the RSS slope between the two steps (a runner's own start-up,
// the interpreter and grammY, is in neither). Then every bot answers one /start, and after the
// bots' idle shrink (runtime/launch.ts, 30 s) the slope is read again: what an idle bot keeps
// after it has worked. Prints ONE JSON line.
//
//   bun bench/runner-memory.ts [--bots 200] [--per-file 20]
import { mkdirSync, readFileSync, symlinkSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { ensureBotModules } from "../src/bots/bot-modules";
import { compileBotTables, renderInterpreter } from "../src/scenario";
import type { RunnerCommand } from "../src/bots/runner/protocol";
import { greeterScenario } from "../test/bots/scenario-fixture";
import { startFakeMessenger, type FakeBot } from "../test/support/fake-messenger";
import { BUN, ROOT, arg, onCleanup, pool, round, rssMb, runBench, tempDir } from "./lib";

const N = Math.max(2, arg("bots", 200));
const PER_FILE = Math.max(1, arg("per-file", 20));
/** The bots' first shrink comes 2 s after their start, then every 30 s (runtime/launch.ts). */
const FIRST_SETTLE_MS = 3_000;
const IDLE_SETTLE_MS = 32_000;

interface Runner {
  name: string;
  proc: ReturnType<typeof Bun.spawn>;
  send(cmd: RunnerCommand): void;
}

await runBench(
  "runner-memory",
  async () => {
    const fake = await startFakeMessenger();
    onCleanup(() => fake.stop());
    const dir = tempDir("runner-memory");
    // The runner's files beside the interpreter, as the platform writes them (bots/runner-pool.ts).
    const runnerDir = join(dir, "bots", ".runner");
    mkdirSync(runnerDir, { recursive: true });
    ensureBotModules(join(dir, "bots"));
    await Bun.write(join(runnerDir, "main.ts"), readFileSync(join(ROOT, "src/bots/runner/main.ts"), "utf8"));
    await Bun.write(join(runnerDir, "watchdog.ts"), readFileSync(join(ROOT, "src/bots/runner/watchdog.ts"), "utf8"));
    await Bun.write(join(runnerDir, "interpreter.ts"), renderInterpreter());
    // the interpreter imports nothing else; the modules resolve from bots/node_modules
    symlinkSync(join(dir, "bots", "node_modules"), join(runnerDir, "node_modules"));
    mkdirSync(join(dir, "data"), { recursive: true });

    const spawn = (name: string): Runner => {
      const proc = Bun.spawn([BUN, "--no-install", "main.ts"], {
        cwd: runnerDir,
        env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp", BUN_CONFIG_MAX_HTTP_REQUESTS: "65535" },
        stdin: "pipe",
        stdout: "pipe",
        stderr: "inherit",
      });
      onCleanup(() => proc.kill("SIGKILL"));
      void new Response(proc.stdout as ReadableStream).text(); // lines and pongs: read, not needed
      const sink = proc.stdin as import("bun").FileSink;
      return { name, proc, send: (cmd) => void (sink.write(JSON.stringify(cmd) + "\n"), sink.flush()) };
    };
    const withDb = spawn("withDatabase");
    const without = spawn("withoutDatabase");

    const { tables } = compileBotTables(greeterScenario, { projectName: "Runner memory", userDatabaseEnabled: true, enableLogging: true });
    type Member = { runner: Runner; id: number; bot: FakeBot; env: Record<string, string> };
    const members: Member[] = [];
    for (let i = 0; i < N; i++) {
      for (const runner of [withDb, without]) {
        const id = members.length + 1;
        const bot = fake.addBot({ username: `rm${id}_bot` });
        const file = Math.floor(i / PER_FILE) + 1;
        members.push({
          runner,
          id,
          bot,
          env: {
            BOT_TOKEN: bot.token,
            MESSENGER_API_ROOT: fake.url,
            PROJECT_ID: String(file),
            TOKEN_ID: String(id),
            LAUNCH_MODE: "polling",
            BOTLOOM_ENV_KEYS: "",
            BOTLOOM_SECRET_KEYS: "",
            BOTLOOM_MESSAGE_RETENTION_DAYS: "30",
            BOTLOOM_EVENTS: "1",
            BOTLOOM_ANALYTICS: "1",
            ...(runner === withDb ? { DATABASE_PATH: join(dir, "data", `${file}.db`) } : {}),
          },
        });
      }
    }

    /** Starts `list` (both runners' bots alternately, 16 at a time) and waits for each one's first poll. */
    const startAll = async (list: Member[]) => {
      const polled = list.map((m) => fake.waitForCall(m.bot.token, (c) => c.method === "getUpdates", 60_000));
      await pool(list, 16, async (m) => m.runner.send({ op: "start", id: m.id, tables, env: m.env }));
      await Promise.all(polled);
    };
    const rss = (r: Runner) => round(rssMb(r.proc.pid) ?? Number.NaN, 1);
    const sample = () => ({ withDatabase: rss(withDb), withoutDatabase: rss(without) });

    await Bun.sleep(1000);
    const empty = sample();
    const half = members.length / 2;
    await startAll(members.slice(0, half));
    await Bun.sleep(FIRST_SETTLE_MS);
    const atHalf = sample();
    await startAll(members.slice(half));
    await Bun.sleep(FIRST_SETTLE_MS);
    const atFull = sample();

    // one exchange per bot, then long enough for every bot's next shrink
    const user = { id: 900_001, first_name: "Bench" };
    await pool(members, 16, async (m) => {
      fake.sendText(m.bot.token, user, "/start");
      await fake.waitForSent(m.bot.token, user.id, 1, 20_000);
    });
    const afterTraffic = sample();
    await Bun.sleep(IDLE_SETTLE_MS);
    const idleAgain = sample();

    const perBotKb = (a: number, b: number) => round(((b - a) * 1024) / (N / 2), 0);
    const slope = (key: "withDatabase" | "withoutDatabase") => ({
      startedKB: perBotKb(atHalf[key], atFull[key]),
      // every bot of the runner worked once: what the whole set keeps beyond the started state, per bot
      afterOneReplyKB: round(((afterTraffic[key] - atFull[key]) * 1024) / N, 0),
      idleAgainKB: round(((idleAgain[key] - atFull[key]) * 1024) / N, 0),
    });
    const a = slope("withDatabase");
    const b = slope("withoutDatabase");
    return {
      bots: N,
      perRunner: N,
      perFile: PER_FILE,
      rssMB: { empty, atHalf, atFull, afterTraffic, idleAgain },
      perBot: { withDatabase: a, withoutDatabase: b },
      databaseCostKB: a.startedKB - b.startedKB,
      targetKB: 512,
      meets: a.startedKB <= 512,
      loadAverage1m: round(loadavg()[0], 2),
    };
  },
  { timeoutMs: 5 * 60_000 },
);
