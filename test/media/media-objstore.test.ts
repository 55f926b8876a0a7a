// Media on a REAL S3-compatible server (s3rver): exact bytes back (1 KB, 5 MB), 50 parallel
// uploads, delete, read-only, project delete, public URL redirect, an unreachable store, and a
// scan proving no secret reaches a response or a log line.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { GetObjectCommand, HeadObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { mediaFiles } from "../../src/db/schema";
import { createTestApp, loginAs, setUp, type TestApp } from "../support/app";
import { closedPort, startS3Server, type S3TestServer } from "../support/s3-server";
import { ENCRYPTION_KEY, fileBytes, form, newProject, sameBytes } from "./helpers";

const BUCKET = "media-bucket";
let s3: S3TestServer;
let direct: S3Client;
let t: TestApp;
let cookie: string;
let projectId: number;
let configId: string;
const seen: string[] = [];

beforeAll(async () => {
  s3 = await startS3Server({ buckets: [BUCKET] });
  direct = new S3Client({
    endpoint: s3.endpoint,
    region: "us-east-1",
    forcePathStyle: true,
    credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
  });
  t = createTestApp({ env: { STORAGE_ENCRYPTION_KEY: ENCRYPTION_KEY } });
  await setUp(t, { operators: [901] });
  cookie = await loginAs(t, 901);
  projectId = await newProject(t, cookie);
  const c = await call("POST", "/api/storage-configs", {
    json: {
      name: "Object store",
      backend: "objstore",
      config: { bucket: BUCKET, endpoint: s3.endpoint, forcePathStyle: true },
      objectAccessKeyId: s3.accessKeyId,
      objectSecretAccessKey: s3.secretAccessKey,
    },
  });
  expect(c.status).toBe(201);
  configId = c.body.id;
});
afterAll(async () => {
  direct.destroy();
  t.cleanup();
  await s3.stop();
});

async function call(method: string, path: string, opts: { json?: unknown; body?: BodyInit } = {}) {
  const r = await t.call(method, path, { cookie, ...opts });
  seen.push(r.text, JSON.stringify([...r.headers]));
  return r;
}
const upload = (data: Uint8Array | string, name: string, type: string, project = projectId) =>
  call("POST", `/api/projects/${project}/media`, { body: form(data, name, type) });

async function download(url: string) {
  const res = await t.app.handle(new Request(`http://localhost${url}`));
  seen.push(JSON.stringify([...res.headers]));
  return { status: res.status, headers: res.headers, bytes: new Uint8Array(await res.arrayBuffer()) };
}

const keyOf = (url: string) => url.slice(`/uploads/s/${configId}/`.length);
async function objectBytes(key: string): Promise<Uint8Array | null> {
  try {
    const out = await direct.send(new GetObjectCommand({ Bucket: BUCKET, Key: key }));
    return await out.Body!.transformToByteArray();
  } catch (e: any) {
    if (e?.$metadata?.httpStatusCode === 404) return null;
    throw e;
  }
}
async function objectExists(key: string): Promise<boolean> {
  try {
    await direct.send(new HeadObjectCommand({ Bucket: BUCKET, Key: key }));
    return true;
  } catch (e: any) {
    if (e?.$metadata?.httpStatusCode === 404) return false;
    throw e;
  }
}

