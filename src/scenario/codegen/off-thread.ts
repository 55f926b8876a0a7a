// Generating a large scenario takes hundreds of milliseconds of CPU: on the server's event loop a
// few parallel `generate` calls stalled every other request (issue 29). Here it runs in a small pool
// of worker threads (worker.ts) with a queue in front: at most POOL_SIZE programs are generated at
// once, and the event loop only hands over the stored text and receives the program.
import type { Issue } from "../validate";
import { ScenarioError } from "../../errors";
import type { GeneratedBot, GenerateOptions } from "./index";
import { transferable } from "./transfer";

export interface Job {
  /**
   * the scenario as JSON text, or as its UTF-8 bytes (moved to the worker, not copied: the event
   * loop neither decodes nor clones a large document); parsed in the worker
   */
  json: string | Uint8Array;
  opts: GenerateOptions;
  /** how a limit problem names the document; absent for a document already checked */
  label?: string;
  /** answer the program as the UTF-8 bytes of its JSON string (`codeJson`) instead of `bot.code` */
  codeAsJson?: boolean;
}

/** A program; with `codeAsJson`, `bot.code` is empty and `codeJson` holds it, JSON-encoded. */
export type Generated = { bot: GeneratedBot; codeJson?: Uint8Array<ArrayBuffer> };

export type Reply = Generated | { issues: Issue[] } | { limit: string } | { unreadable: true } | { failed: string };

/** What a stored scenario gave: its program, or why there is none besides a ScenarioError. */
export type StoredGenerate = Generated | { limit: string } | { unreadable: true };

/** One core stays with the event loop; at most two generate at once (bench/health-under-load.ts). */
const POOL_SIZE = Math.max(1, Math.min(2, (navigator.hardwareConcurrency || 1) - 1));
/** An idle worker ends after this long (it holds a heap of its own). */
const IDLE_MS = 30_000;

interface Queued {
  job: Job;
  done: PromiseWithResolvers<StoredGenerate>;
}

/** Bun's Worker: ref/unref as on timers (the DOM type the checker sees lacks them). */
type BunWorker = Worker & { ref(): void; unref(): void };

interface Slot {
  worker: BunWorker;
  busy: Queued | null;
  idle: ReturnType<typeof setTimeout> | null;
}

/**
 * worker.ts beside this file; in the compiled executable this file is part of a chunk, and the
 * worker is the entry point scripts/build.ts adds, named by its path under src/ (the build's root).
 */
const WORKER_ENTRY = import.meta.url.includes("/$bunfs/") ? "./scenario/codegen/worker.ts" : new URL("./worker.ts", import.meta.url).href;

const slots = new Set<Slot>();
const queue: Queued[] = [];

/**
 * Generates the program of a stored scenario off the event loop. Throws ScenarioError when the
 * document is unusable, like generateBot; a document over the limits or not JSON at all is a result.
 */
export function generateStoredBot(json: string | Uint8Array, opts: GenerateOptions, label: string, codeAsJson = false): Promise<StoredGenerate> {
  return enqueue({ json, opts, label, codeAsJson });
}

/**
 * generateBot off the event loop, for a document within the limits given as JSON text (a preview's:
 * stored text goes as it is, so the event loop neither parses nor serialises a large scenario).
 * `label` names a stored document whose limits the worker checks; an unreadable or over-limit
 * document is a result, as for generateStoredBot.
 */
export function generateJsonOffThread(json: string, opts: GenerateOptions, label?: string): Promise<StoredGenerate> {
  return enqueue({ json, opts, label });
}

function enqueue(job: Job): Promise<StoredGenerate> {
  const done = Promise.withResolvers<StoredGenerate>();
  queue.push({ job, done });
  pump();
  return done.promise;
}

function pump() {
  while (queue.length > 0) {
    let slot = [...slots].find((s) => s.busy === null);
    if (!slot) {
      if (slots.size >= POOL_SIZE) return;
      slot = spawn();
    }
    const next = queue.shift()!;
    if (slot.idle) clearTimeout(slot.idle);
    slot.idle = null;
    slot.busy = next;
    slot.worker.ref();
    slot.worker.postMessage(next.job, transferable(next.job.json));
  }
}

function spawn(): Slot {
  const worker = new Worker(WORKER_ENTRY) as BunWorker;
  const slot: Slot = { worker, busy: null, idle: null };
  worker.onmessage = (e: MessageEvent<Reply>) => settle(slot, e.data);
  worker.onerror = (e) => {
    // A worker that died takes its job with it; the next job gets a fresh one.
    e.preventDefault?.();
    drop(slot);
    slot.busy?.done.reject(new Error(`the generator's worker failed: ${e.message}`));
    pump();
  };
  slots.add(slot);
  return slot;
}

function settle(slot: Slot, reply: Reply) {
  const queued = slot.busy;
  slot.busy = null;
  slot.worker.unref();
  slot.idle = setTimeout(() => drop(slot), IDLE_MS);
  slot.idle.unref();
  pump();
  if (!queued) return;
  if ("issues" in reply) queued.done.reject(new ScenarioError(reply.issues));
  else if ("failed" in reply) queued.done.reject(new Error(reply.failed));
  else queued.done.resolve(reply);
}

function drop(slot: Slot) {
  slots.delete(slot);
  if (slot.idle) clearTimeout(slot.idle);
  void slot.worker.terminate();
}
