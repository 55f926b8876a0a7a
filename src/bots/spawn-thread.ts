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

/** The one thread of the server's preview processes, started with the first and ended after a quiet minute. */
class Spawner {
  private thread: ServerThread<ToSpawner> | null = null;
  private idle: ReturnType<typeof setTimeout> | null = null;
  private nextId = 1;
  private readonly live = new Map<number, Live>();

  /** Starts a process from the thread; resolves once it runs (rejects when it could not start). */
  spawn(spec: SpawnSpec): Promise<ChildProcess> {
    if (this.idle) clearTimeout(this.idle);
    this.idle = null;
    this.thread ??= serverThread<ToSpawner, FromSpawner>("spawner", backgroundThread(), (m) => this.onMessage(m), (why) => this.died(why));
    const id = this.nextId++;
    const l: Live = { spec, started: Promise.withResolvers(), exited: Promise.withResolvers(), child: null };
    this.live.set(id, l);
    this.send({ kind: "spawn", id, cmd: spec.cmd, cwd: spec.cwd, env: spec.env, nice: nicenessBelow(spec.nice) });
    return l.started.promise;
  }

  private send(m: ToSpawner) {
    this.thread?.post(m);
  }

  private settle(id: number, result: { code: number | null; signal: string | null }) {
    const l = this.live.get(id);
    if (!l) return;
    this.live.delete(id);
    if (l.child) l.child.ended = true;
    l.exited.resolve(result);
    if (this.live.size === 0) this.quiet();
  }

  private onMessage(m: FromSpawner) {
    const l = this.live.get(m.id);
    if (!l) return;
    if (m.kind === "lines") for (const line of m.lines) l.spec.onLine(m.level, line);
    else if (m.kind === "spawned") {
      const id = m.id;
      const child = {
        pid: m.pid,
        exited: l.exited.promise,
        ended: false,
        write: (text: string) => this.send({ kind: "write", id, text }),
        end: () => this.send({ kind: "end", id }),
        kill: (signal: "SIGTERM" | "SIGKILL") => this.send({ kind: "kill", id, signal }),
      };
      l.child = child;
      l.started.resolve(child);
    } else if (m.kind === "failed") {
      this.live.delete(m.id);
      l.started.reject(new Error(m.message));
      if (this.live.size === 0) this.quiet();
    } else this.settle(m.id, { code: m.code, signal: m.signal });
  }

  /**
   * The thread died (it should not): its processes are killed and reported ended. Their pipes belong
   * to the process, not to the thread, so a bot would otherwise run on with nobody to read it.
   */
  private died(why: string) {
    this.thread = null;
    for (const [id, l] of this.live) {
      if (l.child) {
        try {
          process.kill(l.child.pid, "SIGKILL");
        } catch {
          // ended already
        }
        this.settle(id, { code: null, signal: null });
      } else {
        this.live.delete(id);
        l.started.reject(new Error(`the preview's process thread stopped: ${why}`));
      }
    }
  }

  private quiet() {
    if (this.idle) clearTimeout(this.idle);
    this.idle = setTimeout(() => {
      this.idle = null;
      if (this.live.size > 0 || !this.thread) return;
      const t = this.thread;
      this.thread = null;
      void t.end();
    }, IDLE_MS);
    this.idle.unref();
  }
}

/** The server's one spawner (a test reaches its thread to make it fail). */
export const spawner = new Spawner();

/** Starts a process from the thread; resolves once it runs (rejects when it could not start). */
export const spawnOffThread = (spec: SpawnSpec): Promise<ChildProcess> => spawner.spawn(spec);
