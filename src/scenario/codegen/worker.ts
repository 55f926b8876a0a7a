// The generator's worker thread (off-thread.ts): reads a stored scenario and generates its program
// away from the server's event loop. Also an entry point of the compiled executable (scripts/build.ts).
import { setPriority } from "node:os";
import { scenarioLimitProblem } from "../../lib/json-limits";
import { ScenarioError } from "../../errors";
import { generateBot } from "./index";
import type { Job, Reply } from "./off-thread";

declare const self: Worker;

// Niced, this thread only (on Linux a thread has a priority of its own): when the cores are busy
// the event loop, which answers every request, gets them first (bench/health-under-load.ts).
const NICE = 10;
try {
  setPriority(0, NICE);
} catch {
  // not allowed here: the thread runs at the server's priority
}

function run(job: Job): Reply {
  let doc: unknown;
  try {
    doc = JSON.parse(job.json);
  } catch {
    return { unreadable: true };
  }
  const limit = job.label === undefined ? null : scenarioLimitProblem(doc, job.label);
  if (limit) return { limit };
  try {
    return { bot: generateBot(doc, job.opts) };
  } catch (err) {
    if (err instanceof ScenarioError) return { issues: err.issues };
    return { failed: err instanceof Error ? (err.stack ?? err.message) : String(err) };
  }
}

self.onmessage = (e: MessageEvent<Job>) => self.postMessage(run(e.data));
