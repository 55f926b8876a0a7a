// Runtime source: the end of a bot hosted by a shared runner (src/bots/runner/). The runner's
// interpreter module wraps the runtime in createBot(tables, host); this part comes last in that
// function: stopping ends this one bot (never the runner). program.ts then returns the handle the
// runner drives (startHosted, shutdown), which a module cannot do at its top level.
// (Part of the runners' interpreter only; see types.ts.)
import { launch, release } from "./launch";
import { bot } from "./router";

// launch.ts's flag, which this part sets: in the interpreter the parts share one scope, and an
// imported binding could not be assigned.
declare let stopping: boolean;

// ─── Hosted by a runner: start and stop of this one bot ────────────────────────

/**
 * Set once polling has ended. Work a stopped bot left behind (a broadcast, a loop between its
 * delays, an http_request answer arriving late) shares the runner with other bots and would go on
 * calling the messenger: it is refused instead — from the moment the stop begins, but for the
 * getUpdates that confirms the offset (the runner may report the bot ended while that waits).
 */
export let halted = false;
bot.api.config.use((prev, method, payload, signal) =>
  halted || (stopping && method !== "getUpdates") ? Promise.reject(new Error("the bot was stopped")) : prev(method, payload, signal),
);

export async function shutdown(reason: string, code = 0) {
  if (stopping) return;
  stopping = true;
  console.log("stopping: " + reason);
  await release();
  halted = true;
  process.exit(code);
}

/** A start that fails half-way (its port taken, its token refused) ends what it began: schedules, database. */
export async function startHosted() {
  try {
    await launch();
  } catch (err) {
    stopping = true;
    await release();
    halted = true;
    throw err;
  }
}
