// `botloom restore FILE`: puts a backup in place of the current databases while the server is
// stopped. Everything is checked in a staging folder first; the replaced files are kept aside.
import { createReadStream, createWriteStream, existsSync, mkdirSync, renameSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { pipeline } from "node:stream/promises";
import type { Config } from "../../config";
import { checkPlatformDatabase, checkProjectDatabase, isSqliteFile } from "../../db/backup";
import { makePrivate, PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from "../../lib/file-modes";
import { syncToDisk } from "../../lib/durable";
import { isDiskFull } from "../../errors";
import { runningServerPid } from "../../lib/pid-file";
import { tryLockDataDir } from "../../db/instance-lock";
import { unpackArchive } from "./archive-unpack";
import { PLATFORM_DB } from "./archive-format";
import { stampOf } from "./service";
import { makeStaging, removeDeadLeftovers, RESTORE_STAGING, stagingName } from "./leftovers";

export class RestoreError extends Error {}

export interface RestoreResult {
  /** Where the databases that were replaced now lie (null when there were none). */
  replacedDir: string | null;
  projects: number;
  /** A plain database file (an older `botloom backup` or install.sh's pre-upgrade copy) carries no project databases. */
  plainDatabase: boolean;
}

type RestoreConfig = Pick<Config, "dataDir" | "databasePath" | "projectsDir">;

export async function restoreBackup(config: RestoreConfig, file: string): Promise<RestoreResult> {
  if (!existsSync(file)) throw new RestoreError(`no such file: ${file}`);
  mkdirSync(config.dataDir, { recursive: true, mode: PRIVATE_DIR_MODE });
  // The server's lock says whether one runs, not the pid file: that file outlives a server killed
  // by kill -9, the OOM killer or a power cut, and its pid, reused by any other process, refused
  // the restore; and a server whose pid file was gone had its databases replaced under it.
  const lock = tryLockDataDir(config.dataDir);
  if (!lock) {
    const pid = runningServerPid(config.dataDir);
    throw new RestoreError(`a Botloom server${pid !== null ? ` (pid ${pid})` : ""} is running on ${config.dataDir}: stop it first (for example: sudo systemctl stop botloom)`);
  }
  // What a restore killed mid-way left (lock held: no other restore, no server runs here now).
  removeDeadLeftovers(config.dataDir, [stagingName(RESTORE_STAGING)]);
  const staging = makeStaging(config.dataDir, RESTORE_STAGING);
  let moved = false;
  try {
    const plainDatabase = isSqliteFile(file);
    const stagedProjects = join(staging, "projects");
    let projects: string[] = [];
    // Both stream from the file to the staging folder: a restore needs no memory the size of a database.
    if (plainDatabase) {
      await pipeline(createReadStream(file), createWriteStream(join(staging, PLATFORM_DB), { flags: "wx", mode: PRIVATE_FILE_MODE }));
    } else {
      const unpacked = await unpackArchive(file, staging);
      if (typeof unpacked === "string") throw new RestoreError(`${file} cannot be restored: ${unpacked}`);
      projects = unpacked.projects;
    }
    const platform = checkPlatformDatabase(join(staging, PLATFORM_DB));
    if (!platform.ok) throw new RestoreError(`${file} cannot be restored: ${platform.reason}`);
    for (const name of projects) {
      const check = checkProjectDatabase(join(stagedProjects, name));
      if (!check.ok) throw new RestoreError(`${file} cannot be restored: projects/${name}: ${check.reason}`);
    }
    // Every restored byte on disk before any rename puts it in place (src/lib/durable.ts).
    syncToDisk(join(staging, PLATFORM_DB));
    for (const name of projects) syncToDisk(join(stagedProjects, name));
    if (!plainDatabase) syncToDisk(stagedProjects);

    // Set the current databases aside (the WAL and SHM go with their database, so the pair stays whole).
    let replacedDir = join(config.dataDir, `replaced-${stampOf(new Date())}`);
    for (let i = 2; existsSync(replacedDir); i++) replacedDir = join(config.dataDir, `replaced-${stampOf(new Date())}-${i}`);
    const aside: [string, string][] = [];
    for (const suffix of ["", "-wal", "-shm"]) {
      const p = config.databasePath + suffix;
      if (existsSync(p)) aside.push([p, join(replacedDir, PLATFORM_DB + suffix)]);
    }
    // The restored state is the backup's: current project databases go aside too. (A plain database
    // from before project databases existed carries their rows; the server moves them out on start.)
    if (existsSync(config.projectsDir)) aside.push([config.projectsDir, join(replacedDir, "projects")]);
    moved = true;
    if (aside.length) {
      mkdirSync(replacedDir, { mode: PRIVATE_DIR_MODE });
      for (const [from, to] of aside) renameSync(from, to);
    }
    renameSync(join(staging, PLATFORM_DB), config.databasePath);
    makePrivate(config.databasePath);
    if (!plainDatabase) renameSync(stagedProjects, config.projectsDir);
    for (const dir of new Set([dirname(config.databasePath), dirname(config.projectsDir), ...(aside.length ? [replacedDir] : [])])) syncToDisk(dir);
    return { replacedDir: aside.length ? replacedDir : null, projects: projects.length, plainDatabase };
  } catch (e) {
    // The staging folder filled the disk before anything was moved: the current data stays.
    if (isDiskFull(e) && !moved) throw new RestoreError(`the disk holding ${config.dataDir} is full: ${file} needs room for its databases beside the current ones while it is checked; nothing was changed. Free some space and run the restore again`);
    throw e;
  } finally {
    rmSync(staging, { recursive: true, force: true });
    lock.release();
  }
}

