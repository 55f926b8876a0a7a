// A restore used to read the whole archive into memory and unpack every database there, so a
// backup holding a 200 MB project file needed some 400 MB more to restore: on a 1 GB server it could
// not be restored. Now the archive streams from its file through gunzip and the tar reader, each
// entry written to disk as it arrives (docs/cli.md "restore FILE"); a plain database file is copied
// in chunks too. `botloom restore` restores an archive holding a project file of 200 MiB, and a
// plain platform database of 200 MiB: the process's peak RSS (its own VmHWM) may rise by less than
// a quarter of that over a restore of the same with a small file, and the file comes back byte for
// byte.
import { afterAll, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { createHash } from "node:crypto";
import { createReadStream, createWriteStream, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGzip } from "node:zlib";
import { closeDatabase, openDatabase } from "../../src/db/client";
import { tarStream } from "../../src/modules/backups/tar";

const main = resolve(import.meta.dir, "../../src/main.ts");
const peakRss = resolve(import.meta.dir, "../support/peak-rss.ts");
const root = mkdtempSync(join(tmpdir(), "botloom-restore-memory-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const MiB = 1024 * 1024;

/** A file's hash, read in chunks: reading it whole here would grow this process, not the restore. */
async function sha(file: string): Promise<string> {
  const h = createHash("sha256");
  for await (const chunk of createReadStream(file)) h.update(chunk as Buffer);
  return h.digest("hex");
}

/** About `mib` MiB more in the database `path` (made if missing): rows of 1 MiB, each with its own random head, the rest zeros (gzip keeps the test short). */
function addRows(path: string, mib: number) {
  const db = new Database(path);
  db.exec("PRAGMA journal_mode = DELETE; CREATE TABLE big (id INTEGER PRIMARY KEY, payload BLOB)");
  db.query(`INSERT INTO big (payload) SELECT randomblob(64) || zeroblob(${MiB - 64}) FROM (WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < ?) SELECT x FROM c)`).run(mib);
  db.close();
}

/** An archive as a backup writes it (the same tar writer and gzip), holding `project` as projects/7.db. */
async function archive(name: string, platform: string, project: string): Promise<string> {
  const path = join(root, name);
  const manifest = { format: "botloom-backup", formatVersion: 1, botloomVersion: "0", createdAt: "2026-01-01T00:00:00Z", projects: ["7.db"] };
  const entries = [
    { name: "manifest.json", text: JSON.stringify(manifest) },
    { name: "botloom.db", path: platform, size: statSync(platform).size },
    { name: "projects/7.db", path: project, size: statSync(project).size },
  ];
  await pipeline(Readable.from(tarStream(entries, 0)), createGzip(), createWriteStream(path));
  return path;
}

/** `botloom restore` into a fresh DATA_DIR: its peak RSS and the hash of the file it restored to `restored` (in DATA_DIR). */
async function restore(file: string, restored: string) {
  const dataDir = join(root, `data-${Math.random().toString(36).slice(2)}`);
  const peakFile = `${dataDir}.peak`;
  const p = Bun.spawnSync([process.execPath, "--preload", peakRss, main, "restore", file], { env: { PATH: process.env.PATH ?? "", DATA_DIR: dataDir, LOG_LEVEL: "silent", PEAK_FILE: peakFile } });
  expect(p.stderr.toString()).toBe("");
  expect(p.exitCode).toBe(0);
  const hash = await sha(join(dataDir, restored));
  rmSync(dataDir, { recursive: true, force: true });
  return { peak: Number(readFileSync(peakFile, "utf8")) * 1024, hash };
}

/** A Botloom platform database, with `mib` MiB of rows in a table of its own when asked. */
function platformFile(path: string, mib = 0) {
  const db = openDatabase(path);
  db.$client.exec("PRAGMA journal_mode = DELETE");
  closeDatabase(db);
  if (mib) addRows(path, mib);
}

/** Less than a quarter of `size`: what a restore of it may add to the peak RSS over that of a small one. */
function expectSmallRise(large: { peak: number }, baseline: { peak: number }, size: number) {
  const rise = large.peak - baseline.peak;
  expect({ rise: rise < size / 4, riseMiB: Math.round(rise / MiB), baselineMiB: Math.round(baseline.peak / MiB), fileMiB: Math.round(size / MiB) }).toMatchObject({ rise: true });
}

test("a backup of a 200 MiB project file restores exactly, the restore's peak RSS rising by less than a quarter of it", async () => {
  const platform = join(root, "platform.db");
  platformFile(platform);
  mkdirSync(join(root, "src"));
  const big = join(root, "src", "big.db");
  const small = join(root, "src", "small.db");
  addRows(big, 200);
  addRows(small, 1);
  const size = statSync(big).size;
  expect(size).toBeGreaterThan(200 * MiB);

  const baseline = await restore(await archive("small.tar.gz", platform, small), "projects/7.db");
  expect(baseline.hash).toBe(await sha(small));
  const large = await restore(await archive("big.tar.gz", platform, big), "projects/7.db");
  expect(large.hash).toBe(await sha(big));
  expectSmallRise(large, baseline, size);
}, 60_000);

test("a plain platform database of 200 MiB restores exactly, the restore's peak RSS rising by less than a quarter of it", async () => {
  const big = join(root, "plain-big.db");
  const small = join(root, "plain-small.db");
  platformFile(big, 200);
  platformFile(small);
  const size = statSync(big).size;
  expect(size).toBeGreaterThan(200 * MiB);

  const baseline = await restore(small, "botloom.db");
  expect(baseline.hash).toBe(await sha(small));
  const large = await restore(big, "botloom.db");
  expect(large.hash).toBe(await sha(big));
  expectSmallRise(large, baseline, size);
}, 60_000);
