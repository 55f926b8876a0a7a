// Storage rule 2-3: credentials sealed with AES-256-GCM, the "no key" 400, PATCH keeping or
// re-sealing them, and a changed server key answering clearly instead of failing obscurely.
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { storageConfigs } from "../../src/db/schema";
import { open, seal, UnreadableSecretError } from "../../src/modules/storage/crypto";
import { createTestApp, loginAs, setUp, type TestApp } from "../support/app";
import { ENCRYPTION_KEY } from "../media/helpers";

const KEY_ID = "AKIDCRYPTOTEST0123";
const SECRET = "crypto-test-secret-9f8e7d6c5b4a";
const objstore = (extra: Record<string, unknown> = {}) => ({
  name: "Bucket",
  backend: "objstore",
  config: { bucket: "media", endpoint: "http://127.0.0.1:9" },
  ...extra,
});

const apps: TestApp[] = [];
afterAll(() => apps.forEach((a) => a.cleanup()));

async function app(env: Record<string, string> = {}, dbPath?: string) {
  const t = createTestApp({ env, dbPath });
  apps.push(t);
  await setUp(t, { operators: [601] });
  return { t, cookie: await loginAs(t, 601) };
}

describe("seal / open", () => {
  test("round trip; random IV; bound to the key and the row", () => {
    const a = seal(ENCRYPTION_KEY, "hello ключ", "storage_configs:a");
    const b = seal(ENCRYPTION_KEY, "hello ключ", "storage_configs:a");
    expect(a).not.toBe(b);
    expect(a.startsWith("v1.")).toBe(true);
    expect(a).not.toContain("hello");
    expect(open(ENCRYPTION_KEY, a, "storage_configs:a")).toBe("hello ключ");
    expect(open(ENCRYPTION_KEY, b, "storage_configs:a")).toBe("hello ключ");
    expect(() => open(ENCRYPTION_KEY + "x", a, "storage_configs:a")).toThrow(UnreadableSecretError);
    expect(() => open(ENCRYPTION_KEY, a, "storage_configs:b")).toThrow(UnreadableSecretError);
    const raw = Buffer.from(a.slice(3), "base64url");
    raw[raw.length - 1] ^= 1;
    expect(() => open(ENCRYPTION_KEY, "v1." + raw.toString("base64url"), "storage_configs:a")).toThrow(UnreadableSecretError);
    expect(() => open(ENCRYPTION_KEY, "v1.AAAA", "storage_configs:a")).toThrow(UnreadableSecretError);
    expect(() => open(ENCRYPTION_KEY, "plain", "storage_configs:a")).toThrow(UnreadableSecretError);
  });
});

describe("without STORAGE_ENCRYPTION_KEY", () => {
  test("create or PATCH with credentials → 400 naming the setting; without credentials works", async () => {
    const { t, cookie } = await app();
    const r = await t.call("POST", "/api/storage-configs", { cookie, json: objstore({ objectAccessKeyId: KEY_ID, objectSecretAccessKey: SECRET }) });
    expect(r.status).toBe(400);
    expect(r.body.error).toBe("VALIDATION_FAILED");
    expect(r.body.message).toContain("STORAGE_ENCRYPTION_KEY");
    expect(t.ctx.db.select().from(storageConfigs).all()).toEqual([]);

    const plain = await t.call("POST", "/api/storage-configs", { cookie, json: objstore() });
    expect(plain.status).toBe(201);
    expect(plain.body.hasSecrets).toBe(false);
    const p = await t.call("PATCH", `/api/storage-configs/${plain.body.id}`, { cookie, json: { objectAccessKeyId: KEY_ID, objectSecretAccessKey: SECRET } });
    expect(p.status).toBe(400);
    expect(p.body.message).toContain("STORAGE_ENCRYPTION_KEY");
    const n = await t.call("PATCH", `/api/storage-configs/${plain.body.id}`, { cookie, json: { name: "Renamed" } });
    expect(n.status).toBe(200);
    expect(JSON.stringify([r.body, p.body, n.body])).not.toContain(SECRET);
  });
});

