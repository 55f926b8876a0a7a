// The /proc readings bench/fleet.ts adds up: a process tree with its grandchildren, its summed RSS,
// CPU time that grows while a process works, and nulls for a process that is gone.
import { afterAll, expect, test } from "bun:test";
import { cpuMs, rssMb, startedAt, treeOf, treeRssMb } from "../../bench/proc";

const started: number[] = [];
afterAll(() => {
  for (const pid of started.reverse()) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {}
  }
});

async function until<T>(fn: () => T | null | undefined | false, what: string, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = fn();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(20);
  }
}

test("a tree holds the grandchildren; its RSS is the sum of its processes", async () => {
  // a child that starts its own idle child and prints that one's pid
  const script = `const g = Bun.spawn([process.execPath, "-e", "setInterval(() => {}, 1000)"], { stdin: "ignore" }); console.log(g.pid); setInterval(() => {}, 1000);`;
  const child = Bun.spawn([process.execPath, "-e", script], { stdout: "pipe", stderr: "ignore", stdin: "ignore" });
  started.push(child.pid);
  const reader = (child.stdout as ReadableStream<Uint8Array>).getReader();
  const grandchild = Number(new TextDecoder().decode((await reader.read()).value).trim());
  started.push(grandchild);
  expect(grandchild).toBeGreaterThan(0);

  const tree = await until(() => treeOf(child.pid).includes(grandchild) && treeOf(child.pid), "the grandchild in the tree");
  expect(tree[0]).toBe(child.pid);
  expect(tree).toHaveLength(2);
  expect(treeOf(process.pid)).toContain(grandchild);

  const sum = treeRssMb(child.pid);
  expect(sum.processes).toBe(2);
  const parts = (rssMb(child.pid) ?? 0) + (rssMb(grandchild) ?? 0);
  expect(sum.totalMB).toBeGreaterThan(5); // two bun processes, each well over 5 MB resident
  expect(Math.abs(sum.totalMB - parts)).toBeLessThan(parts * 0.2); // read a moment apart, so not to the kB

  process.kill(grandchild, "SIGKILL");
  await until(() => rssMb(grandchild) === null || treeOf(child.pid).length === 1, "the grandchild gone");
  await until(() => treeRssMb(child.pid).processes === 1, "a tree of one");
});

test("CPU time grows while a process works; the start time stays; a process that is gone reads as null", async () => {
  const busy = Bun.spawn([process.execPath, "-e", "for (;;) {}"], { stdout: "ignore", stderr: "ignore", stdin: "ignore" });
  started.push(busy.pid);
  const first = cpuMs(busy.pid);
  expect(first).not.toBeNull();
  const born = startedAt(busy.pid);
  expect(born).toBeGreaterThan(0);
  expect(born).toBeGreaterThanOrEqual(startedAt(process.pid)!); // started after this test process
  await until(() => (cpuMs(busy.pid) ?? 0) >= (first ?? 0) + 50, "50 ms of CPU time");
  expect(startedAt(busy.pid)).toBe(born);
  busy.kill("SIGKILL");
  await busy.exited;
  expect(cpuMs(busy.pid)).toBeNull();
  expect(startedAt(busy.pid)).toBeNull();
  expect(rssMb(busy.pid)).toBeNull();
  expect(treeRssMb(busy.pid)).toEqual({ totalMB: 0, processes: 0 });
});
