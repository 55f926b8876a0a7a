// What a backup archive is (docs/cli.md "backup [FILE]"): its entries' names and its manifest.
// Shared by the backup thread (archive-build.ts), the server's side (archive.ts, which starts that
// thread) and restore (archive-unpack.ts), so the thread loads only what it uses.
import { existsSync, readdirSync } from "node:fs";

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
