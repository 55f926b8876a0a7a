// The supervision arithmetic (src/bots/policy.ts crashVerdict): crashes counted in a sliding
// window, giving up at the limit, restarts delayed by a doubling, capped backoff.
import { expect, test } from "bun:test";
import { crashVerdict, type SupervisionPolicy } from "../../src/bots/policy";

const P: SupervisionPolicy = { backoffBaseMs: 1000, backoffCapMs: 5000, crashLimit: 3, crashWindowMs: 60_000, stopGraceMs: 0, listenTimeoutMs: 0 };

test.each([
  // earlier crashes, now → crashes kept, gives up, delay
  [[], 100_000, [100_000], false, 1000],
  [[90_000], 100_000, [90_000, 100_000], false, 2000],
  [[30_000, 90_000], 100_000, [90_000, 100_000], false, 2000], // 70 s ago: outside the window
  [[50_000, 90_000], 100_000, [50_000, 90_000, 100_000], true, 4000],
  [[96_000, 97_000, 98_000, 99_000], 100_000, [96_000, 97_000, 98_000, 99_000, 100_000], true, 5000], // capped
] as const)("after %j, a crash at %d keeps %j, gives up %p, waits %d ms", (earlier, now, kept, givesUp, delay) => {
  expect(crashVerdict([...earlier], now, P)).toEqual({ crashes: [...kept], givesUp, delayMs: delay });
});
