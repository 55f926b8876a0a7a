// docs/architecture.md#layers / issue 12: the engine (src/scenario) and the bot runtime (src/bots) never import a
// feature module nor the HTTP layer; features translate the runtime's errors into the error shape.
import { expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

const SRC = join(import.meta.dir, "..", "..", "src");

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    return statSync(full).isDirectory() ? sources(full) : name.endsWith(".ts") ? [full] : [];
  });
}

test("src/bots and src/scenario import neither src/modules nor src/http", () => {
  const files = [...sources(join(SRC, "bots")), ...sources(join(SRC, "scenario"))];
  expect(files.length).toBeGreaterThan(20);
  const offending: string[] = [];
  for (const file of files) {
    for (const m of readFileSync(file, "utf8").matchAll(/^\s*(?:import|export)\b[^;]*?from\s+"([^"]+)"/gm)) {
      if (/(^|\/)(modules|http)\//.test(m[1]!)) offending.push(`${file.slice(SRC.length + 1)} → ${m[1]}`);
    }
  }
  expect(offending).toEqual([]);
});

test("the lifecycle feature answers every runtime refusal in the one error shape", async () => {
  const { BotError } = await import("../../src/bots/errors");
  const { botHttpError } = await import("../../src/modules/bot-lifecycle/errors");
  const { AppError } = await import("../../src/http/errors");
  const cases = [
    ["NOT_FOUND", 404, "NOT_FOUND"],
    ["INVALID", 400, "VALIDATION_FAILED"],
    ["CONFLICT", 409, "CONFLICT"],
    ["MESSENGER", 502, "BAD_GATEWAY"],
    ["FAILED", 500, "INTERNAL"],
    ["UNAVAILABLE", 503, "INTERNAL"],
  ] as const;
  for (const [kind, status, code] of cases) {
    const e = botHttpError(new BotError(kind, `why ${kind}`, { issues: [1] })) as InstanceType<typeof AppError>;
    expect([kind, e instanceof AppError, e.status, e.code, e.message]).toEqual([kind, true, status, code, `why ${kind}`]);
  }
  const other = new Error("not the runtime's");
  expect(botHttpError(other)).toBe(other);
});
