// One server per DATA_DIR. Two servers on the same folder each resumed the same bots (two pollers
// per token) and each wrote and removed the pid file, so `restore` could replace the databases
// under the one still running (test/e2e/start-loading.test.ts). The lock is SQLite's own exclusive
// lock on a file of its own, held by an open transaction: the operating system releases it when
// the process ends in any way (kill -9, power loss), so a lock is never stale, unlike a pid file.
import { Database } from "bun:sqlite";
import { join } from "node:path";
import { createPrivateFile } from "../lib/file-modes";

/** Held for the life of the process (a collected connection would release the lock). */
const held: { release(): void }[] = [];

/**
 * Takes DATA_DIR's lock until `release()`; null when another process holds it. The folder must
 * exist. `restore` holds it while it swaps the databases, so no server starts on them meanwhile.
 */
export function tryLockDataDir(dataDir: string): { release(): void } | null {
  const file = join(dataDir, "botloom.lock");
  createPrivateFile(file);
  const db = new Database(file);
  try {
    db.exec("BEGIN EXCLUSIVE");
  } catch {
    db.close();
    return null;
  }
  return { release: () => db.close() };
}

/** Takes DATA_DIR's lock for the life of the process; false when another process holds it. */
export function lockDataDir(dataDir: string): boolean {
  const lock = tryLockDataDir(dataDir);
  if (lock) held.push(lock);
  return lock !== null;
}
