// A shared runner's output leaves in batches (src/bots/runner/outbox.ts): lines wait for the
// batch, any other event leaves at once after them, a big batch leaves without waiting.
import { describe, expect, test } from "bun:test";
import { BATCH_CHARS, createOutbox, LINE_HOLD_MS } from "../../src/scenario/codegen/runtime/outbox";

function harness() {
  const writes: string[] = [];
  const timers: { fn: () => void; ms: number; cancelled: boolean }[] = [];
  const box = createOutbox(
    (text) => writes.push(text),
    (fn, ms) => {
      const t = { fn, ms, cancelled: false };
      timers.push(t);
      return t;
    },
    (t) => (t.cancelled = true),
  );
  const fire = () => timers.filter((t) => !t.cancelled).forEach((t) => ((t.cancelled = true), t.fn()));
  return { box, writes, timers, fire };
}

describe("runner outbox", () => {
  test("lines wait for one timer and leave together, in order", () => {
    const { box, writes, timers, fire } = harness();
    for (let i = 0; i < 5; i++) box.send(`{"ev":"line","n":${i}}`, true);
    expect(writes).toEqual([]);
    expect(timers.map((t) => t.ms)).toEqual([LINE_HOLD_MS]);
    fire();
    expect(writes).toEqual([[0, 1, 2, 3, 4].map((i) => `{"ev":"line","n":${i}}\n`).join("")]);
    box.send("a", true);
    expect(timers).toHaveLength(2); // a new batch, a new timer
  });

  test.each([
    ["an exit", '{"ev":"exit"}'],
    ["a pong", '{"ev":"pong"}'],
    ["an error", '{"ev":"error"}'],
  ])("%s leaves at once, after the lines before it, and cancels the timer", (_, event) => {
    const { box, writes, timers } = harness();
    box.send("l1", true);
    box.send("l2", true);
    box.send(event, false);
    expect(writes).toEqual([`l1\nl2\n${event}\n`]);
    expect(timers[0].cancelled).toBe(true);
  });

  test("an event with nothing waiting is written alone; flush of nothing writes nothing", () => {
    const { box, writes, timers } = harness();
    box.flush();
    box.send("e", false);
    expect(writes).toEqual(["e\n"]);
    expect(timers).toHaveLength(0);
  });

  test("a batch of BATCH_CHARS leaves without waiting", () => {
    const { box, writes } = harness();
    const line = "x".repeat(1023);
    for (let i = 0; i < BATCH_CHARS / 1024 - 1; i++) box.send(line, true);
    expect(writes).toHaveLength(0);
    box.send(line, true);
    expect(writes).toHaveLength(1);
    expect(writes[0].length).toBe(BATCH_CHARS);
  });

  test("flush writes what waits (the runner's exit)", () => {
    const { box, writes } = harness();
    box.send("last words", true);
    box.flush();
    expect(writes).toEqual(["last words\n"]);
  });
});
