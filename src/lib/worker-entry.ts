// The server's worker threads, named once. Each is an entry point of the compiled executable of its
// own (scripts/build.ts reads this table): there `new Worker(...)` finds a thread's code only under
// its path from src/, the build's root, while from source it is the file itself.

export const WORKER_ENTRIES = {
  /** generating programs (scenario/codegen/off-thread.ts) */
  generator: "scenario/codegen/worker.ts",
  /** the Tables reads and imports (modules/tables/reads.ts) */
  tablesReader: "modules/tables/read-worker.ts",
  /** the campaign sender (modules/campaigns/send-thread.ts) */
  campaignSender: "modules/campaigns/send-worker.ts",
  /** the preview bots' processes (bots/spawn-thread.ts) */
  spawner: "bots/spawn-worker.ts",
  /** the previews' emulators and folders (modules/preview/host.ts) */
  previewHost: "modules/preview/host-worker.ts",
  /** the platform database's checkpoints (db/checkpointer.ts) */
  checkpointer: "db/checkpoint-worker.ts",
  /** the bots' log lines (bots/log-thread.ts) */
  logWriter: "bots/log-worker.ts",
  /** a backup's copies and archive (modules/backups/archive.ts) */
  backupWriter: "modules/backups/archive-worker.ts",
} as const;

export type WorkerName = keyof typeof WORKER_ENTRIES;

/** src/, from this file's place in it */
const SRC = new URL("../", import.meta.url);

/** What `new Worker` is given for the thread `name`, in the executable and from source alike. */
export function workerEntry(name: WorkerName): string {
  const path = WORKER_ENTRIES[name];
  return import.meta.url.includes("/$bunfs/") ? `./${path}` : new URL(path, SRC).href;
}
