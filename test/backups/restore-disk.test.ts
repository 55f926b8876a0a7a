// `botloom restore` and the disk under DATA_DIR, as real processes: on a file system that fills up
// mid-restore it says the disk is full and changes nothing (it printed the raw ENOSPC error), and
// every restored file and rename is written to disk before the restore says it is done (seen with
// strace: a power cut right after must not leave the new names pointing at unwritten data).
// Mounting a small tmpfs needs root and tracing needs strace: where either is missing, that test
// skips and says why.
import { afterAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { closeDatabase, openDatabase } from "../../src/db/client";

const main = resolve(import.meta.dir, "../../src/main.ts");
const root = mkdtempSync(join(tmpdir(), "botloom-restore-disk-"));
const disk = join(root, "disk");
mkdirSync(disk);
const mounted = Bun.spawnSync(["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", disk], { stderr: "pipe" });
const canMount = mounted.exitCode === 0;
if (!canMount) console.log(`restore-disk.test.ts: the full-disk test is skipped: cannot mount a small tmpfs here (${mounted.stderr.toString().trim() || "not root"})`);
const strace = Bun.which("strace");
if (!strace) console.log("restore-disk.test.ts: the sync test is skipped: strace is not installed");

afterAll(() => {
  if (canMount) Bun.spawnSync(["umount", "-l", disk]);
  rmSync(root, { recursive: true, force: true });
});

const env = (dataDir: string) => ({ PATH: process.env.PATH ?? "", DATA_DIR: dataDir, LOG_LEVEL: "silent" });
function cli(dataDir: string, args: string[], prefix: string[] = []) {
  const p = Bun.spawnSync([...prefix, process.execPath, main, ...args], { env: env(dataDir), cwd: root });
  return { code: p.exitCode, out: p.stdout.toString(), err: p.stderr.toString() };
}
const sha = (file: string) => createHash("sha256").update(readFileSync(file)).digest("hex");

/** A backup archive holding a Botloom database and one project database of about `mb` MB (random, so it stays that large on disk). */
async function backupArchive(name: string, mb: number): Promise<string> {
  const platformPath = join(root, `${name}-botloom.db`);
  const platform = openDatabase(platformPath);
  platform.$client.exec("PRAGMA journal_mode = DELETE");
  closeDatabase(platform);
  const projectPath = join(root, `${name}-5.db`);
  const project = new Database(projectPath);
  project.exec("CREATE TABLE bot_users (id INTEGER PRIMARY KEY, blob BLOB)");
  for (let i = 0; i < mb * 4; i++) project.query("INSERT INTO bot_users (blob) VALUES (randomblob(250000))").run();
  project.close();
  const manifest = JSON.stringify({ format: "botloom-backup", formatVersion: 1, botloomVersion: "0", createdAt: "2026-01-01T00:00:00Z", projects: ["5.db"] });
  const path = join(root, `${name}.tar.gz`);
  await Bun.Archive.write(path, { "manifest.json": manifest, "botloom.db": readFileSync(platformPath), "projects/5.db": readFileSync(projectPath) }, { compress: "gzip" });
  return path;
}

describe("botloom restore and the disk", () => {
  test.skipIf(!canMount)("on a disk that fills up, it says so and leaves the current databases as they were", async () => {
    const archive = await backupArchive("big", 6);
    const dataDir = join(disk, "data");
    expect(cli(dataDir, ["pat", "create", "--user", "5"]).code).toBe(0);
    const before = sha(join(dataDir, "botloom.db"));
    const r = cli(dataDir, ["restore", archive]);
    expect(r.code).toBe(1);
    expect(r.err).toContain(`the disk holding ${dataDir} is full`);
    expect(r.err).toContain("nothing was changed");
    expect(r.err).not.toContain("    at ");
    expect(r.err).not.toContain("ENOSPC");
    expect(sha(join(dataDir, "botloom.db"))).toBe(before);
    expect(readdirSync(dataDir).filter((n) => n.startsWith("replaced-") || n.startsWith(".restore-"))).toEqual([]);
  }, 60_000);

  test.skipIf(!strace)("each restored database is on disk before its rename, and the renames before it says done", async () => {
    const archive = await backupArchive("small", 1);
    const dataDir = join(root, "traced");
    expect(cli(dataDir, ["pat", "create", "--user", "5"]).code).toBe(0);
    const log = join(root, "restore.strace");
    const r = cli(dataDir, ["restore", archive], [strace!, "-f", "-y", "-qq", "-e", "trace=fsync,fdatasync,rename,renameat,renameat2", "-o", log]);
    expect(r.code).toBe(0);
    const lines = readFileSync(log, "utf8").split("\n");
    const at = (re: RegExp) => lines.findIndex((l) => re.test(l));
    const lastAt = (re: RegExp) => lines.findLastIndex((l) => re.test(l));
    const q = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
    const d = q(dataDir);
    // The staged files are synced, then moved in place; the folders that got the new names are synced last.
    const platformSynced = at(new RegExp(`f(data)?sync\\(\\d+<${d}/\\.restore-[^/>]*/botloom\\.db>`));
    const projectSynced = at(new RegExp(`f(data)?sync\\(\\d+<${d}/\\.restore-[^/>]*/projects/5\\.db>`));
    const platformMoved = at(new RegExp(`rename\\w*\\(.*"${d}/\\.restore-[^"]*/botloom\\.db", .*"${d}/botloom\\.db"`));
    const projectsMoved = at(new RegExp(`rename\\w*\\(.*"${d}/\\.restore-[^"]*/projects", .*"${d}/projects"`));
    const dataDirSynced = lastAt(new RegExp(`f(data)?sync\\(\\d+<${d}>`));
    expect(platformSynced).toBeGreaterThan(-1);
    expect(projectSynced).toBeGreaterThan(-1);
    expect(platformMoved).toBeGreaterThan(platformSynced);
    expect(projectsMoved).toBeGreaterThan(projectSynced);
    expect(dataDirSynced).toBeGreaterThan(Math.max(platformMoved, projectsMoved));
  }, 60_000);
});
