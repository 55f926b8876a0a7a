// The single executable: built once, started in an EMPTY folder with its own data dir.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { buildBinary, startProcessServer, type ProcessServer } from "../support/process";

const root = resolve(import.meta.dir, "../..");
let binary: string;
let server: ProcessServer;
let dir: string;

beforeAll(async () => {
  binary = await buildBinary(root);
  dir = mkdtempSync(join(tmpdir(), "botloom-bin-"));
  server = await startProcessServer([binary, "serve", "--init"], { cwd: dir, env: { LOG_LEVEL: "info" } });
}, 120_000);

afterAll(async () => {
  await server?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("compiled binary in an empty folder", () => {
  test("creates its folders and prints the admin key once", () => {
    for (const d of ["data", "bots", "uploads"]) expect(existsSync(join(dir, d))).toBe(true);
    expect(existsSync(join(dir, "data", "botloom.db"))).toBe(true);
    expect(server.output()).toContain("Admin key:");
  });

  test("health and the admin login page", async () => {
    const h = await fetch(`${server.url}/api/health`);
    expect(h.status).toBe(200);
    const body = await h.json();
    expect(body.database).toBe(true);
    expect(body.ready).toBe(true);
    const page = await fetch(`${server.url}/admin/login`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('name="key"');
  });

  test("admin login round trip", async () => {
    const key = /Admin key:\s+(\S+)/.exec(server.output())![1];
    const res = await fetch(`${server.url}/admin/api/login`, { method: "POST", body: new URLSearchParams({ key }), redirect: "manual" });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/admin/settings");
    const cookie = res.headers.getSetCookie()[0].split(";")[0];
    const status = await fetch(`${server.url}/admin/api/status`, { headers: { cookie } });
    expect(await status.json()).toEqual({ authenticated: true, adminEnabled: true });
    const wrong = await fetch(`${server.url}/admin/api/login`, { method: "POST", body: new URLSearchParams({ key: "nope" }), redirect: "manual" });
    expect(wrong.headers.get("location")).toBe("/admin/login?error=1");
  });

  test("version command", async () => {
    const p = Bun.spawnSync([binary, "version"], { cwd: dir });
    expect(p.stdout.toString().trim()).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
  });
});
