// Issue 12 item 3: storage configs decide where every user's uploads go, so managing them is for
// platform operators (named by the admin in platform.operatorIds) and the admin only; a local root
// stays inside the allowed base; the test endpoint is no network scanner; /uploads/s/ no open proxy.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { networkInterfaces, tmpdir } from "node:os";
import { join } from "node:path";
import { storageConfigs } from "../../src/db/schema";
import { adminLogin, createTestApp, loginAs, patFor, setUp, type TestApp } from "../support/app";
import { fetchBytes, fileBytes, newProject, upload } from "../media/helpers";
import { GENERIC_TEST_FAILURE, isLoopbackEndpoint } from "../../src/modules/storage/test-answer";

const OPERATOR = 1201;
const USER = 1202;
let t: TestApp;
let admin: string;
let operator: string;
let user: string;

beforeAll(async () => {
  t = createTestApp({ env: { STORAGE_ENCRYPTION_KEY: "k".repeat(40) } });
  await setUp(t);
  admin = await adminLogin(t);
  operator = await loginAs(t, OPERATOR);
  user = await loginAs(t, USER);
});
afterAll(() => t.cleanup());

const root = (name: string) => join(t.dir, name);

describe("who may manage storage configs", () => {
  test("the admin names operators in the app settings; GET returns them; bad lists are 400", async () => {
    const put = await t.call("PUT", "/admin/api/app-settings", { cookie: admin, json: { platform: { operatorIds: ` ${OPERATOR}, ${OPERATOR},` } } });
    expect(put.status).toBe(200);
    expect(put.body.platform).toEqual({ operatorIds: String(OPERATOR) });
    expect((await t.call("GET", "/admin/api/app-settings", { cookie: admin })).body.platform).toEqual({ operatorIds: String(OPERATOR) });
    for (const bad of ["abc", "1;2", "-5", "0", "1,,x", 42, "9".repeat(30)]) {
      const r = await t.call("PUT", "/admin/api/app-settings", { cookie: admin, json: { platform: { operatorIds: bad } } });
      expect([bad, r.status, r.body.error]).toEqual([bad, 400, "VALIDATION_FAILED"]);
    }
    expect((await t.call("PUT", "/admin/api/app-settings", { cookie: admin, json: { platform: { operatorIds: "1", extra: 1 } } })).status).toBe(400);
    // other sections leave the list alone
    await t.call("PUT", "/admin/api/app-settings", { cookie: admin, json: { auth: { loginMode: "dev_login" } } });
    expect((await t.call("GET", "/admin/api/app-settings", { cookie: admin })).body.platform.operatorIds).toBe(String(OPERATOR));
  });

  test("the settings page shows the list and saves it from the form", async () => {
    const page = await t.call("GET", "/admin/settings", { cookie: admin });
    expect(page.text).toContain(`name="operatorIds" value="${OPERATOR}"`);
    const form = new URLSearchParams({ loginMode: "dev_login", clientId: "", botToken: "", clientSecret: "", botUsername: "", operatorIds: `${OPERATOR},77` });
    const saved = await t.call("POST", "/admin/settings", { cookie: admin, body: form });
    expect(saved.status).toBe(302);
    expect(t.ctx.settings.isOperator(77)).toBe(true);
    const refused = await t.call("POST", "/admin/settings", { cookie: admin, body: new URLSearchParams({ loginMode: "dev_login", operatorIds: "not ids" }) });
    expect(refused.status).toBe(400);
    expect(refused.text).toContain("Platform operators");
    await t.call("PUT", "/admin/api/app-settings", { cookie: admin, json: { platform: { operatorIds: String(OPERATOR) } } });
    expect(t.ctx.settings.isOperator(77)).toBe(false);
  });

  test("an ordinary user (session or PAT, even bot_manager) gets 403 FORBIDDEN on every change, whatever the body; listing stays open", async () => {
    const created = await t.call("POST", "/api/storage-configs", { cookie: operator, json: { id: "op-disk", name: "Op disk", backend: "local", config: { rootPath: root("op-disk") } } });
    expect(created.status).toBe(201);
    const pat = patFor(t, USER, ["bot_manager"]);
    for (const auth of [{ cookie: user }, { bearer: pat }, { bearer: patFor(t, USER) }]) {
      for (const [method, path, json] of [
        ["POST", "", { name: "Mine", backend: "objstore", config: { bucket: "b", endpoint: "http://attacker.example" } }],
        ["POST", "", "not an object"],
        ["PATCH", "/op-disk", { isActive: true }],
        ["PATCH", "/op-disk", { config: { rootPath: "/etc" } }],
        ["DELETE", "/op-disk", undefined],
        ["POST", "/op-disk/test", undefined],
        ["POST", "/no-such-one/test", undefined],
      ] as const) {
        const r = await t.call(method, `/api/storage-configs${path}`, { ...auth, json });
        expect([method, path, r.status, r.body.error]).toEqual([method, path, 403, "FORBIDDEN"]);
      }
      const list = await t.call("GET", "/api/storage-configs", auth);
      expect(list.status).toBe(200);
      expect(list.body.map((c: { id: string }) => c.id)).toContain("op-disk");
    }
    const list = await t.call("GET", "/api/storage-configs", { cookie: user });
    expect(list.text).not.toContain("objectSecretAccessKey");
    expect(list.body[0]).not.toHaveProperty("secrets");
    // nothing changed
    const row = t.ctx.db.select().from(storageConfigs).all();
    expect(row.map((r) => [r.id, r.isActive])).toEqual([["op-disk", 0]]);
    // without credentials it is still 401
    expect((await t.call("POST", "/api/storage-configs/op-disk/test")).status).toBe(401);
  });

  test("the operator and the admin manage; an operator removed from the list is refused at once", async () => {
    expect((await t.call("POST", "/api/storage-configs/op-disk/test", { cookie: operator })).body.ok).toBe(true);
    expect((await t.call("PATCH", "/api/storage-configs/op-disk", { cookie: operator, json: { name: "Renamed" } })).status).toBe(200);
    expect((await t.call("PATCH", "/admin/api/storage-configs/op-disk", { cookie: admin, json: { name: "Again" } })).status).toBe(200);
    await t.call("PUT", "/admin/api/app-settings", { cookie: admin, json: { platform: { operatorIds: "" } } });
    expect((await t.call("DELETE", "/api/storage-configs/op-disk", { cookie: operator })).status).toBe(403);
    await t.call("PUT", "/admin/api/app-settings", { cookie: admin, json: { platform: { operatorIds: String(OPERATOR) } } });
    expect((await t.call("DELETE", "/api/storage-configs/op-disk", { cookie: operator })).status).toBe(200);
  });
});

