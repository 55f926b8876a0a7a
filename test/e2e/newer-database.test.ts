// Going back after an upgrade (docs/operations.md "Upgrade"): the older executable refuses a
// database a newer version migrated, in one line, before it listens — it used to start and run on a
// schema it does not know. The same database without that migration starts again.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { buildBinary, freePort, spawnServer, startProcessServer, type ProcessServer } from "../support/process";

const ADMIN_KEY = "newer-db-admin-key-0123456789";
let binary: string;
let dir: string;
const servers: ProcessServer[] = [];
const spawned: ReturnType<typeof Bun.spawn>[] = [];

beforeAll(async () => {
  binary = await buildBinary(resolve(import.meta.dir, "../.."));
  dir = mkdtempSync(join(tmpdir(), "botloom-newer-db-"));
}, 120_000);

afterAll(async () => {
  for (const s of servers) await s.stop("SIGKILL");
  for (const p of spawned) p.kill("SIGKILL");
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const database = () => join(dir, "data", "botloom.db");
const FUTURE = "future-migration-of-a-newer-version";

test("a database migrated by a newer version stops the start with one line; without that migration it starts", async () => {
  const first = await startProcessServer([binary, "serve"], { cwd: dir, env: { ADMIN_KEY } });
  servers.push(first);
  expect(await first.stop()).toBe(0);

  // What a newer version's start leaves: one more migration, later than every one this version has.
  const db = new Database(database());
  db.query("INSERT INTO __drizzle_migrations (hash, created_at) VALUES (?, ?)").run(FUTURE, Date.now() + 365 * 86_400_000);
  db.close();

  const older = spawnServer([binary, "serve"], { cwd: dir, port: await freePort(), env: { ADMIN_KEY, LOG_LEVEL: "info" } });
  spawned.push(older);
  // One that started anyway is ended here, and the exit code says so.
  const killer = setTimeout(() => older.kill("SIGKILL"), 15_000);
  const code = await older.exited;
  clearTimeout(killer);
  const [stdout, stderr] = await Promise.all([new Response(older.stdout).text(), new Response(older.stderr).text()]);
  expect({ code, listening: stdout.includes("listening on") }).toEqual({ code: 2, listening: false });
  expect(stderr.trim()).toMatch(/^botloom: the database \S+botloom\.db was upgraded by a newer version of Botloom than this one \([\d.]+\): run that version, or restore the backup made before the upgrade \(botloom restore FILE\)$/);
  expect(existsSync(join(dir, "data", "botloom.pid"))).toBe(false);

  const again = new Database(database());
  expect(again.query("SELECT count(*) AS n FROM __drizzle_migrations WHERE hash = ?").get(FUTURE)).toEqual({ n: 1 });
  again.query("DELETE FROM __drizzle_migrations WHERE hash = ?").run(FUTURE);
  again.close();
  const next = await startProcessServer([binary, "serve"], { cwd: dir, env: { ADMIN_KEY } });
  servers.push(next);
  expect((await fetch(`${next.url}/api/health`)).status).toBe(200);
  expect(await next.stop()).toBe(0);
}, 60_000);
