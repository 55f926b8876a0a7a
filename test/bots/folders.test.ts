import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cleanupBotFolders, folderName, parseFolderName, readEnvValue, renderEnv, setEnvValue, slugify, writeBotFolder } from "../../src/bots/folders";
import { adminLogin, createTestApp, setUp, type TestApp } from "../support/app";

describe("bot folder names", () => {
  test("slugs are filesystem-safe, Cyrillic transliterated", () => {
    expect(slugify("Мой Бот!")).toBe("moy-bot");
    expect(slugify("../../etc/passwd")).toBe("etc-passwd");
    expect(slugify("🙂🙂")).toBe("bot");
    expect(slugify("x".repeat(100))).toHaveLength(40);
    expect(folderName("Shop Bot", 12, 7)).toBe("shop-bot_12_7");
    expect(parseFolderName("shop-bot_12_7")).toEqual({ projectId: 12, tokenId: 7 });
    expect(parseFolderName("node_modules")).toBeNull();
  });

  test(".env round trip keeps spaces, quotes, # and newlines; the file is 0600", () => {
    const dir = mkdtempSync(join(tmpdir(), "botloom-folders-"));
    const vars = { BOT_TOKEN: "1:abc", GREETING: 'Hi "there" # not a comment', MULTI: "a\nb" };
    const folder = writeBotFolder(dir, "x_1_1", "// code", vars);
    expect(statSync(join(folder, ".env")).mode & 0o777).toBe(0o600);
    expect(renderEnv(vars).split("\n").filter(Boolean)).toHaveLength(3);
    for (const [k, v] of Object.entries(vars)) expect(readEnvValue(join(folder, ".env"), k)).toBe(v);
    expect(readEnvValue(join(folder, ".env"), "MISSING")).toBeNull();
    rmSync(dir, { recursive: true });
  });

  test("setEnvValue writes the renderEnv format: replaces the key (dropping duplicates) or appends; keeps other lines; new files 0600", () => {
    const dir = mkdtempSync(join(tmpdir(), "botloom-folders-"));
    const env = join(dir, ".env");
    writeFileSync(env, '# comment\nBOT_TOKEN="1:abc"\nexport ADMIN_IDS=1\nOTHER=x\nADMIN_IDS=stale\n');
    setEnvValue(env, "ADMIN_IDS", 'a "b" # c');
    expect(readFileSync(env, "utf8")).toBe('# comment\nBOT_TOKEN="1:abc"\nADMIN_IDS="a \\"b\\" # c"\nOTHER=x\n');
    expect(readEnvValue(env, "ADMIN_IDS")).toBe('a "b" # c');
    setEnvValue(env, "NEW_KEY", "");
    expect(readFileSync(env, "utf8").endsWith('OTHER=x\nNEW_KEY=""\n')).toBe(true);
    expect(readEnvValue(env, "NEW_KEY")).toBe("");
    const fresh = join(dir, "fresh.env");
    setEnvValue(fresh, "ADMIN_IDS", "1,2");
    expect(readFileSync(fresh, "utf8")).toBe(renderEnv({ ADMIN_IDS: "1,2" }));
    expect(statSync(fresh).mode & 0o777).toBe(0o600);
    rmSync(dir, { recursive: true });
  });
});

describe("bot folder cleanup (admin rule 3)", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "botloom-cleanup-"));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  test("deletes only folders of deleted projects; skips odd names, links and running bots", () => {
    for (const n of ["alive_1_1", "gone_2_2", "running_3_3", "no-ids-here", "node_modules"]) mkdirSync(join(dir, n));
    const outside = mkdtempSync(join(tmpdir(), "botloom-outside-"));
    writeFileSync(join(outside, "precious.txt"), "keep");
    symlinkSync(outside, join(dir, "link_4_4"));
    writeFileSync(join(dir, "file_5_5"), "not a folder");
    const r = cleanupBotFolders(dir, (id) => id === 1, (tokenId) => tokenId === 3);
    expect(r.deleted).toEqual(["gone_2_2"]);
    expect(r.skipped.sort()).toEqual(["file_5_5", "link_4_4", "no-ids-here"]);
    expect(r.count).toBe(1);
    expect(existsSync(join(dir, "running_3_3"))).toBe(true);
    expect(existsSync(join(dir, "alive_1_1"))).toBe(true);
    expect(readFileSync(join(outside, "precious.txt"), "utf8")).toBe("keep");
    expect(existsSync(join(dir, "node_modules"))).toBe(true);
    rmSync(outside, { recursive: true });
  });

  test("a missing BOTS_DIR is nothing to clean", () => {
    expect(cleanupBotFolders(join(dir, "nope"), () => false, () => false)).toEqual({ deleted: [], skipped: [], count: 0, message: "Nothing to clean up" });
  });
});

describe("POST /admin/api/bot-folders/cleanup", () => {
  let t: TestApp;
  beforeEach(async () => {
    t = createTestApp();
    await setUp(t);
  });
  afterEach(() => t.cleanup());

  test("admin only; answers deleted, skipped, count, message", async () => {
    expect((await t.call("POST", "/admin/api/bot-folders/cleanup")).status).toBe(401);
    const owner = t.ctx.projects.create(1, { name: "Kept" });
    mkdirSync(join(t.ctx.config.botsDir, `kept_${owner.id}_1`), { recursive: true });
    mkdirSync(join(t.ctx.config.botsDir, `gone_999_2`), { recursive: true });
    mkdirSync(join(t.ctx.config.botsDir, `junk`), { recursive: true });
    const cookie = await adminLogin(t);
    const res = await t.call("POST", "/admin/api/bot-folders/cleanup", { cookie });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ deleted: ["gone_999_2"], skipped: ["junk"], count: 1, message: expect.any(String) });
    expect(existsSync(join(t.ctx.config.botsDir, `kept_${owner.id}_1`))).toBe(true);
  });
});
