// `botloom backup` and `botloom restore` as real processes: a round trip, a backup taken while a
// bot keeps writing its project database, and every file a restore must refuse.
import { afterAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { createHash } from "node:crypto";
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGzip } from "node:zlib";
import { openDatabase, closeDatabase } from "../../src/db/client";
import { tarStream, type TarEntry } from "../../src/modules/backups/tar";

const main = resolve(import.meta.dir, "../../src/main.ts");
const roots: string[] = [];
afterAll(() => roots.forEach((d) => rmSync(d, { recursive: true, force: true })));

function tempRoot() {
  const dir = mkdtempSync(join(tmpdir(), "botloom-restore-"));
  roots.push(dir);
  return dir;
}

function cli(dataDir: string, args: string[]) {
  const p = Bun.spawnSync([process.execPath, main, ...args], {
    env: { PATH: process.env.PATH ?? "", DATA_DIR: dataDir, LOG_LEVEL: "silent", BACKUP_KEEP: "50" },
    cwd: resolve(dataDir, ".."),
  });
  return { code: p.exitCode, out: p.stdout.toString(), err: p.stderr.toString() };
}

const count = (file: string, sql: string) => {
  const db = new Database(file, { readonly: true });
  try {
    return (db.query(sql).get() as { n: number }).n;
  } finally {
    db.close();
  }
};

function projectDb(dataDir: string, name: string, rows: number) {
  mkdirSync(join(dataDir, "projects"), { recursive: true });
  const db = new Database(join(dataDir, "projects", name));
  db.exec("PRAGMA journal_mode = WAL; CREATE TABLE IF NOT EXISTS bot_users (id INTEGER PRIMARY KEY, name TEXT)");
  for (let i = 0; i < rows; i++) db.query("INSERT INTO bot_users (name) VALUES (?)").run(`u${i}`);
  db.close();
}

const sha = (file: string) => createHash("sha256").update(readFileSync(file)).digest("hex");
const backupsOf = (dataDir: string) => readdirSync(join(dataDir, "backups")).filter((n) => n.endsWith(".tar.gz"));

