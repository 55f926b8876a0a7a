// For the type checker only: the pool writes the runtime's outbox text in this file's place beside
// the runner's main.ts (runner-pool.ts writeRunnerFiles), so the runner imports the one batching
// the bot programs use (src/scenario/codegen/runtime/outbox.ts).
export * from "../../scenario/codegen/runtime/outbox";
