// A preview from the single executable in an empty folder: the preview bot is spawned from the
// binary itself (BUN_BE_BUN=1, bot modules written from the embedded bundles), talks to the
// in-product emulator, answers, and leaves nothing behind when stopped.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { greeterScenario } from "../bots/scenario-fixture";
import { buildBinary, childPids, freePort, startProcessServer, type ProcessServer } from "../support/process";

const ADMIN_KEY = "preview-admin-key-0123456789";
let server: ProcessServer;
let dir: string;

beforeAll(async () => {
  const binary = await buildBinary(resolve(import.meta.dir, "../.."));
  dir = mkdtempSync(join(tmpdir(), "botloom-preview-bin-"));
  // MESSENGER_API_ROOT points nowhere: a preview must never need the messenger
  const env = { ADMIN_KEY, SESSION_SECRET: "preview-session-secret-0123456789", MESSENGER_API_ROOT: "http://127.0.0.1:9" };
  server = await startProcessServer([binary, "serve"], { cwd: dir, env, port: await freePort() });
}, 120_000);

afterAll(async () => {
  await server?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test("the binary runs a preview bot against its emulator; stop leaves no process and no folder", async () => {
  const url = server.url;
  const login = await fetch(`${url}/admin/api/login`, { method: "POST", body: new URLSearchParams({ key: ADMIN_KEY }), redirect: "manual" });
  const admin = login.headers.getSetCookie()[0]!.split(";")[0]!;
  await fetch(`${url}/admin/api/app-settings`, { method: "PUT", headers: { cookie: admin, "content-type": "application/json" }, body: JSON.stringify({ auth: { loginMode: "dev_login" } }) });
  const dev = await fetch(`${url}/api/auth/dev-login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ userId: 1, firstName: "Ada" }) });
  const cookie = dev.headers.getSetCookie()[0]!.split(";")[0]!;
  const headers = { cookie, "content-type": "application/json" };
  const call = async (method: string, path: string, body?: unknown) => {
    const r = await fetch(`${url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: r.status, body: (await r.json()) as any };
  };

  const project = await call("POST", "/api/projects", { name: "Greeter", data: greeterScenario });
  const created = await call("POST", `/api/projects/${project.body.id}/preview`, {});
  expect(created.status).toBe(201);
  expect(created.body.status).toBe("running");
  const id = created.body.id;
  const sent = await call("POST", `/api/preview/${id}/actions`, { type: "text", text: "/start" });
  let version = sent.body.version;
  let reply: any;
  for (let i = 0; i < 20 && !reply; i++) {
    const t = await call("GET", `/api/preview/${id}/transcript?after=${version}&wait=2000`);
    version = t.body.version;
    reply = t.body.entries.find((e: any) => e.from === "bot");
  }
  expect(reply?.text).toBe("Привет, Preview!");

  const previews = join(dir, "bots", ".preview");
  expect(readdirSync(previews)).toHaveLength(1);
  expect((await call("DELETE", `/api/preview/${id}`)).status).toBe(200);
  expect(existsSync(join(previews, id))).toBe(false);
  // the preview bot was the server's only child process
  expect(childPids(server.proc.pid, () => true)).toEqual([]);
}, 120_000);
