// Where SQL lives (docs/database.md "Where SQL lives"): drizzle, the table definitions and SQL
// text only in src/db and in a module's queries.ts; route files never touch the database. This is
// also what a second dialect (PostgreSQL) needs: everything it must rewrite is in those files.
// The generated bot program (src/scenario/codegen/runtime) runs its own SQL on its own file and is
// not server code.
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";

const SRC = join(import.meta.dir, "..", "..", "src");

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    return statSync(full).isDirectory() ? sources(full) : name.endsWith(".ts") ? [full] : [];
  });
}

const files = sources(SRC).map((full) => ({ path: relative(SRC, full), text: readFileSync(full, "utf8") }));
/** A module's queries.ts, or the files of its queries/ folder when they outgrow one file. */
const mayHoldSql = (path: string) => path.startsWith("db/") || path.endsWith("/queries.ts") || path === "queries.ts" || /^modules\/[^/]+\/queries\/[^/]+\.ts$/.test(path);
const botProgram = (path: string) => path.startsWith("scenario/codegen/runtime/");
const serverCode = files.filter((f) => !botProgram(f.path));

/** Every module specifier a file imports or re-exports, with whether the import is type-only. */
function imports(text: string): { from: string; typeOnly: boolean }[] {
  const out: { from: string; typeOnly: boolean }[] = [];
  for (const m of text.matchAll(/^\s*(import|export)\s+(type\s+)?[^;'"]*?from\s+"([^"]+)"/gm)) out.push({ from: m[3]!, typeOnly: m[2] !== undefined });
  for (const m of text.matchAll(/^\s*import\s+"([^"]+)"/gm)) out.push({ from: m[1]!, typeOnly: false });
  for (const m of text.matchAll(/\bimport\(\s*"([^"]+)"\s*\)/g)) out.push({ from: m[1]!, typeOnly: false });
  return out;
}

/** SQL statements written as text: the start of a string literal that reads as SQL. */
const SQL_TEXT = new RegExp(
  ["SELECT\\s[^\"'`]*\\sFROM\\s", "INSERT\\s+(OR\\s+\\w+\\s+)?INTO\\s", "UPDATE\\s+\\w+\\s+SET\\s", "DELETE\\s+FROM\\s", "PRAGMA\\s", "CREATE\\s+(TABLE|(UNIQUE\\s+)?INDEX|VIEW|TRIGGER)\\s", "VACUUM\\b"]
    // Keywords in one case, upper or lower: "Select a file from the list" is a sentence.
    .flatMap((k) => [k, k.replace(/[A-Z]{2,}/g, (w) => w.toLowerCase())])
    .map((k) => `["'\`]\\s*${k}`)
    .join("|"),
);

function offenders(check: (f: { path: string; text: string }) => string[]): string[] {
  return serverCode.flatMap((f) => (mayHoldSql(f.path) ? [] : check(f).map((what) => `${f.path}: ${what}`)));
}

describe("SQL only in src/db and queries.ts", () => {
  test("the check sees the files it is about", () => {
    expect(serverCode.length).toBeGreaterThan(100);
    expect(files.filter((f) => f.path.endsWith("/queries.ts")).length).toBeGreaterThan(8);
  });

  test("drizzle-orm is imported nowhere else", () => {
    expect(offenders((f) => imports(f.text).filter((i) => i.from === "drizzle-orm" || i.from.startsWith("drizzle-orm/")).map((i) => i.from))).toEqual([]);
  });

  test("the table definitions are imported nowhere else, except as types (the project DDL text is no table)", () => {
    const tables = /^\s*import\s+(?!type\b)\{([^}]*)\}\s*from\s+"((?:\.\.?\/)+db\/(?:schema|project-schema))"/gm;
    const valueNames = (list: string) => list.split(",").map((n) => n.trim()).filter((n) => n && !n.startsWith("type ") && n !== "PROJECT_DB_DDL");
    expect(offenders((f) => [...f.text.matchAll(tables)].filter((m) => valueNames(m[1]!).length > 0).map((m) => `${m[2]} { ${valueNames(m[1]!).join(", ")} }`))).toEqual([]);
    expect(offenders((f) => [...f.text.matchAll(/^\s*import\s+\*\s+as\s+\w+\s+from\s+"[^"]*db\/(schema|project-schema)"/gm)].map((m) => m[0].trim()))).toEqual([]);
  });

  test("bun:sqlite is imported nowhere else, except as a type", () => {
    expect(offenders((f) => imports(f.text).filter((i) => i.from === "bun:sqlite" && !i.typeOnly).map((i) => i.from))).toEqual([]);
  });

  test("no sql`` fragment and no SQL text elsewhere", () => {
    expect(offenders((f) => [...f.text.matchAll(/(?<![`\w])sql`/g)].map(() => "sql`…`"))).toEqual([]);
    expect(offenders((f) => f.text.split("\n").filter((line) => SQL_TEXT.test(line)).map((line) => line.trim().slice(0, 80)))).toEqual([]);
  });

  test("route files reach the database only through services", () => {
    const routes = serverCode.filter((f) => f.path.startsWith("modules/") && /\bnew Elysia\(/.test(f.text));
    expect(routes.length).toBeGreaterThan(15);
    const bad = routes.flatMap((f) => [
      ...imports(f.text)
        .filter((i) => /(^|\/)db\//.test(i.from) || /(^|\/)queries(\/|$)/.test(i.from))
        .map((i) => `${f.path}: imports ${i.from}`),
      ...[...f.text.matchAll(/\bctx\.db\b|\.\$client\b/g)].map((m) => `${f.path}: ${m[0]}`),
    ]);
    expect(bad).toEqual([]);
  });

  test("the checks catch what they forbid", () => {
    expect(imports('import { eq, sql } from "drizzle-orm";\nimport type { Db } from "../db/client";').map((i) => [i.from, i.typeOnly])).toEqual([
      ["drizzle-orm", false],
      ["../db/client", true],
    ]);
    expect(imports('export { x } from "drizzle-orm/sqlite-core";\nconst m = await import("bun:sqlite");').map((i) => i.from)).toEqual(["drizzle-orm/sqlite-core", "bun:sqlite"]);
    expect(SQL_TEXT.test(`db.query("select id from users where x = ?")`)).toBe(true);
    expect(SQL_TEXT.test("db.exec('PRAGMA foreign_keys = ON')")).toBe(true);
    expect(SQL_TEXT.test('throw badRequest("Select a file from the list")')).toBe(false);
    expect([..."x = sql`1`; // `sql` here".matchAll(/(?<![`\w])sql`/g)].length).toBe(1);
  });
});
