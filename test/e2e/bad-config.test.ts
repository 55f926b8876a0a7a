// The compiled binary given a wrong value for each setting of docs/configuration.md: it stops before
// it listens, exit code 2, with one line on stderr that names the setting — never a server that
// answers while it cannot do its work, and never a line that blames something else.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { buildBinary, freePort, spawnServer } from "../support/process";

let binary: string;
let root: string;
let port: number;

beforeAll(async () => {
  binary = await buildBinary(resolve(import.meta.dir, "../.."));
  root = mkdtempSync(join(tmpdir(), "botloom-badcfg-"));
  port = await freePort();
}, 120_000);

afterAll(() => {
  if (root) rmSync(root, { recursive: true, force: true });
});

interface Row {
  /** what is wrong, for the test's name */
  what: string;
  /** the variable the message must name */
  name: string;
  /** the environment, given the run's own folder */
  env: (dir: string) => Record<string, string>;
  init?: boolean;
  /** what else the message must say */
  says?: RegExp;
}

const value = (name: string, v: string): Row => ({ what: `${name}=${JSON.stringify(v)}`, name, env: () => ({ [name]: v }) });
const aFile = (dir: string, name: string) => {
  const path = join(dir, name);
  writeFileSync(path, "not a folder");
  return path;
};

const rows: Row[] = [
  value("PORT", "abc"),
  value("PORT", "99999"),
  // Number(" ") is 0 and Number("0x50") is 80: both used to start, on a port nobody asked for.
  value("PORT", " "),
  value("PORT", "0x50"),
  // Both used to stop with Bun's bare "ENOENT: no such file or directory, listen" / "EADDRNOTAVAIL".
  { ...value("HOST", "no.such.host.invalid"), says: /cannot listen on HOST no\.such\.host\.invalid/ },
  { ...value("HOST", "192.0.2.1"), says: /cannot listen on HOST 192\.0\.2\.1/ },
  // A misspelt production used to run without Secure cookies.
  value("NODE_ENV", "prod"),
  { what: "DATA_DIR is a file", name: "DATA_DIR", env: (d) => ({ DATA_DIR: aFile(d, "data") }), says: /is not a writable folder/ },
  // BOTS_DIR a file: the start failed after listening, blaming "the database" and DATA_DIR; with
  // --init, "EEXIST: file already exists, mkdir" named no setting.
  { what: "BOTS_DIR is a file", name: "BOTS_DIR", env: (d) => ({ BOTS_DIR: aFile(d, "bots") }), says: /BOTS_DIR \S+ is not a writable folder \(it is a file\)/ },
  { what: "BOTS_DIR is a file (--init)", name: "BOTS_DIR", init: true, env: (d) => ({ BOTS_DIR: aFile(d, "bots") }), says: /BOTS_DIR \S+ is not a writable folder/ },
  { what: "BOTS_DIR lies under a file", name: "BOTS_DIR", env: (d) => ({ BOTS_DIR: join(aFile(d, "f"), "bots") }), says: /is a file/ },
  // UPLOADS_DIR a file: the server started and answered, and every upload failed.
  { what: "UPLOADS_DIR is a file", name: "UPLOADS_DIR", env: (d) => ({ UPLOADS_DIR: aFile(d, "uploads") }), says: /UPLOADS_DIR \S+ is not a writable folder \(it is a file\)/ },
  { what: "UPLOADS_DIR is a file (--init)", name: "UPLOADS_DIR", init: true, env: (d) => ({ UPLOADS_DIR: aFile(d, "uploads") }), says: /UPLOADS_DIR \S+ is not a writable folder/ },
  value("ADMIN_KEY", "short"),
  value("SESSION_SECRET", "short"),
  value("STORAGE_ENCRYPTION_KEY", "short"),
  value("MESSENGER_API_ROOT", "api.telegram.org"),
  value("WEBHOOK_BASE_URL", "bots.example.com"),
  value("UPDATE_CHECK_URL", "version.json"),
  value("LOG_LEVEL", "verbose"),
  value("BACKUP_SCHEDULE", "every day"),
  value("BACKUP_KEEP", "0"),
  value("BACKUP_UPLOAD", "yes"),
  value("BOT_ISOLATION", "docker"),
  value("BOT_RUNNERS", "0"),
  value("BOT_RUNNER_CAPACITY", "0"),
  value("BOT_RUNNER_BLOCK_SECONDS", "0"),
  value("BOT_RUNNER_MEMORY_MB", "10"),
  value("BOT_ANALYTICS", "no"),
  value("BACKGROUND_CPUS", "none"),
  value("LOGIN_ATTEMPTS_PER_MINUTE", "0"),
  value("ADMIN_LOGIN_FREE_FAILURES", "x"),
  value("PAT_CREATIONS_PER_HOUR", "1.5"),
  value("MAX_PATS_PER_USER", "0"),
  value("MAX_PROJECTS_PER_USER", "-3"),
  value("PROJECT_TRASH_DAYS", "0"),
  value("TRUSTED_PROXIES", "localhost"),
  value("EGRESS_ALLOW", "http://intranet"),
];

describe("a wrong setting stops the start with one line naming it", () => {
  let n = 0;
  for (const row of rows) {
    test(row.what, async () => {
      const dir = join(root, String(++n));
      mkdirSync(dir);
      const proc = spawnServer([binary, "serve", ...(row.init ? ["--init"] : [])], {
        cwd: dir,
        port,
        env: { ADMIN_KEY: "bad-config-admin-key-0123456789", LOG_LEVEL: "info", ...row.env(dir) },
      });
      // A server that started anyway is ended here, and the row fails on its exit code.
      const killer = setTimeout(() => proc.kill("SIGKILL"), 15_000);
      const code = await proc.exited;
      clearTimeout(killer);
      const [stdout, stderr] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
      expect({ code, stdout: stdout.includes("listening on") ? stdout : "" }).toEqual({ code: 2, stdout: "" });
      const line = stderr.trim();
      expect(line.split("\n")).toHaveLength(1);
      expect(line).toStartWith("botloom: ");
      expect(line).toContain(row.name);
      if (row.says) expect(line).toMatch(row.says);
      expect(existsSync(join(dir, "data", "botloom.pid"))).toBe(false);
    }, 30_000);
  }
});
