// writeIfChanged (src/bots/bot-modules.ts) is called from two threads at once: a production bot's
// start on the event loop and a preview's in the preview thread write the same bot packages. Each
// thread writes a temporary file of its own and renames it into place, so the file is always one
// writer's whole content and neither write fails.
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeIfChanged } from "../../src/bots/bot-modules";

const dir = mkdtempSync(join(tmpdir(), "botloom-write-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test("two threads writing one file at the same moments: every round leaves one writer's whole content", async () => {
  const file = join(dir, "index.js");
  const rounds = 40;
  // large enough that one write takes a while, so the two overlap
  const size = 2 * 1024 * 1024;
  const gate = new SharedArrayBuffer(8);
  const turn = new Int32Array(gate);
  const worker = new Worker(new URL("./write-if-changed-worker.ts", import.meta.url).href);
  const finished = new Promise<string[]>((resolve) => (worker.onmessage = (e) => resolve(e.data)));
  worker.postMessage({ file, rounds, size, gate });
  const failures: string[] = [];
  for (let round = 1; round <= rounds; round++) {
    const mine = `main ${round} `.padEnd(size, "m");
    const theirs = `worker ${round} `.padEnd(size, "w");
    Atomics.store(turn, 0, round);
    Atomics.notify(turn, 0);
    try {
      writeIfChanged(file, mine);
    } catch (err) {
      failures.push(`round ${round}: ${err instanceof Error ? err.message : String(err)}`);
    }
    // the worker's write of this round is done too
    if (Atomics.wait(turn, 1, round - 1, 10_000) === "timed-out" && Atomics.load(turn, 1) < round) throw new Error(`the worker did not finish round ${round}`);
    const now = readFileSync(file, "utf8");
    if (now !== mine && now !== theirs) failures.push(`round ${round}: a mixed or partial file (${now.length} characters, starting ${JSON.stringify(now.slice(0, 12))})`);
  }
  failures.push(...(await finished));
  worker.terminate();
  expect(failures).toEqual([]);
});
