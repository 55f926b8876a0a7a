// A second thread for test/bots/write-if-changed.test.ts: writes its own content into the same file
// as the test's thread, round after round, each round started at the same moment as the other's.
import { writeIfChanged } from "../../src/bots/bot-modules";

declare const self: Worker;

self.onmessage = (e: MessageEvent<{ file: string; rounds: number; size: number; gate: SharedArrayBuffer }>) => {
  const { file, rounds, size, gate } = e.data;
  const turn = new Int32Array(gate);
  const failures: string[] = [];
  for (let round = 1; round <= rounds; round++) {
    // wait for the test's thread to open this round (it gives up on a thread that never answers)
    while (Atomics.load(turn, 0) < round) Atomics.wait(turn, 0, round - 1, 100);
    try {
      writeIfChanged(file, `worker ${round} `.padEnd(size, "w"));
    } catch (err) {
      failures.push(`round ${round} in the worker: ${err instanceof Error ? err.message : String(err)}`);
    }
    Atomics.add(turn, 1, 1);
    Atomics.notify(turn, 1);
  }
  self.postMessage(failures);
};
