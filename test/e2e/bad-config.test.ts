// The compiled binary given a wrong value for each setting of docs/configuration.md: it stops before
// it listens, exit code 2, with one line on stderr that names the setting — never a server that
// answers while it cannot do its work, and never a line that blames something else.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { buildBinary, firstHealth, freePort, spawnServer } from "../support/process";

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
  // STORAGE_LOCAL_BASE was checked only when a local storage config was saved: a file or a typo
  // started a server whose every local storage config was then refused.
  { what: "STORAGE_LOCAL_BASE is a file", name: "STORAGE_LOCAL_BASE", env: (d) => ({ STORAGE_LOCAL_BASE: aFile(d, "media") }), says: /STORAGE_LOCAL_BASE \S+ is not an existing writable folder \(it is a file\)/ },
  { what: "STORAGE_LOCAL_BASE does not exist", name: "STORAGE_LOCAL_BASE", env: (d) => ({ STORAGE_LOCAL_BASE: join(d, "no-such-folder") }), says: /STORAGE_LOCAL_BASE \S+no-such-folder is not an existing writable folder \(it does not exist\)/ },
  { what: "STORAGE_LOCAL_BASE does not exist (--init)", name: "STORAGE_LOCAL_BASE", init: true, env: (d) => ({ STORAGE_LOCAL_BASE: join(d, "no-such-folder") }), says: /it does not exist/ },
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

// What must keep starting: the default STORAGE_LOCAL_BASE (UPLOADS_DIR's parent) that does not exist
// yet on a first run, and an explicit one that is a folder.
describe("the storage base of a first run starts", () => {
  const starts: { what: string; env: (dir: string) => Record<string, string> }[] = [
    { what: "default, UPLOADS_DIR's parent not made yet", env: (d) => ({ UPLOADS_DIR: join(d, "srv", "media", "uploads") }) },
    {
      what: "explicit, an existing folder",
      env: (d) => {
        mkdirSync(join(d, "media"));
        return { STORAGE_LOCAL_BASE: join(d, "media") };
      },
    },
  ];
  let n = 0;
  for (const row of starts) {
    test(row.what, async () => {
      const dir = join(root, `starts-${++n}`);
      mkdirSync(dir);
      const proc = spawnServer([binary, "serve"], { cwd: dir, port, env: { ADMIN_KEY: "bad-config-admin-key-0123456789", LOG_LEVEL: "warn", ...row.env(dir) } });
      try {
        expect(await firstHealth(`http://127.0.0.1:${port}`, proc)).toMatchObject({ database: true });
      } finally {
        proc.kill("SIGTERM");
        const killer = setTimeout(() => proc.kill("SIGKILL"), 10_000);
        await proc.exited;
        clearTimeout(killer);
      }
      expect(await new Response(proc.stderr).text()).not.toContain("STORAGE_LOCAL_BASE");
    }, 30_000);
  }
});
