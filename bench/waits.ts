// Durable waits after a restart (docs/nodes/messaging.md, "Waits survive restarts"): a generated
// bot starts on a project file holding 10,000 waits that fell due while it was down; measured:
// start → every continuation's message at the fake messenger, and the bot's memory (RSS, peak)
// once they are all out. Same-run baseline: the same bot on a file without waits (start → its
// first answer; RSS after that answer).
// `bun bench/waits.ts [--waits 10000] [--runs 3]`
import { Database } from "bun:sqlite";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { PROJECT_DB_DDL } from "../src/db/project-schema";
import { doc, node, removeDir, startBot, tmpDir } from "../test/scenario/harness";
import { startFakeMessenger, type FakeMessenger } from "../test/support/fake-messenger";
import { arg, median, onCleanup, ratio, round, runBench } from "./lib";

const WAITS = arg("waits", 10_000);
const RUNS = arg("runs", 3);

const scenario = doc(
  node("ring", "message", { messageText: "Reminder for {first_name}!" }),
  node("cmd-ping", "command_trigger", { command: "/ping", autoTransitionTo: "pong" }),
  node("pong", "message", { messageText: "pong" }),
);

/** VmRSS and VmHWM (peak) of a process, in MB. */
function memoryOf(pid: number): { rssMB: number; peakMB: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+)`, "m").exec(status)?.[1] ?? 0);
  return { rssMB: round(kb("VmRSS") / 1024, 1), peakMB: round(kb("VmHWM") / 1024, 1) };
}

function projectFile(dir: string, waits: number): string {
  const path = join(dir, "project.db");
  const d = new Database(path, { create: true });
  for (const ddl of PROJECT_DB_DDL) d.exec(ddl);
  const add = d.prepare("INSERT INTO bot_waits (token_id, chat_id, node, due_at, turn) VALUES (0, ?, 'ring', ?, ?)");
  const due = Date.now() - 60_000; // fell due while the bot was down
  d.transaction(() => {
    for (let i = 0; i < waits; i++) add.run(String(10_000_000 + i), due, JSON.stringify({ from: { id: 10_000_000 + i, is_bot: false, first_name: "U" + i } }));
  })();
  d.close();
  return path;
}

async function run(fake: FakeMessenger, waits: number) {
  const dir = tmpDir("bench-waits-");
  onCleanup(() => removeDir(dir));
  const dbPath = projectFile(dir, waits);
  const bot = fake.addBot({ username: `bench_waits_${waits}_${Math.random().toString(36).slice(2, 6)}_bot` });
  const rings = () => fake.calls(bot.token, "sendMessage").filter((c) => String(c.params.text).startsWith("Reminder for")).length;
  const t0 = performance.now();
  const b = await startBot(fake, scenario, { dir, bot, env: { DATABASE_PATH: dbPath } });
  onCleanup(() => b.stop());
  let doneMs: number;
  if (waits > 0) {
    // counted every 50 ms: a finer poll of 10,000 recorded calls slows the fake messenger in this process
    while (rings() < waits) await Bun.sleep(50);
    doneMs = performance.now() - t0;
  } else {
    const user = { id: 42, first_name: "Ann" };
    fake.sendText(bot.token, user, "/ping");
    await fake.waitForSent(bot.token, user.id, 1, 30_000);
    doneMs = performance.now() - t0;
  }
  const memory = memoryOf(b.proc.pid);
  const left = new Database(dbPath, { readonly: true });
  const pending = left.query<{ n: number }, []>("SELECT count(*) AS n FROM bot_waits").get()!.n;
  left.close();
  await b.stop();
  if (rings() !== waits || pending !== 0) throw new Error(`fired ${rings()} of ${waits}, ${pending} left`);
  return { doneMs, ...memory };
}

await runBench("waits", async () => {
  const fake = await startFakeMessenger();
  onCleanup(() => fake.stop());
  const many: Awaited<ReturnType<typeof run>>[] = [];
  const none: Awaited<ReturnType<typeof run>>[] = [];
  for (let i = 0; i < RUNS; i++) {
    none.push(await run(fake, 0));
    many.push(await run(fake, WAITS));
  }
  const firedMs = median(many.map((r) => r.doneMs));
  const baseMs = median(none.map((r) => r.doneMs));
  const rss = median(many.map((r) => r.rssMB));
  const rssNone = median(none.map((r) => r.rssMB));
  return {
    waits: WAITS,
    runs: RUNS,
    startToAllFiredMs: firedMs,
    noWaitsStartToFirstAnswerMs: baseMs,
    firedVsStart: ratio(firedMs, baseMs),
    rssMB: rss,
    rssNoWaitsMB: rssNone,
    peakRssMB: median(many.map((r) => r.peakMB)),
    peakRssNoWaitsMB: median(none.map((r) => r.peakMB)),
    rssRatio: ratio(rss, rssNone),
  };
});
