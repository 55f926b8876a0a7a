// Preview bots' processes are started and read by a thread of their own (src/bots/spawn-thread.ts):
// the event loop never stops in vfork. Real child processes.
import { afterAll, describe, expect, test } from "bun:test";
import { getPriority } from "node:os";
import { tmpdir } from "node:os";
import { readFileSync } from "node:fs";
import { spawner, spawnOffThread, type ChildProcess } from "../../src/bots/spawn-thread";
import { backgroundCpus } from "../../src/lib/priority";
import { coresOfThreads, listOf } from "../support/cpus";
import { until } from "../support/process";

const BUN = process.execPath;
const env = { PATH: process.env.PATH ?? "", BUN_BE_BUN: "1" };

/** Starts `code` under Bun from the thread; collects its lines. */
async function run(code: string, nice = 0) {
  const lines: [string, string][] = [];
  const child = await spawnOffThread({ cmd: [BUN, "-e", code], cwd: tmpdir(), env, nice, onLine: (level, line) => lines.push([level, line]) });
  return { child, lines };
}

const started: ChildProcess[] = [];
afterAll(() => {
  for (const c of started) if (!c.ended) c.kill("SIGKILL");
});

describe("processes started off the event loop", () => {
  test("the event loop's own Bun.spawn is never called", async () => {
    const own = Bun.spawn;
    (Bun as { spawn: unknown }).spawn = () => {
      throw new Error("spawned on the event loop");
    };
    try {
      const { child, lines } = await run('console.log("from the child")');
      started.push(child);
      expect(await child.exited).toEqual({ code: 0, signal: null });
      expect(lines).toEqual([["stdout", "from the child"]]);
    } finally {
      (Bun as { spawn: unknown }).spawn = own;
    }
  });

  test("every line, in order, on its stream, before the exit; blank lines dropped", async () => {
    const { child, lines } = await run(
      'for (let i = 0; i < 500; i++) console.log("line " + i); console.log(""); console.error("to stderr"); console.log("x".repeat(70000)); process.exit(3)',
    );
    started.push(child);
    const exit = await child.exited;
    expect(exit).toEqual({ code: 3, signal: null });
    expect(child.ended).toBe(true);
    const out = lines.filter(([l]) => l === "stdout").map(([, t]) => t);
    expect(out.slice(0, 500)).toEqual(Array.from({ length: 500 }, (_, i) => `line ${i}`));
    // a line longer than 64 KiB arrives in pieces, none lost
    expect(out.slice(500).join("")).toBe("x".repeat(70000));
    expect(lines.filter(([l]) => l === "stderr")).toEqual([["stderr", "to stderr"]]);
  });

  test("what is written reaches its stdin; end() closes it", async () => {
    const { child, lines } = await run('for await (const l of console) if (l) console.log("got " + l); console.log("stdin closed")');
    started.push(child);
    child.write("one\n");
    child.write("two\n");
    child.end();
    expect(await child.exited).toEqual({ code: 0, signal: null });
    expect(lines.map(([, t]) => t)).toEqual(["got one", "got two", "stdin closed"]);
  });

  test("kill ends it with the signal; a write after the end goes nowhere", async () => {
    const { child } = await run("setInterval(() => {}, 1000)");
    started.push(child);
    expect(child.ended).toBe(false);
    child.kill("SIGTERM");
    expect((await child.exited).signal).toBe("SIGTERM");
    expect(() => child.write("late\n")).not.toThrow();
  });

  test("at the niceness asked, below the server", async () => {
    const { child } = await run("setInterval(() => {}, 1000)", 7);
    started.push(child);
    expect(getPriority(child.pid)).toBe(Math.min(19, getPriority(0) + 7));
    child.kill("SIGKILL");
    expect((await child.exited).signal).toBe("SIGKILL");
  });

  test.if(backgroundCpus() !== null)("every thread of it on the cores kept for background work (a preview bot leaves the event loop's core free)", async () => {
    const { child } = await run("setInterval(() => {}, 1000)");
    started.push(child);
    await until(() => coresOfThreads(child.pid).length > 1, "the child's threads");
    expect(new Set(coresOfThreads(child.pid))).toEqual(new Set([listOf(backgroundCpus()!)]));
    child.kill("SIGKILL");
    await child.exited;
  });

  test("several at once keep their own lines", async () => {
    const runs = await Promise.all([1, 2, 3, 4, 5].map((n) => run(`for (let i = 0; i < 50; i++) console.log("${n}:" + i)`)));
    for (const r of runs) started.push(r.child);
    await Promise.all(runs.map((r) => r.child.exited));
    runs.forEach((r, i) => expect(r.lines.map(([, t]) => t)).toEqual(Array.from({ length: 50 }, (_, k) => `${i + 1}:${k}`)));
  });

  test("a program that cannot start is refused", async () => {
    await expect(spawnOffThread({ cmd: ["/nonexistent/botloom-program"], cwd: tmpdir(), env, nice: 0, onLine: () => {} })).rejects.toThrow();
  });

  test("a thread that dies takes its processes with it; the next start gets a new thread", async () => {
    const { child } = await run("setInterval(() => {}, 1000)");
    started.push(child);
    const alive = () => {
      try {
        process.kill(child.pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    expect(alive()).toBe(true);
    // a bug in the thread: a message it cannot read throws outside its own error handling
    const own = spawner as unknown as { thread: { post(m: unknown): void } | null };
    const dying = own.thread!;
    dying.post(null);
    // reported ended without a code: the thread that knew it is gone
    expect(await child.exited).toEqual({ code: null, signal: null });
    expect(child.ended).toBe(true);
    expect(own.thread).toBeNull();
    // killed, not left running with nobody reading its pipes (reaped by the test runner's Bun when it ends)
    await until(() => !alive() || readFileSync(`/proc/${child.pid}/stat`, "utf8").split(") ")[1]!.startsWith("Z"), "the orphan to be killed");
    const next = await run('console.log("after")');
    started.push(next.child);
    expect(await next.child.exited).toEqual({ code: 0, signal: null });
    expect(next.lines).toEqual([["stdout", "after"]]);
    expect(own.thread).not.toBe(dying);
  });
});
