// The CLI of docs/cli.md, run as a real process.
import { describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { VERSION } from "../../src/version";

const main = resolve(import.meta.dir, "../../src/main.ts");

function cli(args: string[], env: Record<string, string> = {}) {
  const dir = env.DATA_DIR ? undefined : mkdtempSync(join(tmpdir(), "botloom-cli-"));
  const p = Bun.spawnSync([process.execPath, main, ...args], {
    env: { PATH: process.env.PATH ?? "", DATA_DIR: dir ? join(dir, "data") : "", LOG_LEVEL: "silent", ...env },
    cwd: dir ?? tmpdir(),
  });
  return { code: p.exitCode, out: p.stdout.toString(), err: p.stderr.toString() };
}

describe("botloom CLI", () => {
  test("version prints the version file's version", () => {
    const r = cli(["version"]);
    expect(r.code).toBe(0);
    expect(r.out.trim()).toBe(VERSION.version);
  });

  test("pat create prints a token once and stores only its hash", () => {
    const dataDir = join(mkdtempSync(join(tmpdir(), "botloom-cli-")), "data");
    const r = cli(["pat", "create", "--user", "123", "--scope", "bot_manager", "--name", "manager"], { DATA_DIR: dataDir });
    expect(r.code).toBe(0);
    const token = r.out.trim();
    expect(token).toMatch(/^mcp_[A-Za-z0-9]{40,}$/);
    const db = new Database(join(dataDir, "botloom.db"));
    const row = db.query("select user_id, name, scopes, token_hash from personal_access_tokens").get() as any;
    expect(row).toEqual({ user_id: 123, name: "manager", scopes: '["bot_manager"]', token_hash: createHash("sha256").update(token).digest("hex") });
    db.close();
  });

  test("pat create refuses bad arguments with a usage message and exit code 2", () => {
    for (const args of [["pat", "create"], ["pat", "create", "--user", "x"], ["pat", "create", "--user"], ["pat", "create", "--user", "1e3"], ["pat", "create", "--user", "0x10"], ["pat", "create", "--user", "1", "--scope", "root"], ["pat", "list"]]) {
      const r = cli(args);
      expect(r.code).toBe(2);
      expect(r.err).not.toContain("    at ");
    }
  }, 30_000);

  test("backup writes an archive holding a consistent copy of the database", async () => {
    const dataDir = join(mkdtempSync(join(tmpdir(), "botloom-cli-")), "data");
    cli(["pat", "create", "--user", "5"], { DATA_DIR: dataDir });
    const target = join(dataDir, "..", "copy", "b.tar.gz");
    const r = cli(["backup", target], { DATA_DIR: dataDir });
    expect(r.code).toBe(0);
    const files = await new Bun.Archive(new Uint8Array(await Bun.file(target).arrayBuffer())).files();
    const copyPath = join(dataDir, "..", "copy.db");
    await Bun.write(copyPath, files.get("botloom.db")!);
    const copy = new Database(copyPath);
    expect(copy.query("select count(*) as n from personal_access_tokens").get()).toEqual({ n: 1 });
    copy.close();
  });

  test("backup without a database fails instead of copying a new empty one", () => {
    const dataDir = join(mkdtempSync(join(tmpdir(), "botloom-cli-")), "data");
    const target = join(dataDir, "..", "b.db");
    const r = cli(["backup", target], { DATA_DIR: dataDir });
    expect(r.code).toBe(1);
    expect(r.err).toContain("no database at");
    expect(existsSync(join(dataDir, "botloom.db"))).toBe(false);
    expect(existsSync(target)).toBe(false);
  });

  test("an unknown command or an invalid variable is a one-line error, no stack trace", () => {
    const unknown = cli(["frobnicate"]);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toContain("Unknown command");
    const bad = cli(["version"], { PORT: "not-a-port" });
    expect(bad.code).toBe(0); // version needs no configuration
    const serve = cli(["serve"], { PORT: "not-a-port" });
    expect(serve.code).toBe(2);
    expect(serve.err).toContain("PORT");
    expect(serve.err).not.toContain("    at ");
  });
});
