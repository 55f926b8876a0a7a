// The executable is split into chunks (scripts/build.ts): code reached only through import() is
// loaded on first use. These paths are never taken by a start, so they are proven here, in the
// binary: the MCP SDK answers /mcp, the S3 SDK talks to a real S3-compatible server, the Tables
// reads' worker thread (an entry point of its own) lists and pages a scenario table, the campaign
// sender's worker thread (another) sends a campaign on the fake messenger.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { Database } from "bun:sqlite";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { buildBinary, startProcessServer, until, type ProcessServer } from "../support/process";
import { startS3Server, type S3TestServer } from "../support/s3-server";
import { startFakeMessenger, type FakeMessenger } from "../support/fake-messenger";

const root = resolve(import.meta.dir, "../..");
const ADMIN_KEY = "chunks-admin-key-0123456789";
const OPERATOR = 801;
let binary: string;
let server: ProcessServer;
let s3: S3TestServer;
let fake: FakeMessenger;
let dir: string;
let cookie: string;

beforeAll(async () => {
  binary = await buildBinary(root);
  s3 = await startS3Server({ buckets: ["botloom-media"] });
  fake = await startFakeMessenger();
  dir = mkdtempSync(join(tmpdir(), "botloom-chunks-"));
  const env = { ADMIN_KEY, SESSION_SECRET: "chunks-session-secret-0123456789", STORAGE_ENCRYPTION_KEY: "chunks-storage-key-0123456789-0123456789", MESSENGER_API_ROOT: fake.url };
  server = await startProcessServer([binary, "serve"], { cwd: dir, env });
  const login = await fetch(`${server.url}/admin/api/login`, { method: "POST", body: new URLSearchParams({ key: ADMIN_KEY }), redirect: "manual" });
  const admin = login.headers.getSetCookie()[0].split(";")[0];
  const settings = { auth: { loginMode: "dev_login" }, platform: { operatorIds: String(OPERATOR) } };
  const saved = await fetch(`${server.url}/admin/api/app-settings`, { method: "PUT", headers: { cookie: admin, "content-type": "application/json" }, body: JSON.stringify(settings) });
  expect(saved.status).toBe(200);
  const dev = await fetch(`${server.url}/api/auth/dev-login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ userId: OPERATOR }) });
  cookie = dev.headers.getSetCookie()[0].split(";")[0];
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await s3?.stop();
  await fake?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("chunks loaded on first use inside the executable", () => {
  test("/mcp: the MCP SDK loads and answers initialize for a PAT", async () => {
    const cli = Bun.spawn([binary, "pat", "create", "--user", String(OPERATOR)], { cwd: dir, env: { PATH: process.env.PATH ?? "", LOG_LEVEL: "silent" }, stdout: "pipe", stderr: "pipe" });
    expect(await cli.exited).toBe(0);
    const pat = (await new Response(cli.stdout).text()).trim();
    const init = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "chunks", version: "1" } } };
    const res = await fetch(`${server.url}/mcp`, {
      method: "POST",
      headers: { authorization: `Bearer ${pat}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify(init),
    });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.id).toBe(1);
    expect(typeof body.result.serverInfo.name).toBe("string");
  });

  test("the Tables reads' worker starts inside the executable and pages a scenario table", async () => {
    const made = await fetch(`${server.url}/api/projects`, { method: "POST", headers: { cookie, "content-type": "application/json" }, body: JSON.stringify({ name: "Tables" }) });
    const { id } = await made.json();
    mkdirSync(join(dir, "data", "projects"), { recursive: true });
    const file = new Database(join(dir, "data", "projects", `${id}-tables.db`), { create: true });
    file.exec("CREATE TABLE orders (id INTEGER PRIMARY KEY AUTOINCREMENT, item)");
    file.exec("INSERT INTO orders (item) VALUES ('tea'), ('coffee')");
    file.close();
    const list = await fetch(`${server.url}/api/projects/${id}/tables`, { headers: { cookie } });
    expect(list.status).toBe(200);
    expect((await list.json()).items.map((t: { name: string; rows: number }) => [t.name, t.rows])).toEqual([["orders", 2]]);
    const rows = await fetch(`${server.url}/api/projects/${id}/tables/orders/rows?sort=item`, { headers: { cookie } });
    expect((await rows.json()).items.map((r: { item: string }) => r.item)).toEqual(["coffee", "tea"]);
    const imported = await fetch(`${server.url}/api/projects/${id}/tables/orders/import`, { method: "POST", headers: { cookie, "content-type": "text/csv" }, body: "item\nwater\n" });
    expect(await imported.json()).toEqual({ inserted: 1 });
  });

  test("the campaign sender's worker starts inside the executable and sends a campaign to every recipient once", async () => {
    const json = (method: string, path: string, body?: unknown) =>
      fetch(`${server.url}${path}`, { method, headers: { cookie, "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) }).then(async (r) => ({ status: r.status, body: await r.json() }));
    const { body: project } = await json("POST", "/api/projects", { name: "Campaigns" });
    const bot = fake.addBot();
    const token = await json("POST", `/api/bot/projects/${project.id}/tokens`, { token: bot.token });
    expect(token.status).toBe(200);
    const base = `/api/bot/tokens/${token.body.id}/campaigns`;
    await json("POST", `${base}/audience-size`, {}); // creates the project file
    const file = new Database(join(dir, "data", "projects", `${project.id}.db`));
    file.exec("PRAGMA busy_timeout = 5000");
    const now = new Date().toISOString();
    for (let i = 0; i < 5; i++) file.run("INSERT INTO bot_users (token_id, user_id, first_name, first_seen_at, last_seen_at) VALUES (?, ?, ?, ?, ?)", [token.body.id, String(9_100_000 + i), `U${i}`, now, now]);
    file.close();
    const c = await json("POST", base, { name: "Binary", message: { text: "Hi {first_name}" }, audience: {} });
    expect((await json("POST", `${base}/${c.body.id}/start`)).status).toBe(200);
    const done = await until(async () => {
      const now = await json("GET", `${base}/${c.body.id}`);
      return now.body.status === "done" ? now.body : undefined;
    }, "the campaign done");
    expect(done.counts).toMatchObject({ sent: 5, failed: 0, pending: 0 });
    const got = fake.sent(bot.token).filter((m) => m.method === "sendMessage").map((m) => String(m.params.text)).sort();
    expect(got).toEqual(["Hi U0", "Hi U1", "Hi U2", "Hi U3", "Hi U4"]);
  }, 30_000);

  test("object storage: the S3 SDK loads and reaches the bucket; wrong credentials are refused", async () => {
    // s3rver checks the access key id of a signed request (not the signature): a foreign id is refused.
    const create = async (keyId: string) => {
      const r = await fetch(`${server.url}/api/storage-configs`, {
        method: "POST",
        headers: { cookie, "content-type": "application/json" },
        body: JSON.stringify({
          name: `S3 ${keyId}`,
          backend: "objstore",
          config: { bucket: "botloom-media", endpoint: s3.endpoint, forcePathStyle: true },
          objectAccessKeyId: keyId,
          objectSecretAccessKey: s3.secretAccessKey,
        }),
      });
      expect(r.status).toBe(201);
      return (await r.json()).id as string;
    };
    const probe = async (id: string) => (await fetch(`${server.url}/api/storage-configs/${id}/test`, { method: "POST", headers: { cookie } })).json();
    expect((await probe(await create(s3.accessKeyId))).ok).toBe(true);
    expect((await probe(await create("AKFOREIGN0123456789"))).ok).toBe(false);
  }, 30_000);
});
