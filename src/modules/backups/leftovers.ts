// Work that a backup or a restore keeps out of sight until it is whole — a staging folder with a
// copy of every database (bot tokens included), a half-written archive — is named for the process
// that writes it. A process killed with kill -9, by the OOM killer or by a power cut leaves it
// behind; whoever comes next removes what dead processes left, and never the work of one that runs.
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { processAlive } from "../../lib/pid-file";

/** The prefixes of the staging folders a backup (in DATA_DIR/backups) and a restore (in DATA_DIR) work in. */
export const BACKUP_STAGING = ".staging";
export const RESTORE_STAGING = ".restore";
/** A backup's archive being written: `<archive>.<pid>.partial`, or `<archive>.partial` as older versions named it. */
export const PARTIAL_ARCHIVE = /^botloom-[\d-]+\.tar\.gz\.(?:(\d+)\.)?partial$/;
/** The name of the archive `target` while this process writes it (PARTIAL_ARCHIVE matches it). */
export const partialOf = (target: string) => `${target}.${process.pid}.partial`;

/** What a staging folder's name looks like: `<prefix>-<pid>-<random>`, or `<prefix>-<random>` as older versions named it. */
export const stagingName = (prefix: string) => new RegExp(`^${prefix.replace(/[.]/g, "\\.")}-(?:(\\d+)-)?[A-Za-z0-9]+$`);

/** A private staging folder in `dir`, named for this process (the name `stagingName(prefix)` matches). */
export function makeStaging(dir: string, prefix: string): string {
  return mkdtempSync(join(dir, `${prefix}-${process.pid}-`));
}

/**
 * Removes the entries of `dir` that one of `names` matches (its first group: the writer's pid;
 * none in older names) unless their writer still runs. Returns the names removed.
 */
export function removeDeadLeftovers(dir: string, names: RegExp[]): string[] {
  if (!existsSync(dir)) return [];
  const removed: string[] = [];
  for (const name of readdirSync(dir)) {
    const m = names.map((re) => re.exec(name)).find((x) => x !== null);
    if (!m || (m[1] !== undefined && processAlive(Number(m[1])))) continue;
    rmSync(join(dir, name), { recursive: true, force: true });
    removed.push(name);
  }
  return removed;
}
