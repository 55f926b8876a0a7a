import { describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ConfigError, initDataDir, loadConfig } from "../../src/config";

const tmp = () => mkdtempSync(join(tmpdir(), "botloom-config-"));

describe("config", () => {
  test("defaults match docs/configuration.md", () => {
    const dir = tmp();
    const c = loadConfig({ DATA_DIR: join(dir, "data") });
    expect(c.port).toBe(5000);
    expect(c.host).toBe("0.0.0.0");
    expect(c.production).toBe(false);
    expect(c.messengerApiRoot).toBe("https://api.telegram.org");
    expect(c.logLevel).toBe("info");
    expect(c.adminKey).toBeNull();
    expect(c.webhookBaseUrl).toBeNull();
    expect(c.databasePath).toBe(join(dir, "data", "botloom.db"));
    expect(c.backgroundCpus).toBe("auto");
    expect(loadConfig({ DATA_DIR: join(dir, "data"), BACKGROUND_CPUS: "all" }).backgroundCpus).toBe("all");
  });

  test("the session secret is generated once into DATA_DIR (0600) and reused", () => {
    const dir = tmp();
    const a = loadConfig({ DATA_DIR: dir });
    const file = join(dir, "session.secret");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(loadConfig({ DATA_DIR: dir }).sessionSecret).toBe(a.sessionSecret);
  });

  test("invalid values are refused with the variable named", () => {
    expect(() => loadConfig({ PORT: "seventy" })).toThrow(ConfigError);
    expect(() => loadConfig({ PORT: "70000" })).toThrow(/PORT/);
    expect(() => loadConfig({ LOG_LEVEL: "loud" })).toThrow(/LOG_LEVEL/);
    expect(() => loadConfig({ BACKGROUND_CPUS: "1-3", DATA_DIR: tmp() })).toThrow(/BACKGROUND_CPUS/);
    expect(() => loadConfig({ STORAGE_ENCRYPTION_KEY: "short", DATA_DIR: tmp() })).toThrow(/STORAGE_ENCRYPTION_KEY/);
    expect(() => loadConfig({ MESSENGER_API_ROOT: "not a url", DATA_DIR: tmp() })).toThrow(/MESSENGER_API_ROOT/);
  });

  test("empty variables count as unset; trailing slashes are trimmed", () => {
    const c = loadConfig({ DATA_DIR: tmp(), ADMIN_KEY: "", MESSENGER_API_ROOT: "http://127.0.0.1:9/", NODE_ENV: "production" });
    expect(c.adminKey).toBeNull();
    expect(c.messengerApiRoot).toBe("http://127.0.0.1:9");
    expect(c.production).toBe(true);
  });

  test("admin key: env wins, else data/admin.key; --init writes one only when none exists", () => {
    const dir = tmp();
    const c = loadConfig({ DATA_DIR: dir, BOTS_DIR: join(dir, "b"), UPLOADS_DIR: join(dir, "u") });
    const { createdKey } = initDataDir(c);
    expect(createdKey).toBeString();
    expect(existsSync(join(dir, "b"))).toBe(true);
    expect(statSync(join(dir, "admin.key")).mode & 0o777).toBe(0o600);
    expect(readFileSync(join(dir, "admin.key"), "utf8").trim()).toBe(createdKey!);
    const again = loadConfig({ DATA_DIR: dir, BOTS_DIR: join(dir, "b"), UPLOADS_DIR: join(dir, "u") });
    expect(again.adminKey).toBe(createdKey);
    expect(initDataDir(again).createdKey).toBeNull();
    expect(loadConfig({ DATA_DIR: dir, ADMIN_KEY: "from-env-0123456789" }).adminKey).toBe("from-env-0123456789");
  });
});
