// DATA_DIR/botloom.pid: written by a running server so that a refusal (a second `serve`, `restore`)
// can name it. Whether a server runs is the lock's to say (src/db/instance-lock.ts): a file left by
// a killed server may name a pid that another process has since been given.
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PRIVATE_FILE_MODE } from "./file-modes";

const file = (dataDir: string) => join(dataDir, "botloom.pid");

export function writePidFile(dataDir: string) {
  writeFileSync(file(dataDir), `${process.pid}\n`, { mode: PRIVATE_FILE_MODE });
}

export function removePidFile(dataDir: string) {
  try {
    if (readFileSync(file(dataDir), "utf8").trim() === String(process.pid)) rmSync(file(dataDir), { force: true });
  } catch {}
}

/** The pid of a server running on this DATA_DIR, or null. */
export function runningServerPid(dataDir: string): number | null {
  let pid: number;
  try {
    pid = Number(readFileSync(file(dataDir), "utf8").trim());
  } catch {
    return null;
  }
  if (!Number.isSafeInteger(pid) || pid <= 0 || pid === process.pid) return null;
  return processAlive(pid) ? pid : null;
}

/** Whether a process of this pid runs (this one included). */
export function processAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: the process exists but belongs to another account — it still runs.
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}
