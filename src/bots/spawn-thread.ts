// Preview bots' processes are started from a thread of their own. Bun starts a process with vfork:
// the thread that calls it stops until the child has called exec. Idle that is 0.3 ms; with the
// cores busy (a bot burning CPU in its SQL) the child waits for one first, and the event loop stood
// still 2–8 ms at each preview start, every request on the server with it — half of the loaded
// health probe's tail (docs/performance.md "The event loop's long turns, traced"). Here only this
// thread waits. It also reads the processes' output, so their lines reach the event loop a chunk at
// a time. One thread for every preview of the server, started with the first and ended after a
// quiet minute; the production bots' runners are started by the event loop (rarely: at a bot's
// start or a runner's restart).
import type { FromSpawner, ToSpawner } from "./spawn-protocol";
import { backgroundThread, nicenessBelow } from "../lib/priority";
import { serverThread, type ServerThread } from "../lib/server-thread";

/** spawn-worker.ts beside this file; in the compiled executable, the entry point scripts/build.ts adds. */
const WORKER_ENTRY = import.meta.url.includes("/$bunfs/") ? "./bots/spawn-worker.ts" : new URL("./spawn-worker.ts", import.meta.url).href;
const IDLE_MS = 60_000;

export interface SpawnSpec {
  cmd: string[];
  cwd: string;
  env: Record<string, string>;
  /** how much nicer than the server the process runs (src/lib/priority.ts) */
  nice: number;
  onLine: (level: "stdout" | "stderr", line: string) => void;
}

/** A process started by the thread: what the preview needs of Bun's Subprocess. */
export interface ChildProcess {
  readonly pid: number;
  /** settles once the process has ended and its last lines were delivered */
  readonly exited: Promise<{ code: number | null; signal: string | null }>;
  /** whether `exited` has settled */
  readonly ended: boolean;
  write(text: string): void;
  /** closes its stdin */
  end(): void;
  kill(signal: "SIGTERM" | "SIGKILL"): void;
}

interface Live {
  spec: SpawnSpec;
  started: PromiseWithResolvers<ChildProcess>;
  exited: PromiseWithResolvers<{ code: number | null; signal: string | null }>;
  child: { pid: number; ended: boolean } | null;
}

let worker: ServerThread<ToSpawner> | null = null;
let idle: ReturnType<typeof setTimeout> | null = null;
let nextId = 1;
const live = new Map<number, Live>();

function send(m: ToSpawner) {
  worker?.post(m);
}

function settle(id: number, result: { code: number | null; signal: string | null }) {
  const l = live.get(id);
  if (!l) return;
  live.delete(id);
  if (l.child) l.child.ended = true;
  l.exited.resolve(result);
  if (live.size === 0) quiet();
}

function onMessage(m: FromSpawner) {
  const l = live.get(m.id);
  if (!l) return;
  if (m.kind === "lines") for (const line of m.lines) l.spec.onLine(m.level, line);
  else if (m.kind === "spawned") {
    const id = m.id;
    const child = {
      pid: m.pid,
      exited: l.exited.promise,
      ended: false,
      write: (text: string) => send({ kind: "write", id, text }),
      end: () => send({ kind: "end", id }),
      kill: (signal: "SIGTERM" | "SIGKILL") => send({ kind: "kill", id, signal }),
    };
    l.child = child;
    l.started.resolve(child);
  } else if (m.kind === "failed") {
    live.delete(m.id);
    l.started.reject(new Error(m.message));
    if (live.size === 0) quiet();
  } else settle(m.id, { code: m.code, signal: m.signal });
}

/**
 * The thread died (it should not): its processes are killed and reported ended. Their pipes belong
 * to the process, not to the thread, so a bot would otherwise run on with nobody to read it.
 */
function died(why: string) {
  worker = null;
  for (const [id, l] of live) {
    if (l.child) {
      try {
        process.kill(l.child.pid, "SIGKILL");
      } catch {
        // ended already
      }
      settle(id, { code: null, signal: null });
    }
    else {
      live.delete(id);
      l.started.reject(new Error(`the preview's process thread stopped: ${why}`));
    }
  }
}

function start() {
  return serverThread<ToSpawner, FromSpawner>(WORKER_ENTRY, backgroundThread(), onMessage, died);
}

function quiet() {
  if (idle) clearTimeout(idle);
  idle = setTimeout(() => {
    idle = null;
    if (live.size > 0 || !worker) return;
    const w = worker;
    worker = null;
    void w.end();
  }, IDLE_MS);
  idle.unref();
}

/** Starts a process from the thread; resolves once it runs (rejects when it could not start). */
export function spawnOffThread(spec: SpawnSpec): Promise<ChildProcess> {
  if (idle) clearTimeout(idle);
  idle = null;
  worker ??= start();
  const id = nextId++;
  const l: Live = { spec, started: Promise.withResolvers(), exited: Promise.withResolvers(), child: null };
  live.set(id, l);
  send({ kind: "spawn", id, cmd: spec.cmd, cwd: spec.cwd, env: spec.env, nice: nicenessBelow(spec.nice) });
  return l.started.promise;
}
