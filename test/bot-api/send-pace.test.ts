// The token's one send pace across processes (docs/campaigns.md#one-pace-per-token): the server's
// sends (SendPace) and a bot's own mass sends (runtime/pace.ts, which paceMassSend calls in an
// in-process broadcast or a schedule for every user) reserve their send time in the same row of
// the project file, so their slots together keep the token's pace. Checked on the planned starts
// (the schedule each side computed), not on wall-clock timings; without the ledger the same run
// overlaps, which is what the bot's own pace did before.
import { afterAll, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PROJECT_DB_DDL } from "../../src/db/project-schema";
import { projectFileLedger, SendPace } from "../../src/messenger/send-pace";
import { reserveSendTime } from "../../src/scenario/codegen/runtime/pace";

const dir = mkdtempSync(join(tmpdir(), "botloom-send-pace-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const PER_SECOND = 50;
const TOKEN = 7;

function projectFile(name: string): Database {
  const d = new Database(join(dir, name));
  d.exec("PRAGMA journal_mode = WAL");
  d.exec("PRAGMA busy_timeout = 5000");
  for (const ddl of PROJECT_DB_DDL) d.exec(ddl);
  return d;
}

/** The server takes `n` slots while the bot (another connection to the file, as its process has) reserves `n`: every planned start, by whom. */
async function bothSend(pace: SendPace, bot: Database, n: number) {
  const starts: { at: number; by: "server" | "bot" }[] = [];
  const server = (async () => {
    for (let i = 0; i < n; i++) starts.push({ at: await pace.slot(TOKEN, PER_SECOND), by: "server" });
  })();
  const own = (async () => {
    for (let i = 0; i < n; i++) {
      // what paceMassSend does: reserve one slot at the row's pace (25 until the server wrote its own)
      const { start } = reserveSendTime(bot, TOKEN, Date.now(), 0, undefined, 25);
      starts.push({ at: start, by: "bot" });
      await Bun.sleep(Math.max(0, start - Date.now()));
    }
  })();
  await Promise.all([server, own]);
  return starts.sort((a, b) => a.at - b.at);
}

/** The shortest time between two planned starts, ms. */
const closest = (starts: { at: number }[]) => Math.min(...starts.slice(1).map((s, i) => s.at - starts[i]!.at));

test("the server's and the bot's sends share the token's pace through the project file", async () => {
  const serverSide = projectFile("shared.db");
  const botSide = new Database(join(dir, "shared.db"));
  botSide.exec("PRAGMA busy_timeout = 5000");
  const starts = await bothSend(new SendPace(undefined, projectFileLedger((id) => (id === TOKEN ? serverSide : undefined))), botSide, 15);
  // both sent, interleaved (the bot is not simply made to wait for the server to finish)
  const firstServer = starts.findIndex((s) => s.by === "server");
  const lastServer = starts.findLastIndex((s) => s.by === "server");
  expect(starts.slice(firstServer, lastServer).some((s) => s.by === "bot")).toBe(true);
  // never two sends closer than the pace allows (2 ms for the two clocks' rounding: the bot's own pace adds 2 ms of slack)
  expect(closest(starts)).toBeGreaterThanOrEqual(1000 / PER_SECOND - 2);
  // the row holds the server's pace for the bot to read
  expect(botSide.query("SELECT per_second AS p FROM send_pace WHERE token_id = ?").get(TOKEN)).toEqual({ p: PER_SECOND });
  // a 429 on the server holds the bot's next send too
  new SendPace(undefined, projectFileLedger(() => serverSide)).pause(TOKEN, 60_000);
  expect(reserveSendTime(botSide, TOKEN, Date.now(), 0, undefined, 25).start).toBeGreaterThanOrEqual(Date.now() + 59_000);
  serverSide.close();
  botSide.close();
}, 30_000);

test("the campaign sender's thread reserves in the same row through its own connection: the event loop's, the thread's and the bot's sends keep one pace", async () => {
  const path = join(dir, "threads.db");
  const serverSide = projectFile("threads.db");
  const botSide = new Database(path);
  botSide.exec("PRAGMA busy_timeout = 5000");
  const pace = new SendPace(undefined, projectFileLedger((id) => (id === TOKEN ? serverSide : undefined)));
  const worker = new Worker(new URL("../lib/send-pace-worker.ts", import.meta.url).href);
  try {
    const thread = new Promise<number[]>((resolve) => {
      worker.onmessage = (e: MessageEvent<number[]>) => resolve(e.data);
      worker.postMessage({ buffer: pace.buffer, tokenId: TOKEN, perSecond: PER_SECOND, count: 15, file: path });
    });
    const [starts, fromThread] = await Promise.all([bothSend(pace, botSide, 15), thread]);
    const all = [...starts, ...fromThread.map((at) => ({ at, by: "thread" as const }))].sort((a, b) => a.at - b.at);
    expect(all.length).toBe(45);
    expect(closest(all)).toBeGreaterThanOrEqual(1000 / PER_SECOND - 2);
  } finally {
    worker.terminate();
    serverSide.close();
    botSide.close();
  }
}, 30_000);

test("a thread over the server's buffer but without the ledger (what the sender's thread did before) overlaps the bot's sends", async () => {
  const botSide = projectFile("bypass.db");
  const pace = new SendPace();
  const worker = new Worker(new URL("../lib/send-pace-worker.ts", import.meta.url).href);
  try {
    const thread = new Promise<number[]>((resolve) => {
      worker.onmessage = (e: MessageEvent<number[]>) => resolve(e.data);
      worker.postMessage({ buffer: pace.buffer, tokenId: TOKEN, perSecond: PER_SECOND, count: 15 });
    });
    const bot = (async () => {
      const at: number[] = [];
      for (let i = 0; i < 15; i++) {
        const { start } = reserveSendTime(botSide, TOKEN, Date.now(), 0, undefined, PER_SECOND);
        at.push(start);
        await Bun.sleep(Math.max(0, start - Date.now()));
      }
      return at;
    })();
    const all = [...(await thread), ...(await bot)].sort((a, b) => a - b).map((at) => ({ at }));
    expect(closest(all)).toBeLessThan(1000 / PER_SECOND - 2);
  } finally {
    worker.terminate();
    botSide.close();
  }
}, 30_000);

test("without the ledger (each process its own pace) the same sends overlap", async () => {
  const botSide = projectFile("alone.db");
  const starts = await bothSend(new SendPace(), botSide, 15);
  expect(closest(starts)).toBeLessThan(1000 / PER_SECOND - 2);
  botSide.close();
}, 30_000);