describe("a local root", () => {
  test("must be absolute, inside the allowed base, not the data or bots folder; refused folders are never created", async () => {
    const outside = join(tmpdir(), `botloom-outside-${process.pid}-${Date.now()}`);
    mkdirSync(join(t.dir, "links"), { recursive: true });
    symlinkSync(tmpdir(), join(t.dir, "links", "out"));
    for (const [rootPath, says] of [
      ["relative/folder", "absolute"],
      [outside, "inside"],
      ["/etc/botloom-probe", "inside"],
      [t.dir, "inside"],
      [join(t.dir, "..", "x"), "inside"],
      [join(t.dir, "links", "out", "escaped"), "inside"],
      [t.ctx.config.dataDir, "data or bots"],
      [join(t.ctx.config.dataDir, "media"), "data or bots"],
      [join(t.ctx.config.botsDir, "1"), "data or bots"],
    ] as const) {
      for (const [who, path] of [[operator, "/api/storage-configs"], [admin, "/admin/api/storage-configs"]] as const) {
        const r = await t.call("POST", path, { cookie: who, json: { name: "Bad", backend: "local", config: { rootPath } } });
        expect([rootPath, r.status, r.body.error]).toEqual([rootPath, 400, "VALIDATION_FAILED"]);
        expect(r.body.message).toContain(says);
      }
    }
    expect(existsSync(outside)).toBe(false);
    expect(existsSync(join(tmpdir(), "escaped"))).toBe(false);
    const ok = await t.call("POST", "/api/storage-configs", { cookie: operator, json: { id: "in-base", name: "In base", backend: "local", config: { rootPath: root("in-base") } } });
    expect(ok.status).toBe(201);
    const moved = await t.call("PATCH", "/api/storage-configs/in-base", { cookie: operator, json: { config: { rootPath: outside } } });
    expect(moved.status).toBe(400);
  });

  test("a row from before the rule is never created by the test, and is not used", async () => {
    const outside = join(tmpdir(), `botloom-old-${process.pid}-${Date.now()}`);
    t.ctx.db.insert(storageConfigs).values({ id: "old-row", name: "Old", backend: "local", config: JSON.stringify({ rootPath: outside }), isActive: 0, readOnly: 0 }).run();
    t.ctx.storage.reload();
    const r = await t.call("POST", "/api/storage-configs/old-row/test", { cookie: operator });
    expect(r.status).toBe(400);
    expect(r.body.ok).toBe(false);
    expect(existsSync(outside)).toBe(false);
    expect(t.ctx.storage.backendFor("old-row")).toBeUndefined();
    t.ctx.db.delete(storageConfigs).run();
    t.ctx.storage.reload();
  });
});

