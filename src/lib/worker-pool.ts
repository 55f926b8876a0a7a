// A small pool of worker threads with a queue in front: at most `size` jobs run at once, each on a
// thread of its own; an idle thread ends after `idleMs` (it holds a heap of its own); a thread
// that dies takes its job with it and the next job gets a fresh one. The generator
// (src/scenario/codegen/off-thread.ts) and the Tables reads (src/modules/tables/reads.ts) use it.
import { backgroundThread, spareCores } from "./priority";

/** Bun's Worker: ref/unref as on timers (the DOM type the checker sees lacks them). */
type BunWorker = Worker & { ref(): void; unref(): void };

interface Queued<J, R> {
  job: J;
  done: PromiseWithResolvers<R>;
}

interface Slot<J, R> {
  worker: BunWorker;
  busy: Queued<J, R> | null;
  idle: ReturnType<typeof setTimeout> | null;
}

export function workerPool<J, R>(opts: {
  entry: string;
  /** threads at most; by default spareCores(), worked out at the first job (reading the cores costs a cold start about a millisecond) */
  size?: number;
  idleMs: number;
  name: string;
}): (job: J) => Promise<R> {
  let size = opts.size;
  const slots = new Set<Slot<J, R>>();
  const queue: Queued<J, R>[] = [];

  const drop = (slot: Slot<J, R>) => {
    slots.delete(slot);
    if (slot.idle) clearTimeout(slot.idle);
    void slot.worker.terminate();
  };

  const spawn = (): Slot<J, R> => {
    const worker = new Worker(opts.entry, backgroundThread()) as BunWorker;
    const slot: Slot<J, R> = { worker, busy: null, idle: null };
    worker.onmessage = (e: MessageEvent<R>) => {
      const queued = slot.busy;
      slot.busy = null;
      slot.worker.unref();
      slot.idle = setTimeout(() => drop(slot), opts.idleMs);
      slot.idle.unref();
      pump();
      queued?.done.resolve(e.data);
    };
    worker.onerror = (e) => {
      e.preventDefault?.();
      drop(slot);
      slot.busy?.done.reject(new Error(`${opts.name} failed: ${e.message}`));
      pump();
    };
    slots.add(slot);
    return slot;
  };

  const pump = () => {
    while (queue.length > 0) {
      let slot = [...slots].find((s) => s.busy === null);
      if (!slot) {
        if (slots.size >= (size ??= spareCores())) return;
        slot = spawn();
      }
      const next = queue.shift()!;
      if (slot.idle) clearTimeout(slot.idle);
      slot.idle = null;
      slot.busy = next;
      slot.worker.ref();
      slot.worker.postMessage(next.job);
    }
  };

  return (job) => {
    const done = Promise.withResolvers<R>();
    queue.push({ job, done });
    pump();
    return done.promise;
  };
}
