// The backup archive: one .tar.gz holding the platform database and every project database, each
// an online VACUUM INTO copy, plus a manifest that says what the archive is.
import type { Database } from "bun:sqlite";
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readdirSync, renameSync, rmSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { vacuumInto } from "../../db/backup";
import { BACKUP_STAGING, makeStaging, partialOf } from "./leftovers";
import { makePrivate, PRIVATE_DIR_MODE } from "../../lib/file-modes";
import { VERSION } from "../../version";

export const MANIFEST = "manifest.json";
export const PLATFORM_DB = "botloom.db";
export const FORMAT = "botloom-backup";
/** Project database file names inside DATA_DIR/projects and inside an archive's projects/. */
export const PROJECT_DB_NAME = /^[A-Za-z0-9_-]{1,100}\.db$/;

export interface Manifest {
  format: typeof FORMAT;
  formatVersion: 1;
  botloomVersion: string;
  createdAt: string;
  projects: string[];
}

export function projectDatabases(projectsDir: string): string[] {
  if (!existsSync(projectsDir)) return [];
  return readdirSync(projectsDir)
    .filter((f) => PROJECT_DB_NAME.test(f))
    .sort();
}

/**
 * Writes the archive to `target` (which must not exist): copies are staged in a private folder
 * beside it, archived into `<target>.<pid>.partial`, made 0600 and renamed, so a half-written archive
 * never carries the final name.
 */
export async function writeArchive(platform: Database, projectsDir: string, target: string, now = new Date()): Promise<Manifest> {
  if (existsSync(target)) throw new Error(`${target} already exists`);
  mkdirSync(dirname(target), { recursive: true, mode: PRIVATE_DIR_MODE });
  // Both names carry this process's pid (leftovers.ts): a later start removes them only once it is gone.
  const staging = makeStaging(dirname(target), BACKUP_STAGING);
  const partial = partialOf(target);
  try {
    vacuumInto(platform, join(staging, PLATFORM_DB));
    const projects: string[] = [];
    mkdirSync(join(staging, "projects"), { mode: PRIVATE_DIR_MODE });
    for (const name of projectDatabases(projectsDir)) {
      // A project deleted between the listing and the copy is simply not in this backup.
      if (!existsSync(join(projectsDir, name))) continue;
      vacuumInto(join(projectsDir, name), join(staging, "projects", name));
      projects.push(name);
    }
    const manifest: Manifest = { format: FORMAT, formatVersion: 1, botloomVersion: VERSION.version, createdAt: now.toISOString(), projects };
    // Bun.Archive takes contents, not file handles (a Bun.file is archived empty): the copies are
    // read into memory, which bounds a backup by the size of the databases.
    const read = async (p: string) => new Uint8Array(await Bun.file(p).arrayBuffer());
    const files: Record<string, Uint8Array | string> = {
      [MANIFEST]: JSON.stringify(manifest, null, 2) + "\n",
      [PLATFORM_DB]: await read(join(staging, PLATFORM_DB)),
    };
    for (const name of projects) files[`projects/${name}`] = await read(join(staging, "projects", name));
    await Bun.Archive.write(partial, files, { compress: "gzip" });
    makePrivate(partial);
    // On disk before it carries its final name: a crash right after must not leave a torn archive.
    const fd = openSync(partial, "r");
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(partial, target);
    return manifest;
  } finally {
    rmSync(staging, { recursive: true, force: true });
    rmSync(partial, { force: true });
  }
}

export interface ArchiveContents {
  manifest: Manifest | null;
  platform: Uint8Array;
  projects: Map<string, Uint8Array>;
}

/**
 * Reads an archive into memory and keeps only the entries a backup may hold, so a hostile
 * archive (`../` paths, links, unexpected files) can never write outside the restore folder.
 */
export async function readArchive(bytes: Uint8Array): Promise<ArchiveContents | string> {
  let entries: Map<string, File>;
  try {
    entries = await new Bun.Archive(bytes).files();
  } catch {
    return "it is not a Botloom backup archive";
  }
  let manifest: Manifest | null = null;
  let platform: Uint8Array | null = null;
  const projects = new Map<string, Uint8Array>();
  for (const [path, file] of entries) {
    if (path === MANIFEST) {
      try {
        const m = JSON.parse(await file.text());
        if (m && m.format === FORMAT) manifest = m as Manifest;
      } catch {}
    } else if (path === PLATFORM_DB) {
      platform = new Uint8Array(await file.arrayBuffer());
    } else if (path.startsWith("projects/") && PROJECT_DB_NAME.test(path.slice("projects/".length)) && basename(path) === path.slice("projects/".length)) {
      projects.set(path.slice("projects/".length), new Uint8Array(await file.arrayBuffer()));
    }
  }
  if (!manifest || !platform) return "it is not a Botloom backup archive (no manifest or no botloom.db)";
  return { manifest, platform, projects };
}
