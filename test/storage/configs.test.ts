// docs/api.md#storage-configs with the local backend: fields, ids, validation, activation, delete rules.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { mediaFiles, storageConfigs } from "../../src/db/schema";
import { createTestApp, loginAs, patFor, setUp, type TestApp } from "../support/app";
import { ENCRYPTION_KEY } from "../media/helpers";

let t: TestApp;
let cookie: string;

beforeAll(async () => {
  t = createTestApp({ env: { STORAGE_ENCRYPTION_KEY: ENCRYPTION_KEY } });
  await setUp(t, { operators: [501] });
  cookie = await loginAs(t, 501);
});
afterAll(() => t.cleanup());

const create = (json: unknown) => t.call("POST", "/api/storage-configs", { cookie, json });
const root = (name: string) => join(t.dir, "roots", name);

describe("auth and setup", () => {
  test("401 without a session or PAT, 503 before setup", async () => {
    expect((await t.call("GET", "/api/storage-configs")).status).toBe(401);
    expect((await t.call("POST", "/api/storage-configs/x1/test")).status).toBe(401);
    const fresh = createTestApp();
    try {
      const r = await fresh.call("GET", "/api/storage-configs");
      expect(r.status).toBe(503);
      expect(r.body.error).toBe("NOT_SET_UP");
    } finally {
      fresh.cleanup();
    }
  });

  test("a PAT works like the session", async () => {
    const r = await t.call("GET", "/api/storage-configs", { bearer: patFor(t, 502) });
    expect(r.status).toBe(200);
    expect(Array.isArray(r.body)).toBe(true);
  });
});

describe("create", () => {
  test("201 with the docs/api.md fields, inactive, without secrets", async () => {
    const r = await create({ name: "Main disk", backend: "local", config: { rootPath: root("main") } });
    expect(r.status).toBe(201);
    expect(r.body).toEqual({
      id: "main-disk",
      name: "Main disk",
      backend: "local",
      isActive: false,
      config: { rootPath: root("main") },
      readOnly: false,
      hasSecrets: false,
      createdAt: expect.any(String),
    });
    expect(new Date(r.body.createdAt).toISOString()).toBe(r.body.createdAt);
    const list = await t.call("GET", "/api/storage-configs", { cookie });
    expect(list.body.map((c: any) => c.id)).toContain("main-disk");
  });

  test("ids from names: slug, suffix when taken, transliteration, fallback", async () => {
    expect((await create({ name: "Main disk", backend: "local", config: { rootPath: root("m2") } })).body.id).toBe("main-disk-2");
    expect((await create({ name: "Main disk", backend: "local", config: { rootPath: root("m3") } })).body.id).toBe("main-disk-3");
    expect((await create({ name: "Основное хранилище", backend: "local", config: { rootPath: root("ru") } })).body.id).toBe("osnovnoe-hranilische");
    expect((await create({ name: "Café Übersee", backend: "local", config: { rootPath: root("fr") } })).body.id).toBe("cafe-ubersee");
    expect((await create({ name: "写真", backend: "local", config: { rootPath: root("zh") } })).body.id).toBe("storage");
    expect((await create({ name: "写真", backend: "local", config: { rootPath: root("zh2") } })).body.id).toBe("storage-2");
  });

  test("explicit id; 409 when it exists", async () => {
    const r = await create({ id: "archive-01", name: "Archive", backend: "local", config: { rootPath: root("a") }, readOnly: true });
    expect(r.status).toBe(201);
    expect(r.body.id).toBe("archive-01");
    expect(r.body.readOnly).toBe(true);
    const dup = await create({ id: "archive-01", name: "Other", backend: "local", config: { rootPath: root("b") } });
    expect(dup.status).toBe(409);
    expect(dup.body.error).toBe("CONFLICT");
  });

  test("validation failures are 400 VALIDATION_FAILED", async () => {
    const bad: unknown[] = [
      {},
      { name: "x", backend: "ftp", config: {} },
      { name: "", backend: "local", config: { rootPath: "/tmp/x" } },
      { name: "x", backend: "local", config: {} },
      { name: "x", backend: "local", config: { rootPath: "/tmp/x", extra: 1 } },
      { name: "x", backend: "local", config: { rootPath: 42 } },
      { name: "x", backend: "local", config: "nope" },
      { name: "x", backend: "local", config: { rootPath: "/tmp/x" }, unknownField: true },
      { name: "x", backend: "local", config: { rootPath: "/tmp/x" }, isActive: true },
      { id: "Bad_Id", name: "x", backend: "local", config: { rootPath: "/tmp/x" } },
      { id: "a", name: "x", backend: "local", config: { rootPath: "/tmp/x" } },
      { id: "-ab", name: "x", backend: "local", config: { rootPath: "/tmp/x" } },
      { name: "x".repeat(101), backend: "local", config: { rootPath: "/tmp/x" } },
      { name: "x", backend: "objstore", config: {} },
      { name: "x", backend: "objstore", config: { bucket: "b" } },
      { name: "x", backend: "objstore", config: { bucket: "bucket", endpoint: "not a url" } },
      { name: "x", backend: "objstore", config: { bucket: "bucket", endpoint: "ftp://host" } },
      { name: "x", backend: "objstore", config: { bucket: "bucket", endpoint: "http://u:p@host" } },
      { name: "x", backend: "objstore", config: { bucket: "bucket", forcePathStyle: "yes" } },
      { name: "x", backend: "objstore", config: { bucket: "bucket", publicUrlBase: "javascript:alert(1)" } },
      { name: "x", backend: "objstore", config: { bucket: "bucket" }, objectAccessKeyId: "only-one" },
      { name: "x", backend: "objstore", config: { bucket: "bucket" }, objectSecretAccessKey: "only-one" },
      { name: "x", backend: "local", config: { rootPath: "/tmp/x" }, objectAccessKeyId: "abc", objectSecretAccessKey: "def" },
      { name: "x", backend: "objstore", config: { bucket: "bucket" }, objectAccessKeyId: 5, objectSecretAccessKey: "def" },
    ];
    for (const body of bad) {
      const r = await create(body);
      expect({ body, status: r.status, error: r.body?.error }).toEqual({ body, status: 400, error: "VALIDATION_FAILED" });
      expect(typeof r.body.message).toBe("string");
    }
  });

  test("malformed JSON is 400", async () => {
    const r = await t.call("POST", "/api/storage-configs", { cookie, body: "{nope", headers: { "content-type": "application/json" } });
    expect(r.status).toBe(400);
    expect(r.body.error).toBe("VALIDATION_FAILED");
  });

  test("objstore config keys: region default, optional endpoint, path style, public base", async () => {
    const r = await create({ name: "Bucket", backend: "objstore", config: { bucket: "media", endpoint: "http://127.0.0.1:9", forcePathStyle: true, publicUrlBase: "https://cdn.example.com/m" } });
    expect(r.status).toBe(201);
    expect(r.body.config).toEqual({ bucket: "media", region: "us-east-1", endpoint: "http://127.0.0.1:9", forcePathStyle: true, publicUrlBase: "https://cdn.example.com/m" });
    expect(r.body.hasSecrets).toBe(false);
  });
});

