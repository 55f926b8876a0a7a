// Issue 12: the engine (src/scenario) and the bot runtime (src/bots) never import a feature module
// nor the HTTP layer; issue 28: their errors reach clients through the one mapping of src/errors.ts.
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

test("the HTTP layer (src/http) imports no feature module", () => {
  const files = sources(join(SRC, "http"));
  expect(files.length).toBeGreaterThan(5);
  const offending: string[] = [];
  for (const file of files) {
    for (const m of readFileSync(file, "utf8").matchAll(/^\s*(?:import|export)\b[^;]*?from\s+"([^"]+)"/gm)) {
      if (/(^|\/)modules\//.test(m[1]!)) offending.push(`${file.slice(SRC.length + 1)} → ${m[1]}`);
    }
  }
  expect(offending).toEqual([]);
});

test("a feature's HTTP routes are in its *.routes.ts files; no other module file declares routes", () => {
  const files = sources(join(SRC, "modules"));
  const routes = files.filter((f) => f.endsWith(".routes.ts"));
  expect(routes.length).toBeGreaterThan(20);
  // admin-auth.ts is the admin guard (a plugin with no route of its own)
  const elsewhere = files.filter((f) => !f.endsWith(".routes.ts") && !f.endsWith("admin-auth.ts") && /^import\b[^;]*from "elysia"/m.test(readFileSync(f, "utf8")));
  expect(elsewhere.map((f) => f.slice(SRC.length + 1))).toEqual([]);
  for (const f of routes) expect([f.slice(SRC.length + 1), /\.(get|post|put|patch|delete|all|ws|use)\(/.test(readFileSync(f, "utf8"))]).toEqual([f.slice(SRC.length + 1), true]);
});

test("one mapping answers every runtime refusal in the one error shape; every error type carries its name", async () => {
  const { AppError, BotError, EditError, MessengerError, ScenarioError, toAppError } = await import("../../src/errors");
  const cases = [
    ["NOT_FOUND", 404, "NOT_FOUND"],
    ["INVALID", 400, "VALIDATION_FAILED"],
    ["CONFLICT", 409, "CONFLICT"],
    ["MESSENGER", 502, "BAD_GATEWAY"],
    ["FAILED", 500, "INTERNAL"],
    ["UNAVAILABLE", 503, "INTERNAL"],
  ] as const;
  for (const [kind, status, code] of cases) {
    const e = toAppError(new BotError(kind, `why ${kind}`, { issues: [1] }))!;
    expect([kind, e instanceof AppError, e.status, e.code, e.message]).toEqual([kind, true, status, code, `why ${kind}`]);
  }
  expect(toAppError(new BotError("INVALID", "x", { issues: [1] }))!.extra).toEqual({ issues: [1] });
  const m = (kind: "unauthorized" | "unreachable" | "rejected") => toAppError(new MessengerError(kind, `m ${kind}`))!;
  expect([m("unauthorized").status, m("unreachable").status, m("rejected").status]).toEqual([400, 502, 502]);
  const s = toAppError(new ScenarioError([{ message: "a" }, { message: "b" }]))!;
  expect([s.status, s.message, s.extra]).toEqual([400, "a (and 1 more problem)", { issues: [{ message: "a" }, { message: "b" }] }]);
  expect(toAppError(new EditError("no node"))!.status).toBe(400);
  const own = new AppError(418, "CONFLICT", "mine");
  expect(toAppError(own)).toBe(own);
  expect(toAppError(new Error("not ours"))).toBeUndefined();
  expect(toAppError("a string")).toBeUndefined();
  const names = [own, new BotError("FAILED", ""), new MessengerError("rejected", ""), new ScenarioError([]), new EditError("")].map((e) => e.name);
  expect(names).toEqual(["AppError", "BotError", "MessengerError", "ScenarioError", "EditError"]);
});

test("the error types know no framework: src/errors.ts imports neither Elysia nor the MCP SDK", () => {
  const text = readFileSync(join(SRC, "errors.ts"), "utf8");
  const imports = [...text.matchAll(/^\s*import\b[^;]*?from\s+"([^"]+)"/gm)].map((m) => m[1]!);
  expect(imports.length).toBeGreaterThan(0);
  expect(imports.filter((i) => !i.startsWith("./"))).toEqual([]);
  expect(imports.filter((i) => /(^|\/)(modules|http|mcp)\//.test(i))).toEqual([]);
});
