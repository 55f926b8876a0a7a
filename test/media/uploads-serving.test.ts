// GET /uploads/*: public, safe paths only. Files the tokens module writes straight into UPLOADS_DIR
// (bot photos) are served; traversal in any spelling, hidden files and symlinks out of the folder are not.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseUploadPath } from "../../src/modules/media/serve";
import { createTestApp, loginAs, setUp, type TestApp } from "../support/app";
import { fetchBytes } from "./helpers";

const SECRET_CONTENT = "TOP-SECRET-CONTENT-do-not-serve";
let t: TestApp;
let cookie: string;

beforeAll(async () => {
  t = createTestApp();
  await setUp(t, { operators: [1101] });
  cookie = await loginAs(t, 1101);
  const up = t.ctx.config.uploadsDir;
  mkdirSync(join(up, "7", "bot_photos"), { recursive: true });
  writeFileSync(join(up, "7", "bot_photos", "b12_abc.jpg"), Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]));
  writeFileSync(join(up, "7", "bot_photos", "dump.weird"), "bytes");
  writeFileSync(join(up, "7", ".hidden"), SECRET_CONTENT);
  writeFileSync(join(t.dir, "secret.txt"), SECRET_CONTENT);
  mkdirSync(join(t.dir, "outside"), { recursive: true });
  writeFileSync(join(t.dir, "outside", "x.jpg"), SECRET_CONTENT);
  symlinkSync(join(t.dir, "outside"), join(up, "7", "link"));
  symlinkSync(join(t.dir, "secret.txt"), join(up, "7", "secret.txt"));
});
afterAll(() => t.cleanup());

describe("/uploads", () => {
  test("bot photos written by the tokens module are served with their type, inline, nosniff", async () => {
    const r = await fetchBytes(t, "/uploads/7/bot_photos/b12_abc.jpg");
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toBe("image/jpeg");
    expect(r.headers.get("x-content-type-options")).toBe("nosniff");
    expect(r.headers.get("content-disposition")).toBe("inline");
    expect([...r.bytes]).toEqual([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]);
    const odd = await fetchBytes(t, "/uploads/7/bot_photos/dump.weird");
    expect(odd.headers.get("content-type")).toBe("application/octet-stream");
    expect(odd.headers.get("content-disposition")).toBe("attachment");
  });

  test("public: no session needed, and no setup guard either", async () => {
    const fresh = createTestApp();
    try {
      mkdirSync(join(fresh.ctx.config.uploadsDir, "1", "photo"), { recursive: true });
      writeFileSync(join(fresh.ctx.config.uploadsDir, "1", "photo", "a.png"), "x");
      expect((await fetchBytes(fresh, "/uploads/1/photo/a.png")).status).toBe(200);
    } finally {
      fresh.cleanup();
    }
  });

  test("traversal and unsafe paths: 400/404 in the error shape, never a byte from outside", async () => {
    const attempts = [
      "/uploads/%2e%2e/secret.txt",
      "/uploads/%2e%2e/%2e%2e/etc/passwd",
      "/uploads/..%2fsecret.txt",
      "/uploads/..%2F..%2Fsecret.txt",
      "/uploads/7/%2e%2e/%2e%2e/secret.txt",
      "/uploads/7/..%5c..%5csecret.txt",
      "/uploads/%5c..%5csecret.txt",
      "/uploads/7/bot_photos/%00.jpg",
      "/uploads/7/.hidden",
      "/uploads/7/%2ehidden",
      "/uploads/7/link/x.jpg",
      "/uploads/7/secret.txt",
      "/uploads/%252e%252e/secret.txt",
      "/uploads/%zz",
      "/uploads/",
      "/uploads//etc/passwd",
      "/uploads/7//bot_photos/b12_abc.jpg",
      "/uploads/s/../secret.txt",
      "/uploads/s/%2e%2e/secret.txt",
      "/uploads/s/BAD/x.jpg",
      "/uploads/s/x",
      "/uploads/7/bot_photos/b12_abc.jpg%2f..%2f..%2f..%2fsecret.txt",
    ];
    for (const path of attempts) {
      for (const method of ["GET", "HEAD"]) {
        const res = await t.app.handle(new Request(`http://localhost${path}`, { method }));
        const text = await res.text();
        expect({ path, method, ok: [400, 404].includes(res.status) }).toEqual({ path, method, ok: true });
        expect(text).not.toContain(SECRET_CONTENT);
        if (method === "GET") expect(JSON.parse(text).error).toMatch(/^(VALIDATION_FAILED|NOT_FOUND)$/);
      }
    }
  });

  test("a config's root is not a browsable folder: only recorded objects are served", async () => {
    const root = join(t.dir, "cfg");
    mkdirSync(join(root, "7", "photo"), { recursive: true });
    writeFileSync(join(root, "7", "photo", "stray.png"), SECRET_CONTENT);
    const c = await t.call("POST", "/api/storage-configs", { cookie, json: { id: "disk-x", name: "X", backend: "local", config: { rootPath: root } } });
    expect(c.status).toBe(201);
    expect((await fetchBytes(t, "/uploads/s/disk-x/7/photo/stray.png")).status).toBe(404);
  });

  test("path parsing", () => {
    expect(parseUploadPath("/uploads/1/photo/a.png")).toEqual({ configId: null, key: "1/photo/a.png" });
    expect(parseUploadPath("/uploads/s/my-store/1/photo/a.png")).toEqual({ configId: "my-store", key: "1/photo/a.png" });
    expect(parseUploadPath("/uploads/1/%2e%2e/a.png")).toBeNull();
    expect(parseUploadPath("/uploads/a%2Fb")).toBeNull();
    expect(parseUploadPath("/other/a")).toBeNull();
  });
});
