// The thread that starts preview bots' processes and reads their output (spawn-thread.ts says why).
// Also an entry point of the compiled executable (scripts/build.ts).
import type { Subprocess } from "bun";
import { readLines } from "./lines";
import { enterBackground, setNiceness } from "../lib/priority";
import type { FromSpawner, ToSpawner } from "./spawn-protocol";

declare const self: Worker;

// A preview is a user's trial run: its start waits for the cores after the event loop and the bots.
enterBackground();

const procs = new Map<number, Subprocess<"pipe", "pipe", "pipe">>();
const post = (m: FromSpawner) => self.postMessage(m);

/** Lines of a pipe, posted once per chunk read rather than once per line. */
async function relay(id: number, level: "stdout" | "stderr", stream: ReadableStream<Uint8Array>) {
  let batch: string[] = [];
  let queued = false;
  await readLines(stream, (line) => {
    batch.push(line);
    if (queued) return;
    queued = true;
    queueMicrotask(() => {
      queued = false;
      const lines = batch;
      batch = [];
      post({ kind: "lines", id, level, lines });
    });
  });
  // the microtask above has run by now unless the last line came in the same turn
  if (batch.length) post({ kind: "lines", id, level, lines: batch });
}

function spawn(m: Extract<ToSpawner, { kind: "spawn" }>) {
  let proc: Subprocess<"pipe", "pipe", "pipe">;
  try {
    proc = Bun.spawn(m.cmd, { cwd: m.cwd, env: m.env, stdin: "pipe", stdout: "pipe", stderr: "pipe" });
  } catch (e) {
    post({ kind: "failed", id: m.id, message: e instanceof Error ? e.message : String(e) });
    return;
  }
  procs.set(m.id, proc);
  setNiceness(proc.pid, m.nice);
  post({ kind: "spawned", id: m.id, pid: proc.pid });
  const output = Promise.all([relay(m.id, "stdout", proc.stdout), relay(m.id, "stderr", proc.stderr)]);
  void proc.exited.then(async (code) => {
    await Promise.race([output, Bun.sleep(500)]);
    procs.delete(m.id);
    post({ kind: "exited", id: m.id, code, signal: proc.signalCode == null ? null : String(proc.signalCode) });
  });
}

self.onmessage = (e: MessageEvent<ToSpawner>) => {
  const m = e.data;
  if (m.kind === "spawn") return spawn(m);
  const proc = procs.get(m.id);
  if (!proc) return;
  try {
    if (m.kind === "write") {
      proc.stdin.write(m.text);
      proc.stdin.flush();
    } else if (m.kind === "end") proc.stdin.end();
    else proc.kill(m.signal);
  } catch {
    // the process has just ended: its exit is on its way
  }
};