describe("objstore media", () => {
  test("create → test → activate", async () => {
    const r = await call("POST", `/api/storage-configs/${configId}/test`);
    expect(r.body.ok).toBe(true);
    const a = await call("PATCH", `/api/storage-configs/${configId}`, { json: { isActive: true } });
    expect(a.body).toMatchObject({ isActive: true, hasSecrets: true });
  });

  test("uploads keep their exact bytes: 1 KB and 5 MB random binary, read back through /uploads and from the bucket", async () => {
    for (const size of [1024, 5 * 1024 * 1024]) {
      const data = fileBytes("application/zip", size);
      const r = await upload(data, `blob-${size}.zip`, "application/zip");
      expect(r.status).toBe(201);
      expect(r.body).toMatchObject({ projectId, size, mimeType: "application/zip", storageConfigId: configId, fileName: `blob-${size}.zip` });
      expect(r.body.url).toMatch(new RegExp(`^/uploads/s/${configId}/${projectId}/document/[a-z0-9-]+\\.zip$`));
      const stored = await objectBytes(keyOf(r.body.url));
      expect(stored && sameBytes(stored, data)).toBe(true);
      const got = await download(r.body.url);
      expect(got.status).toBe(200);
      expect(got.headers.get("content-type")).toBe("application/zip");
      expect(got.headers.get("content-disposition")).toStartWith("attachment");
      expect(got.headers.get("x-content-type-options")).toBe("nosniff");
      expect(got.bytes.length).toBe(size);
      expect(sameBytes(got.bytes, data)).toBe(true);
    }
  });

  test("an empty file is refused with 400 and nothing is written", async () => {
    const before = t.ctx.db.select().from(mediaFiles).all().length;
    const r = await upload(new Uint8Array(0), "empty.zip", "application/zip");
    expect(r.status).toBe(400);
    expect(t.ctx.db.select().from(mediaFiles).all().length).toBe(before);
  });

  test("50 parallel uploads through app.handle all land intact", async () => {
    const files = Array.from({ length: 50 }, (_, i) => fileBytes(i % 2 ? "image/png" : "image/jpeg", 1000 + i * 997));
    const results = await Promise.all(files.map((data, i) => upload(data, `p${i}.${i % 2 ? "png" : "jpg"}`, i % 2 ? "image/png" : "image/jpeg")));
    expect(results.map((r) => r.status)).toEqual(new Array(50).fill(201));
    expect(new Set(results.map((r) => r.body.url)).size).toBe(50);
    const back = await Promise.all(results.map((r) => download(r.body.url)));
    back.forEach((b, i) => {
      expect(b.status).toBe(200);
      expect(sameBytes(b.bytes, files[i])).toBe(true);
    });
    for (const [i, r] of results.entries()) expect(sameBytes((await objectBytes(keyOf(r.body.url)))!, files[i])).toBe(true);
    const list = await call("GET", `/api/projects/${projectId}/media`);
    expect(list.body.filter((m: any) => m.storageConfigId === configId).length).toBeGreaterThanOrEqual(52);
  });

  test("delete removes the object from the bucket; unknown keys are 404", async () => {
    const r = await upload(fileBytes("application/pdf", 3000), "d.pdf", "application/pdf");
    const key = keyOf(r.body.url);
    expect(await objectExists(key)).toBe(true);
    const del = await call("DELETE", `/api/projects/${projectId}/media/${r.body.id}`);
    expect(del.body).toEqual({ success: true });
    expect(await objectExists(key)).toBe(false);
    expect((await download(r.body.url)).status).toBe(404);
    expect((await download(`/uploads/s/${configId}/${projectId}/document/nothing.pdf`)).status).toBe(404);
    expect((await download(`/uploads/s/not-a-config/${projectId}/document/nothing.pdf`)).status).toBe(404);
  });

  test("read-only: uploads go to the built-in folder, objects survive record deletion", async () => {
    const r = await upload(fileBytes("application/pdf", 2000), "ro.pdf", "application/pdf");
    await call("PATCH", `/api/storage-configs/${configId}`, { json: { readOnly: true } });
    const other = await upload(fileBytes("application/pdf", 2000), "local.pdf", "application/pdf");
    expect(other.body.storageConfigId).toBeNull();
    expect((await call("DELETE", `/api/projects/${projectId}/media/${r.body.id}`)).status).toBe(200);
    expect(await objectExists(keyOf(r.body.url))).toBe(true);
    await call("PATCH", `/api/storage-configs/${configId}`, { json: { readOnly: false } });
  });

  test("DELETE of the config is 409 with filesCount while media uses it", async () => {
    const n = t.ctx.db.select().from(mediaFiles).all().filter((m) => m.storageConfigId === configId).length;
    const r = await call("DELETE", `/api/storage-configs/${configId}`);
    expect(r.status).toBe(409);
    expect(r.body.filesCount).toBe(n);
  });

  test("publicUrlBase: the public link redirects there (302)", async () => {
    const r = await upload(fileBytes("image/png", 500), "pub.png", "image/png");
    await call("PATCH", `/api/storage-configs/${configId}`, { json: { config: { bucket: BUCKET, endpoint: s3.endpoint, forcePathStyle: true, publicUrlBase: "https://cdn.example.com/media/" } } });
    const got = await download(r.body.url);
    expect(got.status).toBe(302);
    expect(got.headers.get("location")).toBe(`https://cdn.example.com/media/${keyOf(r.body.url)}`);
    await call("PATCH", `/api/storage-configs/${configId}`, { json: { config: { bucket: BUCKET, endpoint: s3.endpoint, forcePathStyle: true } } });
    expect((await download(r.body.url)).status).toBe(200);
  });

  test("project delete removes its objects from the bucket and its records", async () => {
    const p = await newProject(t, cookie, "Doomed");
    const rs = await Promise.all([1, 2, 3].map((i) => upload(fileBytes("audio/mpeg", 700 * i), `s${i}.mp3`, "audio/mpeg", p)));
    const keys = rs.map((r) => keyOf(r.body.url));
    for (const k of keys) expect(await objectExists(k)).toBe(true);
    expect((await call("DELETE", `/api/projects/${p}`)).status).toBe(200);
    // In the trash the objects stay for a restore (docs/api.md "Trash"); the purge removes them.
    for (const k of keys) expect(await objectExists(k)).toBe(true);
    await t.ctx.projects.purge(p);
    for (const k of keys) expect(await objectExists(k)).toBe(false);
    expect(t.ctx.db.select().from(mediaFiles).all().filter((m) => m.projectId === p)).toEqual([]);
  });

  test("an unreachable store: serving answers 502, uploads 502, the server stays healthy", async () => {
    const port = await closedPort();
    const c = await call("POST", "/api/storage-configs", {
      json: { id: "gone-store", name: "Gone", backend: "objstore", config: { bucket: BUCKET, endpoint: `http://127.0.0.1:${port}` }, objectAccessKeyId: s3.accessKeyId, objectSecretAccessKey: s3.secretAccessKey },
    });
    expect(c.status).toBe(201);
    t.ctx.db.insert(mediaFiles).values({ projectId, storageConfigId: "gone-store", objectKey: `${projectId}/photo/x.png`, kind: "photo", fileName: "x.png", mimeType: "image/png", size: 1 }).run();
    expect((await download(`/uploads/s/gone-store/${projectId}/photo/x.png`)).status).toBe(502);
    await call("PATCH", "/api/storage-configs/gone-store", { json: { isActive: true } });
    const r = await upload(fileBytes("image/png", 100), "u.png", "image/png");
    expect(r.status).toBe(502);
    expect(r.body.error).toBe("BAD_GATEWAY");
    await call("PATCH", `/api/storage-configs/${configId}`, { json: { isActive: true } });
    expect((await upload(fileBytes("image/png", 100), "u.png", "image/png")).status).toBe(201);
  });

  test("no secret (access key id, secret key, encryption key) in any response or log line", () => {
    expect(seen.length).toBeGreaterThan(100);
    for (const s of [s3.accessKeyId, s3.secretAccessKey, ENCRYPTION_KEY]) {
      for (const x of seen) expect(x).not.toContain(s);
      for (const l of t.logs) expect(l).not.toContain(s);
    }
  });
});
