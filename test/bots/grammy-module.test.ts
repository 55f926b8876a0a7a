import { describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ensureGrammyModule } from "../../src/bots/grammy-module";

describe("embedded grammY module", () => {
  test("written once, restored when missing, left alone otherwise", () => {
    const dir = mkdtempSync(join(tmpdir(), "botloom-grammy-"));
    const index = join(dir, "node_modules", "grammy", "index.js");
    ensureGrammyModule(dir);
    const content = readFileSync(index, "utf8");
    expect(content).toContain("class InputFile");
    expect(JSON.parse(readFileSync(join(dir, "node_modules", "grammy", "package.json"), "utf8")).main).toBe("index.js");
    const mtime = statSync(index).mtimeMs;
    ensureGrammyModule(dir);
    expect(statSync(index).mtimeMs).toBe(mtime);
    rmSync(index);
    ensureGrammyModule(dir);
    expect(readFileSync(index, "utf8")).toBe(content);
    rmSync(dir, { recursive: true, force: true });
  });
});
