// The generator's worker thread (off-thread.ts): reads a stored scenario and generates its program
// away from the server's event loop. Also an entry point of the compiled executable (scripts/build.ts).
import { scenarioLimitProblem } from "../../lib/json-limits";
import { ScenarioError } from "../../errors";
import { generateBot } from "./index";
import type { Job, Reply } from "./off-thread";
import { transferable } from "./transfer";
import { answerOf } from "./answer";
import { enterBackground } from "../../lib/priority";

declare const self: Worker;

// Niced, this thread only (on Linux a thread has a priority of its own): when the cores are busy
// the event loop, which answers every request, gets them first (bench/health-under-load.ts).
enterBackground();

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
    const bot = generateBot(doc, job.opts);
    if (job.codeAs === "bytes") {
      // a preview's: the event loop hands these bytes on to the preview thread without a copy (preview/host.ts)
      const utf8 = new TextEncoder().encode(bot.code);
      const codeBytes = new Uint8Array(new SharedArrayBuffer(utf8.byteLength));
      codeBytes.set(utf8);
      return { bot: { ...bot, code: "" }, codeBytes };
    }
    if (job.codeAs !== "answer") return { bot };
    // Serialised and compressed here, not on the event loop: a large program's JSON escaping took
    // milliseconds there per answer, which every other request waited for (docs/performance.md).
    return { bot: { ...bot, code: "" }, answer: answerOf(bot, Date.now()) };
  } catch (err) {
    if (err instanceof ScenarioError) return { issues: err.issues };
    return { failed: err instanceof Error ? (err.stack ?? err.message) : String(err) };
  }
}

self.onmessage = (e: MessageEvent<Job>) => {
  const reply = run(e.data);
  self.postMessage(reply, "answer" in reply && reply.answer ? [...transferable(reply.answer.json), ...transferable(reply.answer.gzip)] : []);
};
