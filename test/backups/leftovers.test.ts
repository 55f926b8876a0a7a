// A backup interrupted by kill -9, the OOM killer or a power cut leaves its staging folder (a copy of
// every database, bot tokens included) and its half-written archive in DATA_DIR/backups, where no
// listing shows them and BACKUP_KEEP never pruned them. The next start of the compiled server
// removes them, and only them: a running `botloom backup`'s work, archives and other files stay.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { buildBinary, startProcessServer, until, type ProcessServer } from "../support/process";

const ADMIN_KEY = "leftovers-admin-key-0123456789";
let binary: string;
let dir: string;
let server: ProcessServer | null = null;

beforeAll(async () => {
  binary = await buildBinary(resolve(import.meta.dir, "../.."));
  dir = mkdtempSync(join(tmpdir(), "botloom-leftovers-"));
}, 120_000);

afterAll(async () => {
  await server?.stop("SIGKILL");
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test("the next start removes an interrupted backup's staging folder and partial archive, nothing else", async () => {
  const backups = join(dir, "data", "backups");
  mkdirSync(backups, { recursive: true, mode: 0o700 });
  /** No process has this pid (above Linux's pid_max). */
  const dead = 2_147_483_646;
  const staged = (name: string) => {
    mkdirSync(join(backups, name, "projects"), { recursive: true });
    writeFileSync(join(backups, name, "botloom.db"), "a copy of the platform database");
  };
  const leftovers = [`.staging-${dead}-Ab12Cd`, ".staging-Xy34Zw", `botloom-20260101-030000.tar.gz.${dead}.partial`, "botloom-20260102-030000.tar.gz.partial"];
  staged(leftovers[0]!);
  staged(leftovers[1]!);
  writeFileSync(join(backups, leftovers[2]!), "half an archive");
  writeFileSync(join(backups, leftovers[3]!), "half an archive");
  // This test process stands in for a `botloom backup` still running.
  const running = [`.staging-${process.pid}-Ef56Gh`, `botloom-20260103-030000.tar.gz.${process.pid}.partial`];
  staged(running[0]!);
  writeFileSync(join(backups, running[1]!), "an archive being written");
  const kept = ["botloom-20260101-020000.tar.gz", "notes.txt"];
  for (const name of kept) writeFileSync(join(backups, name), "kept");

  server = await startProcessServer([binary, "serve"], { cwd: dir, env: { ADMIN_KEY, LOG_LEVEL: "info" } });
  // The log line comes after the removal (waiting for the files to go, the line could still be in the pipe).
  await until(() => server!.output().includes(`backups: removed what 4 interrupted backup(s) left behind`), "the removal logged");
  expect(readdirSync(backups).sort()).toEqual([...running, ...kept].sort());
  expect(await server.stop()).toBe(0);
  server = null;
}, 60_000);

// A restore unpacks the backup (every database, bot tokens included) into a staging folder in
// DATA_DIR. Killed mid-way, it left that folder there for good: the next restore and the next start
// now remove the folders of dead processes. Killed mid-way for real and deterministically: the
// restore reads its file from a named pipe that nobody writes, so it waits, staging folder made,
// until the test kills it.
test("a restore killed mid-way leaves its staging folder; the next restore and the next start remove it, never a live process's", async () => {
  const root = join(dir, "restores");
  const data = join(root, "data");
  mkdirSync(root, { recursive: true });
  const run = (args: string[]) => {
    const p = Bun.spawnSync([binary, ...args], { cwd: root, env: { PATH: process.env.PATH ?? "", LOG_LEVEL: "silent" } });
    return { code: p.exitCode, out: p.stdout.toString(), err: p.stderr.toString() };
  };
  expect(run(["pat", "create", "--user", "5"]).code).toBe(0);
  const archive = join(root, "good.tar.gz");
  expect(run(["backup", archive]).code).toBe(0);
  const pipe = join(root, "never-written.tar.gz");
  expect(Bun.spawnSync(["mkfifo", pipe]).exitCode).toBe(0);
  const staged = () => readdirSync(data).filter((n) => n.startsWith(".restore-"));

  /** A restore killed once its staging folder exists; that folder's name. */
  async function killedRestore(): Promise<string> {
    const before = new Set(staged());
    const proc = Bun.spawn([binary, "restore", pipe], { cwd: root, env: { PATH: process.env.PATH ?? "", LOG_LEVEL: "silent" }, stdout: "ignore", stderr: "ignore" });
    try {
      const name = await until(() => staged().find((n) => !before.has(n)), "the restore's staging folder");
      proc.kill("SIGKILL");
      expect(await proc.exited).not.toBe(0);
      return name;
    } finally {
      proc.kill("SIGKILL");
    }
  }

  const first = await killedRestore();
  expect(existsSync(join(data, first))).toBe(true);
  // An older version's name (no pid), and one of a live process (this test stands in for it).
  const older = ".restore-Qw12Er";
  const live = `.restore-${process.pid}-Zx90Yu`;
  for (const name of [older, live]) mkdirSync(join(data, name, "projects"), { recursive: true });

  const next = run(["restore", archive]);
  expect({ code: next.code, err: next.err }).toEqual({ code: 0, err: "" });
  expect({ after: "the next restore", staged: staged().sort() }).toEqual({ after: "the next restore", staged: [live] });

  const second = await killedRestore();
  server = await startProcessServer([binary, "serve"], { cwd: root, env: { ADMIN_KEY, LOG_LEVEL: "info" } });
  // The log line comes after the removal: waiting for the folder to go and then reading the
  // output could miss a line still in the pipe.
  await until(() => server!.output().includes(`restore: removed what 1 interrupted restore(s) left behind: ${second}`), "the removal logged");
  expect({ after: "the next start", staged: staged() }).toEqual({ after: "the next start", staged: [live] });
  expect(await server.stop()).toBe(0);
  server = null;
}, 90_000);
