// The admin area inside the compiled executable: routes guarded by `{ admin: true }` must work
// there too (a minifier setting once made every guarded route answer 500 only in the binary).
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { buildBinary, startProcessServer, type ProcessServer } from "../support/process";

const root = resolve(import.meta.dir, "../..");
const KEY = "binary-admin-key-0123456789";
let server: ProcessServer;
let dir: string;

beforeAll(async () => {
  const binary = await buildBinary(root);
  dir = mkdtempSync(join(tmpdir(), "botloom-admin-bin-"));
  server = await startProcessServer([binary, "serve"], { cwd: dir, env: { ADMIN_KEY: KEY, UPDATE_CHECK_URL: "http://127.0.0.1:9/version.json" } });
}, 180_000);

afterAll(async () => {
  await server?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test("admin login, first-run settings, guarded admin endpoints and the hub page", async () => {
  const login = await fetch(`${server.url}/admin/api/login`, { method: "POST", body: new URLSearchParams({ key: KEY }), redirect: "manual" });
  const cookie = login.headers.getSetCookie()[0].split(";")[0];
  const headers = { cookie };
  const settings = await fetch(`${server.url}/admin/settings`, { method: "POST", headers, body: new URLSearchParams({ loginMode: "dev_login" }), redirect: "manual" });
  expect([settings.status, settings.headers.get("location")]).toEqual([302, "/admin"]);
  const version = await fetch(`${server.url}/admin/api/version`, { headers });
  expect(version.status).toBe(200);
  expect((await version.json()).version).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
  const check = await fetch(`${server.url}/admin/api/update-check`, { headers });
  expect((await check.json()).checkFailed).toBe(true);
  const users = await fetch(`${server.url}/admin/api/users?search=x`, { headers });
  expect(await users.json()).toEqual({ items: [], total: 0, page: 1, perPage: 20 });
  expect((await fetch(`${server.url}/admin/api/pats`, { headers })).status).toBe(200);
  expect((await fetch(`${server.url}/admin/api/users`)).status).toBe(401);
  const hub = await fetch(`${server.url}/admin`, { headers });
  expect(await hub.text()).toContain("loadStorage();");
  // the user side of authentication goes through the same machinery
  const dev = await fetch(`${server.url}/api/auth/dev-login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ userId: 42 }) });
  const sid = dev.headers.getSetCookie()[0].split(";")[0];
  const me = await fetch(`${server.url}/api/auth/me`, { headers: { cookie: sid } });
  expect(me.status).toBe(200);
}, 30_000);
