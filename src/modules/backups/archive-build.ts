// The work of a backup, done in the backup thread (archive-worker.ts) so that the event loop keeps
// answering: each database copied online into the staging folder, then the archive written from
// those copies through gzip to its file, one chunk at a time — never the whole archive in memory.
import { createWriteStream, mkdirSync, renameSync, statSync, existsSync, rmSync } from "node:fs";
import { syncToDisk } from "../../lib/durable";
import { join } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGzip } from "node:zlib";
import { vacuumInto } from "../../db/vacuum-into";
import { makePrivate, PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from "../../lib/file-modes";
import { FORMAT, MANIFEST, PLATFORM_DB, projectDatabases, type Manifest } from "./archive-format";
import { tarStream, type TarEntry } from "./tar";

export interface ArchiveJob {
  /** the private folder the copies go to (made by the caller, removed by both) */
  staging: string;
  /** the platform database to copy; null when the caller has copied it into `staging` already */
  platformPath: string | null;
  projectsDir: string;
  /** written first, renamed to `target` once whole and on disk */
  partial: string;
  target: string;
  createdAt: string;
  botloomVersion: string;
}

/** What the backup thread answers: the manifest, or the failure's message and code (ENOSPC, SQLITE_FULL: src/http/errors.ts tells the admin). */
export type FromBackupThread = { ok: true; manifest: Manifest } | { ok: false; message: string; code?: string };

export async function buildArchive(job: ArchiveJob): Promise<Manifest> {
  try {
    if (job.platformPath !== null) vacuumInto(job.platformPath, join(job.staging, PLATFORM_DB));
    const projects: string[] = [];
    mkdirSync(join(job.staging, "projects"), { mode: PRIVATE_DIR_MODE });
    for (const name of projectDatabases(job.projectsDir)) {
      // A project deleted between the listing and the copy is simply not in this backup.
      if (!existsSync(join(job.projectsDir, name))) continue;
      vacuumInto(join(job.projectsDir, name), join(job.staging, "projects", name));
      projects.push(name);
    }
    const manifest: Manifest = { format: FORMAT, formatVersion: 1, botloomVersion: job.botloomVersion, createdAt: job.createdAt, projects };
    const file = (name: string, path: string): TarEntry => ({ name, path, size: statSync(path).size });
    const entries: TarEntry[] = [
      { name: MANIFEST, text: JSON.stringify(manifest, null, 2) + "\n" },
      file(PLATFORM_DB, join(job.staging, PLATFORM_DB)),
      ...projects.map((name) => file(`projects/${name}`, join(job.staging, "projects", name))),
    ];
    const mtime = Math.floor(Date.parse(job.createdAt) / 1000);
    await pipeline(Readable.from(tarStream(entries, mtime)), createGzip(), createWriteStream(job.partial, { flags: "wx", mode: PRIVATE_FILE_MODE }));
    makePrivate(job.partial);
    // On disk before it carries its final name: a crash right after must not leave a torn archive.
    syncToDisk(job.partial);
    renameSync(job.partial, job.target);
    return manifest;
  } finally {
    rmSync(job.staging, { recursive: true, force: true });
    rmSync(job.partial, { force: true });
  }
}