describe("botloom backup / restore", () => {
  test("round trip: the platform and project databases come back, the replaced ones are kept aside", () => {
    const dataDir = join(tempRoot(), "data");
    expect(cli(dataDir, ["pat", "create", "--user", "5"]).code).toBe(0);
    projectDb(dataDir, "3.db", 4);
    const made = cli(dataDir, ["backup"]);
    expect(made.code).toBe(0);
    const [archive] = backupsOf(dataDir);
    expect(made.out).toContain(archive);
    expect(statSync(join(dataDir, "backups", archive)).mode & 0o777).toBe(0o600);

    // Life goes on after the backup: a new PAT, more bot users.
    expect(cli(dataDir, ["pat", "create", "--user", "6"]).code).toBe(0);
    projectDb(dataDir, "3.db", 3);
    projectDb(dataDir, "8.db", 1);

    const r = cli(dataDir, ["restore", join(dataDir, "backups", archive)]);
    expect(r.code).toBe(0);
    expect(r.out).toContain("1 project database(s)");
    expect(count(join(dataDir, "botloom.db"), "select count(*) as n from personal_access_tokens")).toBe(1);
    expect(count(join(dataDir, "projects", "3.db"), "select count(*) as n from bot_users")).toBe(4);
    expect(existsSync(join(dataDir, "projects", "8.db"))).toBe(false);
    expect(statSync(join(dataDir, "botloom.db")).mode & 0o777).toBe(0o600);

    const [aside] = readdirSync(dataDir).filter((n) => n.startsWith("replaced-"));
    expect(r.out).toContain(aside);
    expect(count(join(dataDir, aside, "botloom.db"), "select count(*) as n from personal_access_tokens")).toBe(2);
    expect(count(join(dataDir, aside, "projects", "3.db"), "select count(*) as n from bot_users")).toBe(7);
    expect(existsSync(join(dataDir, aside, "projects", "8.db"))).toBe(true);

    // The server opens the restored database as usual.
    const db = openDatabase(join(dataDir, "botloom.db"));
    expect(db.$client.query("select count(*) as n from personal_access_tokens").get()).toEqual({ n: 1 });
    closeDatabase(db);
  }, 60_000);

  test("backup FILE writes the archive there and never overwrites a file", () => {
    const root = tempRoot();
    const dataDir = join(root, "data");
    expect(cli(dataDir, ["pat", "create", "--user", "5"]).code).toBe(0);
    const target = join(root, "copies", "mine.tar.gz");
    expect(cli(dataDir, ["backup", target]).code).toBe(0);
    expect(existsSync(target)).toBe(true);
    const again = cli(dataDir, ["backup", target]);
    expect(again.code).toBe(1);
    expect(again.err).toContain("already exists");
    // A plain database file (older backups, install.sh's pre-upgrade copies) restores too.
    const plain = join(root, "plain.db");
    const src = new Database(join(dataDir, "botloom.db"));
    src.query("VACUUM INTO ?").run(plain);
    src.close();
    projectDb(dataDir, "4.db", 2);
    const r = cli(dataDir, ["restore", plain]);
    expect(r.code).toBe(0);
    expect(r.out).toContain("a plain platform database");
    // The state restored is the backup's: project databases made since are set aside, not mixed in.
    expect(existsSync(join(dataDir, "projects", "4.db"))).toBe(false);
    const [aside] = readdirSync(dataDir).filter((n) => n.startsWith("replaced-"));
    expect(count(join(dataDir, aside, "projects", "4.db"), "select count(*) as n from bot_users")).toBe(2);
  }, 60_000);

  test("a backup taken while a bot writes is a consistent snapshot of every database", async () => {
    const dataDir = join(tempRoot(), "data");
    expect(cli(dataDir, ["pat", "create", "--user", "5"]).code).toBe(0);
    projectDb(dataDir, "9.db", 0);
    // A stand-in for a bot process: one row per transaction, ids 1, 2, 3, … as fast as it can.
    const writer = Bun.spawn(
      [
        process.execPath,
        "-e",
        `const { Database } = require("bun:sqlite");
         const db = new Database(${JSON.stringify(join(dataDir, "projects", "9.db"))});
         db.exec("PRAGMA journal_mode = WAL; PRAGMA busy_timeout = 5000");
         const ins = db.query("INSERT INTO bot_users (name) VALUES ('x')");
         ins.run();
         console.log("ready");
         for (;;) ins.run();`,
      ],
      { stdout: "pipe", stderr: "pipe" },
    );
    try {
      const reader = writer.stdout.getReader();
      await reader.read(); // "ready": its first row is written and it goes on writing
      const made = Bun.spawn([process.execPath, main, "backup"], { env: { PATH: process.env.PATH ?? "", DATA_DIR: dataDir, LOG_LEVEL: "silent" }, stdout: "pipe", stderr: "pipe" });
      expect(await made.exited).toBe(0);
    } finally {
      writer.kill();
      await writer.exited;
    }
    const written = count(join(dataDir, "projects", "9.db"), "select count(*) as n from bot_users");
    const [archive] = backupsOf(dataDir);
    const r = cli(dataDir, ["restore", join(dataDir, "backups", archive)]);
    expect(r.code).toBe(0);
    const restored = new Database(join(dataDir, "projects", "9.db"), { readonly: true });
    const snap = restored.query("select count(*) as n, max(id) as top from bot_users").get() as { n: number; top: number };
    expect(restored.query("PRAGMA quick_check").get()).toEqual({ quick_check: "ok" });
    restored.close();
    // Some rows made it in, fewer than the bot wrote in the end, and no gap: one moment's state.
    expect(snap.n).toBeGreaterThan(0);
    expect(snap.n).toBeLessThan(written);
    expect(snap.top).toBe(snap.n);
  }, 60_000);

  describe("refuses, and leaves the current databases untouched", () => {
    const root = tempRoot();
    const dataDir = join(root, "data");
    let before = "";

    function expectRefused(file: string, reason: RegExp) {
      if (!before) {
        expect(cli(dataDir, ["pat", "create", "--user", "5"]).code).toBe(0);
        before = sha(join(dataDir, "botloom.db"));
      }
      const r = cli(dataDir, ["restore", file]);
      expect(r.code).toBe(1);
      expect(r.err).toMatch(reason);
      expect(r.err).not.toContain("    at ");
      expect(sha(join(dataDir, "botloom.db"))).toBe(before);
      expect(readdirSync(dataDir).filter((n) => n.startsWith("replaced-") || n.startsWith(".restore-"))).toEqual([]);
    }

    async function archive(name: string, files: Record<string, string | Uint8Array>) {
      const path = join(root, name);
      await Bun.Archive.write(path, files, { compress: "gzip" });
      return path;
    }
    /** An archive written as a backup writes it: the same tar writer, then gzip. */
    async function written(name: string, entries: TarEntry[]) {
      const path = join(root, name);
      await pipeline(Readable.from(tarStream(entries, 0)), createGzip(), createWriteStream(path));
      return path;
    }
    const manifest = JSON.stringify({ format: "botloom-backup", formatVersion: 1, botloomVersion: "0", createdAt: "2026-01-01T00:00:00Z", projects: [] });

    function botloomDb(name: string, change: (db: Database) => void) {
      const path = join(root, name);
      const db = openDatabase(path);
      change(db.$client);
      db.$client.exec("PRAGMA journal_mode = DELETE");
      closeDatabase(db);
      return new Uint8Array(readFileSync(path));
    }

    test("without a file argument, or a missing file", () => {
      expect(cli(dataDir, ["restore"]).code).toBe(2);
      expectRefused(join(root, "nope.tar.gz"), /no such file/);
    });

    test("a file that is neither an archive nor a database", () => {
      writeFileSync(join(root, "junk.bin"), "definitely not a backup\n".repeat(100));
      expectRefused(join(root, "junk.bin"), /not a Botloom backup/);
    });

    test("an SQLite database that is not Botloom's", () => {
      const other = new Database(join(root, "other.db"));
      other.exec("CREATE TABLE notes (t TEXT); INSERT INTO notes VALUES ('hi')");
      other.close();
      expectRefused(join(root, "other.db"), /not a Botloom database/);
    });

    test("an archive without a manifest, or whose entries try to leave the folder", async () => {
      const db = botloomDb("plain-ok.db", () => {});
      expectRefused(await archive("no-manifest.tar.gz", { "botloom.db": db }), /not a Botloom backup archive/);
      expectRefused(await archive("escape.tar.gz", { [MANIFEST_NAME]: manifest, "../botloom.db": db }), /not a Botloom backup archive/);
      expect(existsSync(join(root, "botloom.db"))).toBe(false);
    });

    // The archive streams through restore's own tar reader (src/modules/backups/tar-read.ts): what
    // libarchive refused or never wrote, it refuses or never writes either.
    test("an archive whose databases are links, that holds an entry twice, or that is cut short", async () => {
      const ok = join(root, "plain-ok4.db");
      writeFileSync(ok, botloomDb("plain-ok4.db", () => {}));
      // A link in place of each database, pointing at a sound Botloom database: never followed.
      const linked = join(root, "linked");
      mkdirSync(join(linked, "projects"), { recursive: true });
      writeFileSync(join(linked, MANIFEST_NAME), manifest);
      symlinkSync(ok, join(linked, "botloom.db"));
      symlinkSync(ok, join(linked, "projects", "5.db"));
      expect(Bun.spawnSync(["tar", "-czf", join(root, "links.tar.gz"), "-C", linked, MANIFEST_NAME, "botloom.db", "projects/5.db"]).exitCode).toBe(0);
      expectRefused(join(root, "links.tar.gz"), /no manifest or no botloom\.db/);

      // As the backup writes it, botloom.db twice: the second would have silently replaced the first.
      const twice = await written("twice.tar.gz", [
        { name: MANIFEST_NAME, text: manifest },
        { name: "botloom.db", path: ok, size: statSync(ok).size },
        { name: "botloom.db", path: ok, size: statSync(ok).size },
      ]);
      expectRefused(twice, /botloom\.db is in it twice/);

      // A whole archive (it restores elsewhere), then cut inside botloom.db.
      const whole = await written("whole.tar.gz", [
        { name: MANIFEST_NAME, text: manifest },
        { name: "botloom.db", path: ok, size: statSync(ok).size },
      ]);
      const bytes = readFileSync(whole);
      writeFileSync(join(root, "cut.tar.gz"), bytes.subarray(0, bytes.length - 64));
      expectRefused(join(root, "cut.tar.gz"), /not a Botloom backup archive \(unexpected end of file\)/);
      const gunzipped = Bun.gunzipSync(bytes);
      writeFileSync(join(root, "cut.tar"), gunzipped.subarray(0, 512 + 512 + 4096));
      expectRefused(join(root, "cut.tar"), /not a Botloom backup archive \(it ends inside an entry\)/);
      const elsewhere = join(root, "elsewhere");
      const r = cli(elsewhere, ["restore", whole]);
      expect(r.err).toBe("");
      expect(sha(join(elsewhere, "botloom.db"))).toBe(sha(ok));
    });

    test("a database from a newer version of Botloom", async () => {
      const newer = botloomDb("newer.db", (db) => db.query("INSERT INTO __drizzle_migrations (hash, created_at) VALUES ('f'||hex(randomblob(31)), 9999999999999)").run());
      expectRefused(await archive("newer.tar.gz", { [MANIFEST_NAME]: manifest, "botloom.db": newer }), /newer version of Botloom/);
    });

    test("a damaged project database", async () => {
      const ok = botloomDb("plain-ok2.db", () => {});
      const damaged = new Uint8Array(8192);
      damaged.set(new TextEncoder().encode("SQLite format 3\0"));
      const listing5 = JSON.stringify({ ...JSON.parse(manifest), projects: ["5.db"] });
      expectRefused(await archive("damaged.tar.gz", { [MANIFEST_NAME]: listing5, "botloom.db": ok, "projects/5.db": damaged }), /projects\/5\.db: /);
    });

    // The manifest lists the project databases the backup wrote: an archive that lost one would
    // restore without that project's data, one that gained one would add a project from elsewhere.
    test("an archive whose project databases are not the ones its manifest lists", async () => {
      const ok = botloomDb("plain-ok5.db", () => {});
      const project = botloomDb("project-ok5.db", () => {});
      const listing = (projects: unknown) => JSON.stringify({ ...JSON.parse(manifest), projects });
      expectRefused(await archive("lost.tar.gz", { [MANIFEST_NAME]: listing(["5.db", "7.db"]), "botloom.db": ok, "projects/5.db": project }), /lacks project databases? its manifest lists \(projects\/7\.db\): the archive is damaged/);
      expectRefused(await archive("gained.tar.gz", { [MANIFEST_NAME]: listing(["5.db"]), "botloom.db": ok, "projects/5.db": project, "projects/6.db": project }), /holds project databases? its manifest does not list \(projects\/6\.db\): the archive was altered/);
      expectRefused(await archive("odd-list.tar.gz", { [MANIFEST_NAME]: listing(["../5.db"]), "botloom.db": ok }), /not a Botloom backup archive \(no manifest or no botloom\.db\)/);
      expectRefused(await archive("no-list.tar.gz", { [MANIFEST_NAME]: listing(undefined), "botloom.db": ok }), /not a Botloom backup archive/);
      // The same archive with the list right restores.
      const right = await archive("right.tar.gz", { [MANIFEST_NAME]: listing(["5.db"]), "botloom.db": ok, "projects/5.db": project });
      const elsewhere = join(root, "elsewhere5");
      const r = cli(elsewhere, ["restore", right]);
      expect(r.code).toBe(0);
      expect(existsSync(join(elsewhere, "projects", "5.db"))).toBe(true);
    });

    test("while a server runs on the same DATA_DIR: its lock says so, not the pid file", async () => {
      const ok = await archive("fine.tar.gz", { [MANIFEST_NAME]: manifest, "botloom.db": botloomDb("plain-ok3.db", () => {}) });
      // This test process stands in for the server: it holds DATA_DIR's lock, as `serve` does.
      const lock = new Database(join(dataDir, "botloom.lock"));
      lock.exec("BEGIN EXCLUSIVE");
      writeFileSync(join(dataDir, "botloom.pid"), `${process.pid}\n`);
      try {
        expectRefused(ok, new RegExp(`a Botloom server \\(pid ${process.pid}\\) is running`));
        // A server whose pid file was removed still runs: before, the restore went ahead under it.
        rmSync(join(dataDir, "botloom.pid"));
        expectRefused(ok, /a Botloom server is running/);
      } finally {
        lock.close();
      }
      // A pid file left by a server killed with kill -9 (or a power cut) whose pid now belongs to
      // another process — here this one — blocks nothing: before, the restore was refused.
      writeFileSync(join(dataDir, "botloom.pid"), `${process.pid}\n`);
      const r = cli(dataDir, ["restore", ok]);
      expect(r.err).toBe("");
      expect(r.code).toBe(0);
    });
  });
});

const MANIFEST_NAME = "manifest.json";
