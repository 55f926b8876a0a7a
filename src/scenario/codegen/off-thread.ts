// Generating a large scenario takes hundreds of milliseconds of CPU: on the server's event loop a
// few parallel `generate` calls stalled every other request (issue 29). Here it runs in a small pool
// of worker threads (worker.ts, src/lib/worker-pool.ts) with a queue in front: at most two programs
// are generated at once, and the event loop only hands over the stored text and receives the program.
import type { Issue } from "../validate";
import { ScenarioError } from "../../errors";
import { workerPool } from "../../lib/worker-pool";
import type { GeneratedBot, GenerateOptions } from "./index";
import { programCache } from "./program-cache";
export { fingerprintOf } from "./program-cache";
import { workerEntry } from "../../lib/worker-entry";

export interface Job {
  /** the scenario as JSON text (the stored text as it is: parsed in the worker, not on the event loop) */
  json: string;
  opts: GenerateOptions;
  /** how a limit problem names the document; absent for a document already checked */
  label?: string;
  /**
   * How the program comes back: `bot.code` (text, the default); `answer`: generate's whole answer,
   * plain and gzip-compressed (answer.ts); `bytes`: `codeBytes`, its UTF-8 bytes over a
   * SharedArrayBuffer (a preview's, handed on without a copy)
   */
  codeAs?: CodeForm;
}

export type CodeForm = "text" | "answer" | "bytes";

/** generate's answer as UTF-8 JSON, plain and gzip-compressed (answer.ts). */
export type AnswerBytes = { json: Uint8Array<ArrayBuffer>; gzip: Uint8Array<ArrayBuffer> };
/** The same as the bodies it is sent as: a Blob goes out as it is, with no copy per answer. */
export type AnswerBodies = { json: Blob; gzip: Blob };

/** A program as the worker sends it; unless it came as text, `bot.code` is empty and `answer` or `codeBytes` holds it. */
type WorkerGenerated = { bot: GeneratedBot; answer?: AnswerBytes; codeBytes?: Uint8Array<SharedArrayBuffer> };
/** A program as callers get it and the cache keeps it: the answer's bytes made into its bodies once, and not kept beside them. */
export type Generated = Omit<WorkerGenerated, "answer"> & { answer?: AnswerBodies };

type Failure = { issues: Issue[] } | { limit: string } | { unreadable: true } | { failed: string };
export type Reply = WorkerGenerated | Failure;

/** What a stored scenario gave: its program, or why there is none besides a ScenarioError. */
export type StoredGenerate = Generated | { limit: string } | { unreadable: true };

/** The bodies generate answers with, from the answer's bytes. */
export const answerBodies = (a: AnswerBytes): AnswerBodies => ({ json: new Blob([a.json], { type: "application/json" }), gzip: new Blob([a.gzip], { type: "application/json" }) });

/** A worker's reply as it is kept: an answer's bytes become its bodies. */
const kept = (r: Reply): Generated | Failure => ("answer" in r && r.answer ? { ...r, answer: answerBodies(r.answer) } : (r as Generated | Failure));

/** One core stays with the event loop; at most two generate at once (bench/health-under-load.ts); an idle worker ends after 30 s. */
const run = workerPool<Job, Reply>({ entry: workerEntry("generator"), idleMs: 30_000, name: "the generator's worker" });

/**
 * Programs of the last calls that named a `scope` (program-cache.ts): at most 16, 48 MB in all (a
 * 2,000-node scenario's program is about 0.75 MB).
 */
const programs = programCache<Generated | Failure>({ entries: 16, bytes: 48 * 1024 * 1024 }, (r) =>
  "bot" in r ? (r.answer?.json.size ?? 0) + (r.answer?.gzip.size ?? 0) + (r.codeBytes?.byteLength ?? 0) + r.bot.code.length * 2 : 0,
);

/**
 * Where a program may be kept: a `scope` (see program-cache.ts: who may read every source in it,
 * e.g. one project) and the source's `fingerprintOf`, made once with the stored text it stands for.
 */
export interface CacheAs {
  scope: string;
  fingerprint: string;
}

/** How a project's stored scenario, with its fingerprint, is cached. */
export const projectCache = (projectId: number, fingerprint: string): CacheAs => ({ scope: `project ${projectId}`, fingerprint });

/**
 * Generates the program of a stored scenario off the event loop. Throws ScenarioError when the
 * document is unusable, like generateBot; a document over the limits or not JSON at all is a result.
 * With `cache`, the same source and options answer the program generated before.
 */
export function generateStoredBot(json: string, opts: GenerateOptions, label: string, codeAs: CodeForm = "text", cache?: CacheAs): Promise<StoredGenerate> {
  return enqueue({ json, opts, label, codeAs }, cache);
}

/**
 * A preview's program off the event loop, as UTF-8 bytes over a SharedArrayBuffer (`codeBytes`),
 * for a document given as JSON text (stored text goes as it is, so the event loop neither parses
 * nor serialises a large scenario). `label` names a stored document whose limits the worker checks;
 * an unreadable or over-limit document is a result, as for generateStoredBot, and so is `cache`.
 */
export function generatePreviewProgram(json: string, opts: GenerateOptions, label?: string, cache?: CacheAs): Promise<StoredGenerate> {
  return enqueue({ json, opts, label, codeAs: "bytes" }, cache);
}

async function enqueue(job: Job, cache?: CacheAs): Promise<StoredGenerate> {
  const reply = cache === undefined
    ? kept(await run(job))
    : await programs.get(programs.keyOf(cache.scope, cache.fingerprint, [job.opts, job.label, job.codeAs]), () => run(job).then(kept), (r) => "bot" in r);
  if ("issues" in reply) throw new ScenarioError(reply.issues);
  if ("failed" in reply) throw new Error(reply.failed);
  return reply;
}
