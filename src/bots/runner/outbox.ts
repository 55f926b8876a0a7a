// For the type checker only: the pool writes the runtime's outbox text in this file's place beside
// the runner's main.ts (runner-pool.ts writeRunnerFiles, RUNNER_OUTBOX_MODULE), so the runner uses
// the one batching the bot programs use (src/scenario/codegen/runtime/outbox.ts). Types only: a
// file the executable embeds as text is never also one of its modules (test/foundation/text-embeds).
import type { createOutbox as CreateOutbox } from "../../scenario/codegen/runtime/outbox";

export declare const createOutbox: typeof CreateOutbox;
