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

  test("the API viewer's files come from inside the executable, byte for byte", async () => {
    const key = /Admin key:\s+(\S+)/.exec(server.output())![1];
    const login = await fetch(`${server.url}/admin/api/login`, { method: "POST", body: new URLSearchParams({ key }), redirect: "manual" });
    const cookie = login.headers.getSetCookie()[0].split(";")[0];
    const setup = await fetch(`${server.url}/admin/api/app-settings`, { method: "PUT", headers: { cookie, "content-type": "application/json" }, body: JSON.stringify({ auth: { loginMode: "dev_login" } }) });
    expect(setup.status).toBe(200);
    expect((await fetch(`${server.url}/api/docs`)).status).toBe(200);
    for (const [path, file] of [["/api/docs/swagger-ui-bundle.js", "node_modules/swagger-ui-dist/swagger-ui-bundle.js"], ["/api/docs/swagger-ui.css", "node_modules/swagger-ui-dist/swagger-ui.css"], ["/api/docs/init.js", "assets/api-docs/init.js"]]) {
      const served = await (await fetch(server.url + path)).text();
      expect([path, served === (await Bun.file(join(root, file)).text())]).toEqual([path, true]);
    }
    expect((await (await fetch(`${server.url}/api/openapi.json`)).json()).paths["/api/health"]).toBeDefined();
  });

  test("generate and export run in the generator's worker thread, embedded in the executable", async () => {
    // dev login was switched on by the test above
    const dev = await fetch(`${server.url}/api/auth/dev-login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ userId: 77 }) });
    const headers = { cookie: dev.headers.getSetCookie()[0].split(";")[0], "content-type": "application/json" };
    const project = await (await fetch(`${server.url}/api/projects`, { method: "POST", headers, body: JSON.stringify({ name: "Bin" }) })).json();
    const generated = await fetch(`${server.url}/api/projects/${project.id}/generate`, { method: "POST", headers, body: "{}" });
    const body = await generated.json();
    expect([generated.status, typeof body.code, body.lines > 10]).toEqual([200, "string", true]);
    const exported = await fetch(`${server.url}/api/projects/${project.id}/export`, { method: "POST", headers, body: "{}" });
    expect([exported.status, (await exported.json()).code.includes("grammy")]).toEqual([200, true]);
  });

  test("backup while it runs; restore refuses while it runs", () => {
    const env = { PATH: process.env.PATH ?? "", LOG_LEVEL: "silent" };
    const backup = Bun.spawnSync([binary, "backup"], { cwd: dir, env });
    expect(backup.exitCode).toBe(0);
    const archive = /Backup written to (\S+\.tar\.gz)/.exec(backup.stdout.toString())![1];
    expect(existsSync(archive)).toBe(true);
    const restore = Bun.spawnSync([binary, "restore", archive], { cwd: dir, env });
    expect(restore.exitCode).toBe(1);
    expect(restore.stderr.toString()).toContain("is running");
  });

  test("version command", async () => {
    const p = Bun.spawnSync([binary, "version"], { cwd: dir });
    expect(p.stdout.toString().trim()).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
  });
});
