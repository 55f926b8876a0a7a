// The compiled server with DATA_DIR on a real 4 MB file system that fills up: "Back up now" says the
// disk is full (it said "Internal server error"), leaves no partial archive, the server keeps
// answering, and once space is freed the next backup is made. Mounting needs root (a tmpfs);
// elsewhere the test skips and says why.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { buildBinary, startProcessServer, type ProcessServer } from "../support/process";

const ADMIN_KEY = "disk-full-admin-key-0123456789";
const root = mkdtempSync(join(tmpdir(), "botloom-diskfull-"));
const disk = join(root, "disk");
mkdirSync(disk);
const mounted = Bun.spawnSync(["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", disk], { stderr: "pipe" });
const canMount = mounted.exitCode === 0;
if (!canMount) console.log(`disk-full.test.ts skipped: cannot mount a small tmpfs here (${mounted.stderr.toString().trim() || "not root"})`);

let server: ProcessServer | null = null;

beforeAll(async () => {
  if (!canMount) return;
  const binary = await buildBinary(resolve(import.meta.dir, "../.."));
  server = await startProcessServer([binary, "serve"], { cwd: root, env: { ADMIN_KEY, DATA_DIR: join(disk, "data"), LOG_LEVEL: "info" } });
}, 120_000);

afterAll(async () => {
  await server?.stop("SIGKILL");
  if (canMount) Bun.spawnSync(["umount", "-l", disk]);
  rmSync(root, { recursive: true, force: true });
});

describe.skipIf(!canMount)("a full disk", () => {
  test("Back up now says the disk is full, leaves nothing behind, and works again once space is freed", async () => {
    const url = server!.url;
    const login = await fetch(`${url}/admin/api/login`, { method: "POST", body: new URLSearchParams({ key: ADMIN_KEY }), redirect: "manual" });
    const cookie = login.headers.getSetCookie()[0].split(";")[0];
    const backupNow = () => fetch(`${url}/admin/api/backups`, { method: "POST", headers: { cookie } });

    // Fill what is left of the file system.
    const filler = join(disk, "filler");
    try {
      writeFileSync(filler, new Uint8Array(8 * 1024 * 1024));
    } catch {}
    const full = await backupNow();
    expect(full.status).toBe(500);
    expect(await full.json()).toEqual({ error: "INTERNAL", message: "The server's disk is full: nothing more can be written until space is freed on it" });
    expect(readdirSync(join(disk, "data", "backups"))).toEqual([]);
    expect((await fetch(`${url}/api/health`)).status).toBe(200);

    rmSync(filler);
    const made = await backupNow();
    expect(made.status).toBe(201);
    const { name } = await made.json();
    expect(readdirSync(join(disk, "data", "backups"))).toEqual([name]);
  }, 60_000);
});
