// A backup used to be built in memory: every database copy read whole, the archive assembled, then
// written, so a 150 MB project file cost the server some 400 MB more (docs/performance.md "Backups
// off the event loop"). Now the copies and the archive are made by the backup thread and written in
// chunks. The compiled server backs up a project file of about 160 MB; its peak RSS during the
// backup (VmHWM, reset just before) may rise by less than half the file. The archive then restores
// with the same binary, and the project file comes back as the archive holds it, every row intact.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { buildBinary, startProcessServer, type ProcessServer } from "../support/process";

const ADMIN_KEY = "backup-memory-admin-key-0123456789";
let binary: string;
let dir: string;
let server: ProcessServer | null = null;

beforeAll(async () => {
  binary = await buildBinary(resolve(import.meta.dir, "../.."));
  dir = mkdtempSync(join(tmpdir(), "botloom-backup-memory-"));
}, 120_000);

afterAll(async () => {
  await server?.stop("SIGKILL");
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const kib = (pid: number, key: "VmRSS" | "VmHWM") => Number(new RegExp(`${key}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, "utf8"))![1]) * 1024;
const sha = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

/** Every row of the big table, hashed in order: what a restore must bring back. */
function rowsHash(file: string): string {
  const db = new Database(file, { readonly: true });
  try {
    const h = createHash("sha256");
    for (const r of db.query("SELECT id, payload FROM big ORDER BY id").iterate() as Iterable<{ id: number; payload: Uint8Array }>) h.update(String(r.id)).update(r.payload);
    return h.digest("hex");
  } finally {
    db.close();
  }
}

test("a backup of a 160 MB project file raises the server's RSS by less than half of it, and restores exactly", async () => {
  const run = (args: string[]) => Bun.spawnSync([binary, ...args], { cwd: dir, env: { PATH: process.env.PATH ?? "", LOG_LEVEL: "silent" } });
  expect(run(["pat", "create", "--user", "5"]).exitCode).toBe(0);
  // 160,000 rows of 1,000 bytes, each different (its id and 64 random bytes), the rest zeros so
  // that gzip keeps the test short.
  mkdirSync(join(dir, "data", "projects"), { recursive: true, mode: 0o700 });
  const projectFile = join(dir, "data", "projects", "big.db");
  const big = new Database(projectFile);
  big.exec("PRAGMA journal_mode = WAL; CREATE TABLE big (id INTEGER PRIMARY KEY, payload BLOB)");
  const fill = big.query("INSERT INTO big (payload) SELECT randomblob(64) || zeroblob(936) FROM (WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 10000) SELECT x FROM c)");
  for (let i = 0; i < 16; i++) fill.run();
  big.exec("PRAGMA wal_checkpoint(TRUNCATE)");
  big.close();
  const size = statSync(projectFile).size;
  expect(size).toBeGreaterThan(150 * 1024 * 1024);
  const before = rowsHash(projectFile);

  server = await startProcessServer([binary, "serve"], { cwd: dir, env: { ADMIN_KEY, BACKUP_SCHEDULE: "off", LOG_LEVEL: "warn" } });
  const pid = server.proc.pid;
  const login = await fetch(`${server.url}/admin/api/login`, { method: "POST", body: new URLSearchParams({ key: ADMIN_KEY }), redirect: "manual" });
  const cookie = login.headers.getSetCookie()[0]!.split(";")[0]!;
  expect((await fetch(`${server.url}/admin/api/backups`, { headers: { cookie } })).status).toBe(200);
  // The peak is counted from here: "5" resets VmHWM to the current RSS (proc(5), clear_refs).
  writeFileSync(`/proc/${pid}/clear_refs`, "5");
  const rss = kib(pid, "VmRSS");
  const made = await fetch(`${server.url}/admin/api/backups`, { method: "POST", headers: { cookie } });
  expect(made.status).toBe(201);
  const peak = kib(pid, "VmHWM");
  const { name } = (await made.json()) as { name: string };
  expect({ rise: peak - rss < size / 2, riseMiB: Math.round((peak - rss) / 1048576), fileMiB: Math.round(size / 1048576) }).toMatchObject({ rise: true });

  // The download is the file, whole.
  const archive = join(dir, "data", "backups", name);
  const download = await fetch(`${server.url}/admin/api/backups/${name}`, { headers: { cookie } });
  expect(sha(new Uint8Array(await download.arrayBuffer()))).toBe(sha(readFileSync(archive)));
  expect(await server.stop()).toBe(0);
  server = null;

  // Another reader than the one restore uses: GNU tar, streaming.
  const unpacked = join(dir, "unpacked");
  mkdirSync(unpacked);
  expect(Bun.spawnSync(["tar", "-xzf", archive, "-C", unpacked]).exitCode).toBe(0);
  const restored = run(["restore", archive]);
  expect(restored.stderr.toString()).toBe("");
  expect(restored.exitCode).toBe(0);
  expect(sha(readFileSync(projectFile))).toBe(sha(readFileSync(join(unpacked, "projects", "big.db"))));
  expect(rowsHash(projectFile)).toBe(before);
}, 180_000);
