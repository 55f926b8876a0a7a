// A closed project file is closed at once: no descriptor of it, its WAL or its shared memory stays
// open in the server after close(), remove() or the eviction of the oldest connection, even with
// statements still prepared on the connection (SQLite's close_v2 would leave a "zombie" until they
// are collected; a removed file's disk space comes back only when its last descriptor goes).
import { afterEach, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, readlinkSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ProjectDatabases } from "../../src/db/project-db";
import { projectBotUsers } from "../../src/db/project-schema";

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

/** This process's descriptors open on `path` or its -wal/-shm files (removed ones included). */
const openOn = (path: string) =>
  readdirSync("/proc/self/fd").filter((fd) => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`).startsWith(path);
    } catch {
      return false;
    }
  }).length;

/** Opens the project's file and leaves statements prepared on it, as the server's reads do. */
function used(files: ProjectDatabases, projectId: number) {
  const db = files.open(projectId);
  db.select().from(projectBotUsers).all();
  db.$client.prepare("SELECT count(*) FROM bot_state").get();
  expect(openOn(files.pathOf(projectId))).toBeGreaterThan(0);
}

test.each([
  ["close", (files: ProjectDatabases) => files.close(1)],
  ["remove", (files: ProjectDatabases) => files.remove(1)],
  ["closeAll", (files: ProjectDatabases) => files.closeAll()],
])("%s leaves no descriptor of the file open", (_name, end) => {
  dir = mkdtempSync(join(tmpdir(), "botloom-close-"));
  const files = new ProjectDatabases(dir);
  used(files, 1);
  end(files);
  expect(openOn(files.pathOf(1))).toBe(0);
});

test("the oldest connection, evicted when too many are open, leaves no descriptor open", () => {
  dir = mkdtempSync(join(tmpdir(), "botloom-close-"));
  const files = new ProjectDatabases(dir);
  used(files, 1);
  // opened one after another until the first is evicted (128 are kept: src/db/project-db.ts)
  for (let id = 2; openOn(files.pathOf(1)) > 0 && id < 300; id++) files.open(id);
  expect(openOn(files.pathOf(1))).toBe(0);
  files.closeAll();
});