describe("update", () => {
  test("404 for an unknown id, 400 for an invalid one", async () => {
    expect((await t.call("PATCH", "/api/storage-configs/nope-nope", { cookie, json: { name: "x" } })).status).toBe(404);
    expect((await t.call("PATCH", "/api/storage-configs/BAD..id", { cookie, json: { name: "x" } })).status).toBe(400);
    expect((await t.call("DELETE", "/api/storage-configs/nope-nope", { cookie })).status).toBe(404);
    expect((await t.call("POST", "/api/storage-configs/nope-nope/test", { cookie })).status).toBe(404);
  });

  test("name, readOnly; config replaces the whole object and is validated for the stored backend", async () => {
    const id = (await create({ name: "Patchable", backend: "local", config: { rootPath: root("p1") } })).body.id;
    let r = await t.call("PATCH", `/api/storage-configs/${id}`, { cookie, json: { name: "Renamed", readOnly: true } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ id, name: "Renamed", readOnly: true, config: { rootPath: root("p1") } });
    r = await t.call("PATCH", `/api/storage-configs/${id}`, { cookie, json: { config: { rootPath: root("p2") } } });
    expect(r.body.config).toEqual({ rootPath: root("p2") });
    r = await t.call("PATCH", `/api/storage-configs/${id}`, { cookie, json: { config: { bucket: "b1b" } } });
    expect(r.status).toBe(400);
    r = await t.call("PATCH", `/api/storage-configs/${id}`, { cookie, json: { backend: "objstore" } });
    expect(r.status).toBe(400);
    r = await t.call("PATCH", `/api/storage-configs/${id}`, { cookie, json: { isActive: "yes" } });
    expect(r.status).toBe(400);
  });

  test("activating one deactivates all others; deactivating works too", async () => {
    const a = (await create({ name: "Act A", backend: "local", config: { rootPath: root("act-a") } })).body.id;
    const b = (await create({ name: "Act B", backend: "local", config: { rootPath: root("act-b") } })).body.id;
    expect((await t.call("PATCH", `/api/storage-configs/${a}`, { cookie, json: { isActive: true } })).body.isActive).toBe(true);
    expect((await t.call("PATCH", `/api/storage-configs/${b}`, { cookie, json: { isActive: true } })).body.isActive).toBe(true);
    const list = (await t.call("GET", "/api/storage-configs", { cookie })).body as any[];
    expect(list.filter((c) => c.isActive).map((c) => c.id)).toEqual([b]);
    expect((await t.call("PATCH", `/api/storage-configs/${b}`, { cookie, json: { isActive: false } })).body.isActive).toBe(false);
    const after = (await t.call("GET", "/api/storage-configs", { cookie })).body as any[];
    expect(after.filter((c) => c.isActive)).toEqual([]);
  });
});

