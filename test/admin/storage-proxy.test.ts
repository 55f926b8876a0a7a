// Admin twins of the storage endpoints (the hub cannot use connect.sid): same service, same rules.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { adminLogin, createTestApp, loginAs, patFor, setUp, type TestApp } from "../support/app";

const ENC_KEY = "storage-encryption-key-0123456789abcdef";
let t: TestApp;
let admin: string;
beforeAll(async () => {
  t = createTestApp({ env: { STORAGE_ENCRYPTION_KEY: ENC_KEY } });
  await setUp(t);
  admin = await adminLogin(t);
});
afterAll(() => t.cleanup());

const call = (method: string, path: string, json?: unknown) => t.call(method, `/admin/api/storage-configs${path}`, { cookie: admin, json });

describe("/admin/api/storage-configs", () => {
  test("401 ADMIN_UNAUTHORIZED without an admin session; user sessions and PATs do not count", async () => {
    const user = await loginAs(t, 7);
    const pat = patFor(t, 7);
    for (const [method, path, json] of [
      ["GET", "", undefined],
      ["POST", "", { name: "x", backend: "local", config: { rootPath: "/tmp/x" } }],
      ["PATCH", "/disk", { isActive: true }],
      ["POST", "/disk/test", undefined],
      ["DELETE", "/disk", undefined],
    ] as const) {
      for (const auth of [{}, { cookie: user }, { bearer: pat }]) {
        const r = await t.call(method, `/admin/api/storage-configs${path}`, { ...auth, json });
        expect([method, path, r.status, r.body.error]).toEqual([method, path, 401, "ADMIN_UNAUTHORIZED"]);
      }
    }
  });

  test("list, create, test, activate; the user API sees the same configs", async () => {
    expect((await call("GET", "")).body).toEqual([]);
    const folder = join(t.dir, "disk-one");
    const created = await call("POST", "", { name: "Disk one", backend: "local", config: { rootPath: folder } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ id: "disk-one", name: "Disk one", backend: "local", isActive: false, readOnly: false, hasSecrets: false, config: { rootPath: folder } });
    const second = await call("POST", "", { id: "disk-two", name: "Disk two", backend: "local", config: { rootPath: join(t.dir, "disk-two") } });
    expect(second.status).toBe(201);

    const tested = await call("POST", "/disk-one/test");
    expect(tested.status).toBe(200);
    expect(tested.body.ok).toBe(true);
    expect(typeof tested.body.message).toBe("string");

    const active = await call("PATCH", "/disk-one", { isActive: true });
    expect(active.status).toBe(200);
    expect(active.body.isActive).toBe(true);
    const switched = await call("PATCH", "/disk-two", { isActive: true });
    expect(switched.body.isActive).toBe(true);
    const list = (await call("GET", "")).body as { id: string; isActive: boolean }[];
    expect(list.map((c) => [c.id, c.isActive])).toEqual([
      ["disk-one", false],
      ["disk-two", true],
    ]);

    const userView = await t.call("GET", "/api/storage-configs", { cookie: await loginAs(t, 8) });
    expect(userView.body).toEqual(list);

    // deactivate and delete (objects stay; 409 while media use it is the storage module's rule)
    expect((await call("PATCH", "/disk-two", { isActive: false })).body.isActive).toBe(false);
    expect((await call("DELETE", "/disk-two")).body).toEqual({ ok: true, id: "disk-two" });
    expect((await call("DELETE", "/disk-two")).status).toBe(404);
    expect((await call("GET", "")).body.map((c: { id: string }) => c.id)).toEqual(["disk-one"]);
  });

  test("object-store credentials are stored sealed and never returned", async () => {
    const r = await call("POST", "", {
      name: "Bucket",
      backend: "objstore",
      config: { bucket: "media", region: "us-east-1", endpoint: "http://127.0.0.1:9", forcePathStyle: true },
      objectAccessKeyId: "AKIA-ADMIN-PROXY",
      objectSecretAccessKey: "very-secret-admin-proxy-value",
    });
    expect(r.status).toBe(201);
    expect(r.body.hasSecrets).toBe(true);
    const all = await call("GET", "");
    expect(all.text).not.toContain("very-secret-admin-proxy-value");
    expect(all.text).not.toContain("AKIA-ADMIN-PROXY");
  });

  test("errors: validation 400, duplicate id 409, unknown 404, bad id 400, failing test 400 {ok:false}", async () => {
    const bad = await call("POST", "", { name: "", backend: "ftp", config: {} });
    expect([bad.status, bad.body.error]).toEqual([400, "VALIDATION_FAILED"]);
    const noRoot = await call("POST", "", { name: "No root", backend: "local", config: {} });
    expect(noRoot.status).toBe(400);
    expect(noRoot.body.message).toContain("rootPath");
    const malformed = await t.call("POST", "/admin/api/storage-configs", { cookie: admin, body: "{nope", headers: { "content-type": "application/json" } });
    expect(malformed.status).toBe(400);
    const dup = await call("POST", "", { id: "disk-one", name: "Again", backend: "local", config: { rootPath: join(t.dir, "x") } });
    expect([dup.status, dup.body.error]).toEqual([409, "CONFLICT"]);
    for (const [method, path, json] of [["PATCH", "/missing-one", { isActive: true }], ["POST", "/missing-one/test", undefined]] as const) {
      const r = await call(method, path, json);
      expect([method, r.status, r.body.error]).toEqual([method, 404, "NOT_FOUND"]);
    }
    for (const id of ["UPPER", "a", "-x", "x_y"]) {
      const r = await call("PATCH", `/${id}`, { isActive: true });
      expect([id, r.status]).toEqual([id, 400]);
    }
    expect((await call("PATCH", "/disk-one", { isActive: "yes" })).status).toBe(400);
    expect((await call("PATCH", "/disk-one", { unknownField: 1 })).status).toBe(400);

    // a "folder" below a regular file can never be created
    const file = join(t.dir, "plain-file");
    writeFileSync(file, "x");
    expect((await call("POST", "", { id: "broken", name: "Broken", backend: "local", config: { rootPath: join(file, "sub") } })).status).toBe(201);
    const failed = await call("POST", "/broken/test");
    expect(failed.status).toBe(400);
    expect(failed.body.ok).toBe(false);
    expect(typeof failed.body.message).toBe("string");
  });

  test("credentials without STORAGE_ENCRYPTION_KEY: 400 with a clear message", async () => {
    const n = createTestApp();
    try {
      const r = await n.call("POST", "/admin/api/storage-configs", {
        cookie: await adminLogin(n),
        json: { name: "B", backend: "objstore", config: { bucket: "media" }, objectAccessKeyId: "id", objectSecretAccessKey: "secret" },
      });
      expect(r.status).toBe(400);
      expect(r.body.message).toContain("STORAGE_ENCRYPTION_KEY");
    } finally {
      n.cleanup();
    }
  });
});