describe("the test endpoint is no network scanner", () => {
  test("loopback is recognised; everything else is not", () => {
    for (const e of ["http://127.0.0.1:9000", "http://localhost:1", "http://[::1]:80", "https://127.5.5.5"]) expect(isLoopbackEndpoint(e)).toBe(true);
    for (const e of ["http://10.0.0.1", "http://127.0.0.1.example.com", "http://[::ffff:10.0.0.1]", undefined, "not a url", "http://169.254.169.254"]) expect(isLoopbackEndpoint(e)).toBe(false);
  });

  test("a refused port and an HTTP 404 of a non-loopback address answer the same one sentence", async () => {
    const address = Object.values(networkInterfaces()).flat().find((i) => i && i.family === "IPv4" && !i.internal)?.address;
    if (!address) return console.warn("no non-loopback IPv4 interface on this machine: skipped");
    const server = Bun.serve({ port: 0, hostname: "0.0.0.0", fetch: () => new Response("nope", { status: 404 }) });
    const closed = Bun.serve({ port: 0, hostname: "0.0.0.0", fetch: () => new Response("") });
    const closedPort = closed.port;
    closed.stop(true);
    try {
      const answers: unknown[] = [];
      for (const [id, port] of [["scan-404", server.port], ["scan-refused", closedPort]] as const) {
        const c = await t.call("POST", "/api/storage-configs", { cookie: operator, json: { id, name: id, backend: "objstore", config: { bucket: "bucket-one", endpoint: `http://${address}:${port}` } } });
        expect(c.status).toBe(201);
        const r = await t.call("POST", `/api/storage-configs/${id}/test`, { cookie: operator });
        expect(r.status).toBe(400);
        answers.push(r.body);
      }
      expect(answers[0]).toEqual({ error: "VALIDATION_FAILED", message: GENERIC_TEST_FAILURE, ok: false });
      expect(answers[1]).toEqual(answers[0]);
    } finally {
      server.stop(true);
    }
  }, 20_000);
});

describe("/uploads/s/ is no open proxy", () => {
  test("only a recorded object of the recorded size is served; another answer of the backend is refused", async () => {
    const project = await newProject(t, operator);
    const dir = root("served");
    await t.call("POST", "/api/storage-configs", { cookie: operator, json: { id: "served", name: "Served", backend: "local", config: { rootPath: dir } } });
    await t.call("PATCH", "/api/storage-configs/served", { cookie: operator, json: { isActive: true } });
    const up = await upload(t, operator, project, fileBytes("image/png", 300), "a.png", "image/png");
    expect(up.status).toBe(201);
    expect((await fetchBytes(t, up.body.url)).status).toBe(200);
    // unrecorded keys are not served even when the file exists
    writeFileSync(join(dir, String(project), "other.png"), "x");
    expect((await fetchBytes(t, `/uploads/s/served/${project}/other.png`)).status).toBe(404);
    // the backend now answers something else under the recorded key
    writeFileSync(join(dir, up.body.url.slice("/uploads/s/served/".length)), "<html><script>alert(1)</script></html>");
    const swapped = await t.call("GET", up.body.url);
    expect(swapped.status).toBe(502);
    expect(swapped.text).not.toContain("<script>");
    await t.call("PATCH", "/api/storage-configs/served", { cookie: operator, json: { isActive: false } });
  });
});
