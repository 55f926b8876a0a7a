// A worker thread of the server, started the one way all of them are (the previews' host, the
// preview bots' spawner, the campaign sender, the log writer, the checkpointer): what it posts goes
// to one handler, and `onDeath` is called once should it fail or exit by itself, never after `end`.
// Unreferenced from the start: the server's listener keeps the process alive, a thread must not
// (one that must, while it works, says so with `ref`).

import { workerEntry, type WorkerName } from "./worker-entry";

/** Bun's Worker: ref/unref as on timers (the DOM type the checker sees lacks them). */
type BunWorker = Worker & { ref(): void; unref(): void };

export interface ServerThread<In> {
  post(message: In): void;
  ref(): void;
  unref(): void;
  /** Ends the thread; `onDeath` is not called for it. */
  end(): Promise<void>;
}

export function serverThread<In, Out>(name: WorkerName, options: WorkerOptions | undefined, onMessage: (m: Out) => void, onDeath: (why: string) => void): ServerThread<In> {
  const w = new Worker(workerEntry(name), options) as BunWorker;
  let over = false;
  const died = (why: string) => {
    if (over) return;
    over = true;
    onDeath(why);
    void w.terminate();
  };
  w.onmessage = (e: MessageEvent<Out>) => onMessage(e.data);
  w.onerror = (e) => {
    e.preventDefault?.();
    died(e.message);
  };
  w.addEventListener("close", () => died("it exited"));
  w.unref();
  return {
    post: (m) => w.postMessage(m),
    ref: () => w.ref(),
    unref: () => w.unref(),
    async end() {
      over = true;
      await w.terminate();
    },
  };
}
