// The backup archive: one .tar.gz holding the platform database and every project database, each
// an online VACUUM INTO copy, plus a manifest that says what the archive is. Written by the backup
// thread (archive-build.ts), read by restore (archive-unpack.ts).
import type { Database } from "bun:sqlite";
import { existsSync, mkdirSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { vacuumInto } from "../../db/vacuum-into";
import { BACKUP_STAGING, makeStaging, partialOf } from "./leftovers";
import { PRIVATE_DIR_MODE } from "../../lib/file-modes";
import { backgroundThread } from "../../lib/priority";
import { serverThread } from "../../lib/server-thread";
import type { ArchiveJob, FromBackupThread } from "./archive-build";
import { PLATFORM_DB, type Manifest } from "./archive-format";
import { VERSION } from "../../version";

/**
 * Writes the archive to `target` (which must not exist): copies are staged in a private folder
 * beside it, archived into `<target>.<pid>.partial`, made 0600 and renamed, so a half-written archive
 * never carries the final name. All of it runs in a thread of its own (archive-build.ts): on the
 * event loop, a 150 MB project file held it for the length of its copy, and the archive, built in
 * memory, cost the server as much memory again (docs/performance.md "Backups off the event loop").
 */
export async function writeArchive(platform: Database, projectsDir: string, target: string, now = new Date()): Promise<Manifest> {
  if (existsSync(target)) throw new Error(`${target} already exists`);
  mkdirSync(dirname(target), { recursive: true, mode: PRIVATE_DIR_MODE });
  // Both names carry this process's pid (leftovers.ts): a later start removes them only once it is gone.
  const staging = makeStaging(dirname(target), BACKUP_STAGING);
  const partial = partialOf(target);
  try {
    // An in-memory database (tests) exists only on its connection: copied here, it is small.
    const inMemory = platform.filename === "" || platform.filename === ":memory:";
    if (inMemory) vacuumInto(platform, join(staging, PLATFORM_DB));
    return await inBackupThread({
      staging,
      platformPath: inMemory ? null : platform.filename,
      projectsDir,
      partial,
      target,
      createdAt: now.toISOString(),
      botloomVersion: VERSION.version,
    });
  } finally {
    rmSync(staging, { recursive: true, force: true });
    rmSync(partial, { force: true });
  }
}

function inBackupThread(job: ArchiveJob): Promise<Manifest> {
  const done = Promise.withResolvers<Manifest>();
  const thread = serverThread<ArchiveJob, FromBackupThread>(
    "backupWriter",
    backgroundThread(),
    (m) => {
      if (m.ok) return done.resolve(m.manifest);
      // The failure as it happened, so a full disk is still named as such (src/http/errors.ts).
      done.reject(Object.assign(new Error(m.message), m.code ? { code: m.code } : {}));
    },
    (why) => done.reject(new Error(`the backup thread failed: ${why}`)),
  );
  // Held while it works: `botloom backup` has nothing else keeping its process alive.
  thread.ref();
  thread.post(job);
  return done.promise.finally(() => thread.end());
}
