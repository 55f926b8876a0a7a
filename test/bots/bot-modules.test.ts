import { describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ensureBotModules } from "../../src/bots/bot-modules";

describe("embedded bot modules", () => {
  test("grammy, croner and jsep written once, restored when missing, left alone otherwise", () => {
    const dir = mkdtempSync(join(tmpdir(), "botloom-modules-"));
    const index = join(dir, "node_modules", "grammy", "index.js");
    ensureBotModules(dir);
    const content = readFileSync(index, "utf8");
    expect(content).toContain("class InputFile");
    expect(readFileSync(join(dir, "node_modules", "croner", "index.js"), "utf8")).toContain("Cron");
    expect(readFileSync(join(dir, "node_modules", "jsep", "index.js"), "utf8")).toContain("jsep");
    expect(JSON.parse(readFileSync(join(dir, "node_modules", "croner", "package.json"), "utf8")).main).toBe("index.js");
    const mtime = statSync(index).mtimeMs;
    ensureBotModules(dir);
    expect(statSync(index).mtimeMs).toBe(mtime);
    rmSync(index);
    ensureBotModules(dir);
    expect(readFileSync(index, "utf8")).toBe(content);
    rmSync(dir, { recursive: true, force: true });
  });

  test("a bot in that folder imports all three and uses them", async () => {
    const dir = mkdtempSync(join(tmpdir(), "botloom-modules-"));
    ensureBotModules(dir);
    writeFileSync(
      join(dir, "probe.ts"),
      [
        'import { Cron } from "croner";',
        'import jsep from "jsep";',
        'import { InlineKeyboard } from "grammy";',
        'const next = new Cron("0 9 * * 1", { timezone: "Europe/Moscow" }).nextRun(new Date("2026-01-01T00:00:00Z"));',
        'console.log(JSON.stringify({ next: next?.toISOString(), ast: jsep("a + 1").type, kb: new InlineKeyboard().text("x", "y").inline_keyboard.length }));',
      ].join("\n"),
    );
    const proc = Bun.spawnSync([process.execPath, "probe.ts"], { cwd: dir, env: { PATH: process.env.PATH ?? "" } });
    rmSync(dir, { recursive: true, force: true });
    expect(proc.stderr.toString()).toBe("");
    expect(JSON.parse(proc.stdout.toString())).toEqual({ next: "2026-01-05T06:00:00.000Z", ast: "BinaryExpression", kb: 1 });
  });
});
