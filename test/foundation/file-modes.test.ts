// File modes: what holds bot tokens and keys is private to the server's account. Folders and files
// Botloom creates are 0700/0600; an existing looser folder is reported at start, never changed.
import { afterAll, describe, expect, test } from "bun:test";
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { freePort, startProcessServer } from "../support/process";
import { looseModeWarnings, tightenFreshFolders } from "../../src/lib/file-modes";

const main = resolve(import.meta.dir, "../../src/main.ts");
const roots: string[] = [];
afterAll(() => roots.forEach((d) => rmSync(d, { recursive: true, force: true })));
const mode = (p: string) => statSync(p).mode & 0o777;

function tempRoot() {
  const dir = mkdtempSync(join(tmpdir(), "botloom-modes-"));
  roots.push(dir);
  return dir;
}

async function withServer(root: string, env: Record<string, string>, check: (output: string) => Promise<void> | void) {
  // A umask that lets everyone read what is created without an explicit mode, as on many servers.
  const server = await startProcessServer(["sh", "-c", `umask 022 && exec "${process.execPath}" "${main}" serve --init`], {
    cwd: root,
    port: await freePort(),
    env: { LOG_LEVEL: "warn", BACKUP_SCHEDULE: "off", ...env },
  });
  try {
    // A write makes the WAL and SHM files exist.
    expect((await fetch(`${server.url}/admin/api/login`, { method: "POST", body: new URLSearchParams({ key: "wrong" }), redirect: "manual" })).status).toBe(302);
    await check(server.output());
  } finally {
    await server.stop();
  }
}

describe("file modes", () => {
  test("serve --init creates DATA_DIR and BOTS_DIR 0700, the database, its WAL/SHM and the keys 0600", async () => {
    const root = tempRoot();
    await withServer(root, {}, async (output) => {
      const data = join(root, "data");
      expect(mode(data)).toBe(0o700);
      expect(mode(join(root, "bots"))).toBe(0o700);
      const files = readdirSync(data).filter((f) => statSync(join(data, f)).isFile());
      expect(files).toEqual(expect.arrayContaining(["botloom.db", "botloom.db-wal", "botloom.db-shm", "admin.key", "session.secret", "botloom.pid"]));
      for (const f of files) expect([f, mode(join(data, f))]).toEqual([f, 0o600]);
      expect(output).not.toContain("accessible to other accounts");
    });
  }, 60_000);

  test("backups are 0600 in a 0700 folder", async () => {
    const root = tempRoot();
    const dataDir = join(root, "data");
    const p = Bun.spawnSync(["sh", "-c", `umask 022 && exec "${process.execPath}" "${main}" backup`], { cwd: root, env: { PATH: process.env.PATH ?? "", DATA_DIR: dataDir, LOG_LEVEL: "silent" } });
    expect(p.exitCode).toBe(1); // no database yet: nothing to back up
    Bun.spawnSync([process.execPath, main, "pat", "create", "--user", "1"], { cwd: root, env: { PATH: process.env.PATH ?? "", DATA_DIR: dataDir, LOG_LEVEL: "silent" } });
    const ok = Bun.spawnSync(["sh", "-c", `umask 022 && exec "${process.execPath}" "${main}" backup`], { cwd: root, env: { PATH: process.env.PATH ?? "", DATA_DIR: dataDir, LOG_LEVEL: "silent" } });
    expect(ok.exitCode).toBe(0);
    expect(mode(join(dataDir, "backups"))).toBe(0o700);
    const [archive] = readdirSync(join(dataDir, "backups"));
    expect(mode(join(dataDir, "backups", archive))).toBe(0o600);
    expect(mode(join(dataDir, "botloom.db"))).toBe(0o600);
  }, 30_000);

  test("an existing looser DATA_DIR or BOTS_DIR is reported at start and left as its owner set it", async () => {
    const root = tempRoot();
    mkdirSync(join(root, "data"), { mode: 0o755 });
    mkdirSync(join(root, "bots"), { mode: 0o775 });
    chmodSync(join(root, "data"), 0o755);
    chmodSync(join(root, "bots"), 0o775);
    // the owner's own files are in them: the folders are not a fresh clone's
    writeFileSync(join(root, "data", "notes.txt"), "mine");
    writeFileSync(join(root, "bots", "notes.txt"), "mine");
    await withServer(root, {}, (output) => {
      expect(output).toContain(`DATA_DIR ${join(root, "data")} is accessible to other accounts (mode 755)`);
      expect(output).toContain(`chmod 700 ${join(root, "data")}`);
      expect(output).toContain(`BOTS_DIR ${join(root, "bots")} is accessible to other accounts (mode 775)`);
      expect(mode(join(root, "data"))).toBe(0o755);
      expect(mode(join(root, "bots"))).toBe(0o775);
    });
  }, 60_000);

  test("a fresh clone's data/ and bots/ (only .gitkeep, 0755) are made 0700 at the first start, without a warning", async () => {
    const root = tempRoot();
    for (const dir of ["data", "bots", "uploads"]) {
      mkdirSync(join(root, dir));
      writeFileSync(join(root, dir, ".gitkeep"), "");
      chmodSync(join(root, dir), 0o755);
    }
    await withServer(root, {}, (output) => {
      expect(output).not.toContain("is accessible to other accounts");
      expect([mode(join(root, "data")), mode(join(root, "bots"))]).toEqual([0o700, 0o700]);
      expect(mode(join(root, "uploads"))).toBe(0o755); // public media keeps its modes
    });
  }, 60_000);

  test("tightening takes only folders holding exactly .gitkeep", () => {
    const root = tempRoot();
    const [fresh, empty, used] = ["fresh", "empty", "used"].map((d) => join(root, d));
    for (const d of [fresh, empty, used]) {
      mkdirSync(d);
      chmodSync(d, 0o755);
    }
    writeFileSync(join(fresh, ".gitkeep"), "");
    writeFileSync(join(used, ".gitkeep"), "");
    writeFileSync(join(used, "bot.db"), "");
    expect(tightenFreshFolders([fresh, empty, used, join(root, "missing")])).toEqual([fresh]);
    expect([mode(fresh), mode(empty), mode(used)]).toEqual([0o700, 0o755, 0o755]);
  });

  test("the check names only paths that others can reach, and skips missing ones", () => {
    const root = tempRoot();
    const tight = join(root, "tight");
    const groupOnly = join(root, "group");
    mkdirSync(tight, { mode: 0o700 });
    mkdirSync(groupOnly);
    chmodSync(tight, 0o700);
    chmodSync(groupOnly, 0o750);
    const lines = looseModeWarnings([
      { label: "A", path: tight },
      { label: "B", path: groupOnly },
      { label: "C", path: join(root, "missing") },
    ]);
    expect(lines).toEqual([`B ${groupOnly} is accessible to other accounts (mode 750); it holds bot tokens or keys: chmod 700 ${groupOnly}`]);
  });
});