describe("with a key", () => {
  test("credentials are stored sealed, never returned, kept by PATCH without them, re-sealed with them", async () => {
    const { t, cookie } = await app({ STORAGE_ENCRYPTION_KEY: ENCRYPTION_KEY });
    const r = await t.call("POST", "/api/storage-configs", { cookie, json: objstore({ objectAccessKeyId: KEY_ID, objectSecretAccessKey: SECRET }) });
    expect(r.status).toBe(201);
    expect(r.body.hasSecrets).toBe(true);
    expect(r.text).not.toContain(SECRET);
    expect(r.text).not.toContain(KEY_ID);
    const id = r.body.id;
    const stored = () => t.ctx.db.select().from(storageConfigs).where(eq(storageConfigs.id, id)).get()!.secrets!;
    const first = stored();
    expect(first).not.toContain(SECRET);
    expect(first).not.toContain(KEY_ID);
    expect(JSON.parse(open(ENCRYPTION_KEY, first, `storage_configs:${id}`))).toEqual({ accessKeyId: KEY_ID, secretAccessKey: SECRET });

    const renamed = await t.call("PATCH", `/api/storage-configs/${id}`, { cookie, json: { name: "Renamed", config: { bucket: "other" } } });
    expect(renamed.body.hasSecrets).toBe(true);
    expect(stored()).toBe(first);

    const resealed = await t.call("PATCH", `/api/storage-configs/${id}`, { cookie, json: { objectAccessKeyId: "AKIDNEWKEY000", objectSecretAccessKey: "new-secret-value-123" } });
    expect(resealed.status).toBe(200);
    expect(JSON.parse(open(ENCRYPTION_KEY, stored(), `storage_configs:${id}`))).toEqual({ accessKeyId: "AKIDNEWKEY000", secretAccessKey: "new-secret-value-123" });

    const half = await t.call("PATCH", `/api/storage-configs/${id}`, { cookie, json: { objectSecretAccessKey: "x" } });
    expect(half.status).toBe(400);
    const list = await t.call("GET", "/api/storage-configs", { cookie });
    expect(list.text).not.toContain("new-secret-value-123");
    expect(list.text).not.toContain("secrets");
  });

  test("a server restarted with another key: test answers {ok:false} saying why, nothing crashes", async () => {
    const dir = mkdtempSync(join(tmpdir(), "botloom-key-"));
    try {
      const dbPath = join(dir, "db.sqlite");
      const a = await app({ STORAGE_ENCRYPTION_KEY: ENCRYPTION_KEY }, dbPath);
      const id = (await a.t.call("POST", "/api/storage-configs", { cookie: a.cookie, json: objstore({ objectAccessKeyId: KEY_ID, objectSecretAccessKey: SECRET }) })).body.id;
      await a.t.call("PATCH", `/api/storage-configs/${id}`, { cookie: a.cookie, json: { isActive: true } });
      a.t.ctx.db.$client.close();

      const b = await app({ STORAGE_ENCRYPTION_KEY: "another-key-entirely-0123456789abcdef" }, dbPath);
      const r = await b.t.call("POST", `/api/storage-configs/${id}/test`, { cookie: b.cookie });
      expect(r.status).toBe(400);
      expect(r.body.ok).toBe(false);
      expect(r.body.message).toContain("cannot be decrypted");
      const list = await b.t.call("GET", "/api/storage-configs", { cookie: b.cookie });
      expect(list.status).toBe(200);
      expect(list.body[0].hasSecrets).toBe(true);
      // The active config cannot be used: uploads say why instead of silently going elsewhere.
      const project = await b.t.call("POST", "/api/projects", { cookie: b.cookie, json: { name: "P" } });
      const fd = new FormData();
      fd.append("file", new File(["hello"], "a.txt", { type: "text/plain" }));
      const up = await b.t.call("POST", `/api/projects/${project.body.id}/media`, { cookie: b.cookie, body: fd });
      expect(up.status).toBe(500);
      expect(up.body.message).toContain("cannot be decrypted");
      // Activating it (again) is refused up front; sending the pair again seals it under the new key.
      const again = await b.t.call("PATCH", `/api/storage-configs/${id}`, { cookie: b.cookie, json: { isActive: true } });
      expect(again.status).toBe(400);
      expect(again.body.message).toContain("cannot be decrypted");
      const resealed = await b.t.call("PATCH", `/api/storage-configs/${id}`, { cookie: b.cookie, json: { isActive: true, objectAccessKeyId: KEY_ID, objectSecretAccessKey: SECRET } });
      expect(resealed.status).toBe(200);
      expect(resealed.body.isActive).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
