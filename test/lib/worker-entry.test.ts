// The server's worker threads are named once (src/lib/worker-entry.ts): the code that starts each
// and the build (scripts/build.ts) read the same table.
import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { WORKER_ENTRIES, workerEntry, type WorkerName } from "../../src/lib/worker-entry";

const SRC = join(import.meta.dir, "../../src");

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : []));
}

describe("worker entries", () => {
  test.each(Object.keys(WORKER_ENTRIES) as WorkerName[])("%s: from source, the file itself", (name) => {
    const url = workerEntry(name);
    expect(url).toStartWith("file://");
    const file = fileURLToPath(url);
    expect(existsSync(file)).toBe(true);
    expect(relative(SRC, file)).toBe(WORKER_ENTRIES[name]);
  });

  test("every worker file under src/ is in the table, and no other file names a worker's path itself", () => {
    // the bot runner's files run in a process of their own, written out by the pool (bots/runner-pool.ts)
    const files = sources(SRC).map((f) => relative(SRC, f)).filter((f) => !f.startsWith("bots/runner/"));
    const workers = files.filter((f) => /(^|[-/])worker\.ts$/.test(f));
    expect(workers.sort()).toEqual(Object.values(WORKER_ENTRIES).sort());
    const naming = files.filter((f) => f !== "lib/worker-entry.ts" && /new Worker\(|\/\$bunfs\//.test(readFileSync(join(SRC, f), "utf8")));
    // the two places that call `new Worker`, each given its entry by its caller
    expect(naming.sort()).toEqual(["lib/server-thread.ts", "lib/worker-pool.ts"]);
  });
});
