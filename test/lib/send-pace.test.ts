// The one pace per token (src/messenger/send-pace.ts, docs/campaigns.md#one-pace-per-token) shared
// between threads: the campaign sender's thread and the event loop each build a SendPace over one
// buffer, and the slots they take together keep the token's spacing; a 429's pause taken in one
// thread holds the other. Checked on the times the slots were given for (no wall-clock figures).
import { afterAll, describe, expect, test } from "bun:test";
import { SendPace } from "../../src/messenger/send-pace";

const worker = new Worker(new URL("./send-pace-worker.ts", import.meta.url).href);
afterAll(() => worker.terminate());

function inThread(job: { buffer: SharedArrayBuffer; tokenId: number; perSecond: number; count: number; pauseMs?: number }): Promise<number[]> {
  return new Promise((resolve) => {
    worker.onmessage = (e: MessageEvent<number[]>) => resolve(e.data);
    worker.postMessage(job);
  });
}

/** The smallest gap between consecutive slot times. */
const minGap = (times: number[]) => {
  const sorted = [...times].sort((a, b) => a - b);
  return Math.min(...sorted.slice(1).map((t, i) => t - sorted[i]!));
};

describe("the send pace across threads", () => {
  test("slots taken at once by the event loop and another thread over one buffer keep the token's spacing", async () => {
    const pace = new SendPace();
    const perSecond = 200; // 5 ms apart
    const [mine, theirs] = await Promise.all([
      Promise.all(Array.from({ length: 40 }, () => pace.slot(7, perSecond))),
      inThread({ buffer: pace.buffer, tokenId: 7, perSecond, count: 40 }),
    ]);
    expect(mine.length + theirs.length).toBe(80);
    expect(minGap([...mine, ...theirs])).toBeGreaterThanOrEqual(1000 / perSecond - 1e-6);
  });

  test("two buffers are two budgets (what a thread with a pace of its own would do)", async () => {
    const a = new SendPace();
    const b = new SendPace();
    const [mine, theirs] = await Promise.all([Promise.all(Array.from({ length: 10 }, () => a.slot(7, 100))), inThread({ buffer: b.buffer, tokenId: 7, perSecond: 100, count: 10 })]);
    expect(minGap([...mine, ...theirs])).toBeLessThan(10);
  });

  test("another token's slots do not wait for this one's", async () => {
    const pace = new SendPace();
    const first = await pace.slot(1, 1); // token 1 now reserved a second ahead
    const other = await inThread({ buffer: pace.buffer, tokenId: 2, perSecond: 1, count: 1 });
    expect(other[0]! - first).toBeLessThan(1000);
  });

  test("a retry_after's pause taken in the other thread holds this thread's next slot", async () => {
    const pace = new SendPace();
    const before = await pace.slot(9, 1000);
    await inThread({ buffer: pace.buffer, tokenId: 9, perSecond: 1000, count: 0, pauseMs: 300 });
    const after = await pace.slot(9, 1000);
    expect(after - before).toBeGreaterThanOrEqual(300);
  });

  test("a lock left taken (a thread terminated inside a look-up) is taken over, not spun on for good", async () => {
    const pace = new SendPace();
    Atomics.store(new Int32Array(pace.buffer, 0, 1), 0, 1);
    const first = await pace.slot(3, 1000);
    const second = await pace.slot(3, 1000);
    expect(second - first).toBeGreaterThanOrEqual(1 - 1e-6);
    expect(Atomics.load(new Int32Array(pace.buffer, 0, 1), 0)).toBe(0);
  });

  test("more tokens than the table has slots: each keeps its own spacing", async () => {
    const pace = new SendPace();
    const tokens = Array.from({ length: 5000 }, (_, i) => i + 1);
    const first = await Promise.all(tokens.map((t) => pace.slot(t, 1000)));
    const second = await Promise.all(tokens.map((t) => pace.slot(t, 1000)));
    for (let i = 0; i < tokens.length; i++) expect(second[i]! - first[i]!).toBeGreaterThanOrEqual(1 - 1e-6);
  });
});