describe("test endpoint (local)", () => {
  test("a creatable folder passes; the probe file is removed; the config is not activated", async () => {
    const dir = root("creatable/deep");
    const id = (await create({ name: "Creatable", backend: "local", config: { rootPath: dir } })).body.id;
    const r = await t.call("POST", `/api/storage-configs/${id}/test`, { cookie });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ ok: true, message: expect.any(String) });
    expect(existsSync(dir)).toBe(true);
    expect(readdirSync(dir)).toEqual([]);
    const list = (await t.call("GET", "/api/storage-configs", { cookie })).body as any[];
    expect(list.find((c) => c.id === id).isActive).toBe(false);
  });

  test("a file in the way or an unwritable folder fails with 400 {ok:false}", async () => {
    mkdirSync(root(""), { recursive: true });
    writeFileSync(root("a-file"), "x");
    const id = (await create({ name: "Blocked", backend: "local", config: { rootPath: root("a-file/sub") } })).body.id;
    const r = await t.call("POST", `/api/storage-configs/${id}/test`, { cookie });
    expect(r.status).toBe(400);
    expect(r.body.ok).toBe(false);
    expect(r.body.message).toContain("not writable");

    if (process.getuid?.() !== 0) {
      const ro = root("read-only");
      mkdirSync(ro, { recursive: true });
      chmodSync(ro, 0o500);
      const id2 = (await create({ name: "RO folder", backend: "local", config: { rootPath: ro } })).body.id;
      const r2 = await t.call("POST", `/api/storage-configs/${id2}/test`, { cookie });
      expect(r2.status).toBe(400);
      expect(r2.body.ok).toBe(false);
      chmodSync(ro, 0o700);
    }
  });
});

describe("delete", () => {
  test("200 {ok, id}; 409 with filesCount while media references it; files stay on disk", async () => {
    const dir = root("del");
    const id = (await create({ name: "Deletable", backend: "local", config: { rootPath: dir } })).body.id;
    // A media record on this config (through the table: the upload path is tested in test/media).
    const project = await t.call("POST", "/api/projects", { cookie, json: { name: "P" } });
    expect(project.status).toBe(201);
    mkdirSync(join(dir, "x"), { recursive: true });
    writeFileSync(join(dir, "x", "f.txt"), "keep me");
    t.ctx.db.insert(mediaFiles).values({ projectId: project.body.id, storageConfigId: id, objectKey: "x/f.txt", kind: "document", fileName: "f.txt", mimeType: "text/plain", size: 7 }).run();
    t.ctx.db.insert(mediaFiles).values({ projectId: project.body.id, storageConfigId: id, objectKey: "x/g.txt", kind: "document", fileName: "g.txt", mimeType: "text/plain", size: 7 }).run();
    const r = await t.call("DELETE", `/api/storage-configs/${id}`, { cookie });
    expect(r.status).toBe(409);
    expect(r.body).toMatchObject({ error: "CONFLICT", filesCount: 2 });
    t.ctx.db.delete(mediaFiles).run();
    const ok = await t.call("DELETE", `/api/storage-configs/${id}`, { cookie });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ ok: true, id });
    expect(existsSync(join(dir, "x", "f.txt"))).toBe(true);
    expect(t.ctx.db.select().from(storageConfigs).all().some((c) => c.id === id)).toBe(false);
    expect((await t.call("DELETE", `/api/storage-configs/${id}`, { cookie })).status).toBe(404);
  });
});
