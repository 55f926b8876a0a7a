// docs/api.md#media on the built-in folder and on a `local` storage config: upload, list,
// serve, delete, types (415), sizes (413/400), access, project delete.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { mediaFiles } from "../../src/db/schema";
import { mediaRoutes } from "../../src/modules/media/media.routes";
import { MAX_MEDIA_BYTES } from "../../src/modules/media/model";
import { createTestApp, loginAs, patFor, setUp, type TestApp } from "../support/app";
import { ENCRYPTION_KEY, fetchBytes, fileBytes, form, newProject, sameBytes, upload } from "./helpers";

let t: TestApp;
let owner: string;
let collab: string;
let stranger: string;
let projectId: number;

beforeAll(async () => {
  t = createTestApp({ env: { STORAGE_ENCRYPTION_KEY: ENCRYPTION_KEY } });
  await setUp(t, { operators: [701] });
  owner = await loginAs(t, 701);
  collab = await loginAs(t, 702);
  stranger = await loginAs(t, 703);
  projectId = await newProject(t, owner);
  t.ctx.db.$client.prepare("INSERT INTO project_collaborators (project_id, user_id, invited_by) VALUES (?, ?, ?)").run(projectId, 702, 701);
});
afterAll(() => t.cleanup());

describe("built-in folder (no active config)", () => {
  test("upload → 201 record, bytes on disk under <projectId>/<kind>/ with a generated name", async () => {
    const data = fileBytes("image/png", 2048);
    const r = await upload(t, owner, projectId, data, "../../etc/Мой снимок.png", "image/png");
    expect(r.status).toBe(201);
    expect(r.body).toEqual({
      id: expect.any(Number),
      projectId,
      fileName: "Мой снимок.png",
      mimeType: "image/png",
      size: 2048,
      url: expect.stringMatching(new RegExp(`^/uploads/${projectId}/photo/[a-z0-9]+-[0-9a-f]{16}\\.png$`)),
      storageConfigId: null,
      createdAt: expect.any(String),
    });
    const onDisk = join(t.ctx.config.uploadsDir, r.body.url.slice("/uploads/".length));
    expect(sameBytes(readFileSync(onDisk), data)).toBe(true);

    const got = await fetchBytes(t, r.body.url);
    expect(got.status).toBe(200);
    expect(got.headers.get("content-type")).toBe("image/png");
    expect(got.headers.get("x-content-type-options")).toBe("nosniff");
    expect(got.headers.get("content-disposition")).toStartWith("inline");
    expect(sameBytes(got.bytes, data)).toBe(true);

    const head = await fetchBytes(t, r.body.url, "HEAD");
    expect(head.status).toBe(200);
    expect(head.headers.get("content-length")).toBe("2048");
  });

  test("kinds and types: video, audio, PDF, text, JSON, ZIP, Office; documents are attachments", async () => {
    const cases: [Uint8Array | string, string, string, string, string][] = [
      [fileBytes("video/mp4", 500), "clip.mp4", "video/mp4", "video", "video/mp4"],
      [fileBytes("audio/mpeg", 500), "song.mp3", "audio/mp3", "audio", "audio/mpeg"],
      [fileBytes("application/pdf", 500), "doc.pdf", "application/pdf", "document", "application/pdf"],
      ["hello, world\n", "notes.txt", "text/plain", "document", "text/plain"],
      ['{"a":[1,2]}', "data.json", "application/json", "document", "application/json"],
      [fileBytes("application/zip", 300), "a.zip", "application/x-zip-compressed", "document", "application/zip"],
      [fileBytes("application/zip", 300), "report.docx", "application/vnd.openxmlformats-officedocument.wordprocessingml.document", "document", "application/vnd.openxmlformats-officedocument.wordprocessingml.document"],
      [fileBytes("image/jpeg", 300), "photo.jpg", "application/octet-stream", "photo", "image/jpeg"],
      [fileBytes("image/jpeg", 300), "", "", "photo", "image/jpeg"],
    ];
    for (const [data, name, type, kind, stored] of cases) {
      const r = await upload(t, collab, projectId, data, name, type);
      expect({ name, status: r.status, mimeType: r.body?.mimeType }).toEqual({ name, status: 201, mimeType: stored });
      expect(r.body.url).toContain(`/${projectId}/${kind}/`);
      const got = await fetchBytes(t, r.body.url);
      expect(got.status).toBe(200);
      expect(got.headers.get("content-type")).toStartWith(stored);
      if (kind === "document") expect(got.headers.get("content-disposition")).toStartWith("attachment");
    }
  });

  test("415 for executables, scripts, HTML, SVG — also when renamed or mislabelled", async () => {
    const elf = new Uint8Array([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0, ...new Array(100).fill(0)]);
    const pe = new Uint8Array([0x4d, 0x5a, 0x90, 0, ...new Array(100).fill(1)]);
    const cases: [Uint8Array | string, string, string][] = [
      [pe, "setup.exe", "application/x-msdownload"],
      [pe, "photo.jpg", "image/jpeg"],
      [pe, "notes.txt", "text/plain"],
      [pe, "x.bin", "application/octet-stream"],
      [elf, "song.mp3", "audio/mpeg"],
      [elf, "archive.zip", "application/zip"],
      ["#!/bin/sh\nrm -rf /\n", "readme.txt", "text/plain"],
      ["echo hi", "run.sh", "text/plain"],
      ["<!DOCTYPE html><script>alert(1)</script>", "page.txt", "text/plain"],
      ["<html><body>x</body></html>", "page.html", "text/html"],
      ['<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>', "logo.svg", "image/svg+xml"],
      ['<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"/>', "logo.png", "image/png"],
      ["alert(1)", "app.js", "application/javascript"],
      ["x", "data.bin", "application/x-something"],
      [fileBytes("application/zip", 100), "photo.png", "image/png"],
      [new Uint8Array([1, 0, 2, 0, 3]), "data.txt", "text/plain"],
      ["{not json", "data.json", "application/json"],
      ["random text without a name", "", "application/octet-stream"],
    ];
    for (const [data, name, type] of cases) {
      const r = await upload(t, owner, projectId, data, name, type);
      expect({ name, type, status: r.status, error: r.body?.error }).toEqual({ name, type, status: 415, error: "UNSUPPORTED_MEDIA_TYPE" });
    }
  });

  test("sizes: empty 400, exactly 50 MB accepted, one byte more 413, oversized Content-Length 413", async () => {
    const empty = await upload(t, owner, projectId, new Uint8Array(0), "e.txt", "text/plain");
    expect(empty.status).toBe(400);
    expect(empty.body.error).toBe("VALIDATION_FAILED");

    const big = fileBytes("application/pdf", MAX_MEDIA_BYTES + 1);
    const tooBig = await upload(t, owner, projectId, big, "big.pdf", "application/pdf");
    expect(tooBig.status).toBe(413);
    expect(tooBig.body.error).toBe("PAYLOAD_TOO_LARGE");

    const exact = await upload(t, owner, projectId, big.subarray(0, MAX_MEDIA_BYTES), "exact.pdf", "application/pdf");
    expect(exact.status).toBe(201);
    expect(exact.body.size).toBe(MAX_MEDIA_BYTES);

    const declared = await t.call("POST", `/api/projects/${projectId}/media`, {
      cookie: owner,
      body: "x",
      headers: { "content-type": "multipart/form-data; boundary=x", "content-length": String(60 * 1024 * 1024) },
    });
    expect(declared.status).toBe(413);
    expect(declared.body.error).toBe("PAYLOAD_TOO_LARGE");
  });

  test("50 parallel uploads land intact with distinct names", async () => {
    const files = Array.from({ length: 50 }, (_, i) => fileBytes("application/pdf", 500 + i * 131));
    const rs = await Promise.all(files.map((data) => upload(t, owner, projectId, data, "same-name.pdf", "application/pdf")));
    expect(rs.map((r) => r.status)).toEqual(new Array(50).fill(201));
    expect(new Set(rs.map((r) => r.body.url)).size).toBe(50);
    const back = await Promise.all(rs.map((r) => fetchBytes(t, r.body.url)));
    back.forEach((b, i) => expect(sameBytes(b.bytes, files[i])).toBe(true));
  });

  test("bad requests: no file field, a text field, JSON, malformed multipart", async () => {
    const noFile = new FormData();
    noFile.append("other", new File(["x"], "a.txt", { type: "text/plain" }));
    const textField = new FormData();
    textField.append("file", "just a string");
    for (const body of [noFile, textField]) {
      const r = await t.call("POST", `/api/projects/${projectId}/media`, { cookie: owner, body });
      expect(r.status).toBe(400);
      expect(r.body.error).toBe("VALIDATION_FAILED");
    }
    const json = await t.call("POST", `/api/projects/${projectId}/media`, { cookie: owner, json: { file: "x" } });
    expect(json.status).toBe(400);
    const broken = await t.call("POST", `/api/projects/${projectId}/media`, {
      cookie: owner,
      body: "--zz\r\nContent-Disposition: form-data; name=\"file\"\r\n\r\nnope",
      headers: { "content-type": "multipart/form-data; boundary=yy" },
    });
    expect(broken.status).toBe(400);
  });

  test("access: 401 anonymous, 403 stranger, 404 unknown project, 400 bad id", async () => {
    const fd = () => form(fileBytes("image/png", 100), "a.png", "image/png");
    expect((await t.call("POST", `/api/projects/${projectId}/media`, { body: fd() })).status).toBe(401);
    expect((await t.call("GET", `/api/projects/${projectId}/media`)).status).toBe(401);
    const s = await t.call("POST", `/api/projects/${projectId}/media`, { cookie: stranger, body: fd() });
    expect(s.status).toBe(403);
    expect((await t.call("GET", `/api/projects/${projectId}/media`, { cookie: stranger })).status).toBe(403);
    expect((await t.call("POST", `/api/projects/999999/media`, { cookie: owner, body: fd() })).status).toBe(404);
    expect((await t.call("POST", `/api/projects/abc/media`, { cookie: owner, body: fd() })).status).toBe(400);
    expect((await t.call("GET", `/api/projects/0/media`, { cookie: owner })).status).toBe(400);
    expect((await t.call("DELETE", `/api/projects/${projectId}/media/xyz`, { cookie: owner })).status).toBe(400);
    const pat = await t.call("GET", `/api/projects/${projectId}/media`, { bearer: patFor(t, 701) });
    expect(pat.status).toBe(200);
  });

  test("list: newest first, records only of that project; delete removes file and record", async () => {
    const other = await newProject(t, owner, "Other");
    const o = await upload(t, owner, other, "other project", "o.txt", "text/plain");
    expect(o.status).toBe(201);
    const list = await t.call("GET", `/api/projects/${projectId}/media`, { cookie: owner });
    expect(list.status).toBe(200);
    expect(list.body.length).toBeGreaterThan(5);
    expect(list.body.every((m: any) => m.projectId === projectId)).toBe(true);
    const ids = list.body.map((m: any) => m.id);
    expect(ids).toEqual([...ids].sort((a: number, b: number) => b - a));

    const victim = list.body[0];
    const path = join(t.ctx.config.uploadsDir, victim.url.slice("/uploads/".length));
    expect(existsSync(path)).toBe(true);
    expect((await t.call("DELETE", `/api/projects/${other}/media/${victim.id}`, { cookie: owner })).status).toBe(404);
    expect((await t.call("DELETE", `/api/projects/${projectId}/media/${victim.id}`, { cookie: stranger })).status).toBe(403);
    const del = await t.call("DELETE", `/api/projects/${projectId}/media/${victim.id}`, { cookie: collab });
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ success: true });
    expect(existsSync(path)).toBe(false);
    expect((await fetchBytes(t, victim.url)).status).toBe(404);
    expect((await t.call("DELETE", `/api/projects/${projectId}/media/${victim.id}`, { cookie: owner })).status).toBe(404);
  });
});

describe("local storage configs", () => {
  test("active writable config receives uploads at /uploads/s/<id>/…; read-only configs never do", async () => {
    const root = join(t.dir, "cfg-root");
    const c = await t.call("POST", "/api/storage-configs", { cookie: owner, json: { name: "Disk two", backend: "local", config: { rootPath: root } } });
    expect(c.status).toBe(201);
    expect((await t.call("POST", `/api/storage-configs/${c.body.id}/test`, { cookie: owner })).body.ok).toBe(true);
    await t.call("PATCH", `/api/storage-configs/${c.body.id}`, { cookie: owner, json: { isActive: true } });

    const data = fileBytes("image/jpeg", 4096);
    const r = await upload(t, owner, projectId, data, "x.jpg", "image/jpeg");
    expect(r.status).toBe(201);
    expect(r.body.storageConfigId).toBe("disk-two");
    expect(r.body.url).toMatch(new RegExp(`^/uploads/s/disk-two/${projectId}/photo/[a-z0-9-]+\\.jpg$`));
    const key = r.body.url.slice("/uploads/s/disk-two/".length);
    expect(sameBytes(readFileSync(join(root, key)), data)).toBe(true);
    expect(sameBytes((await fetchBytes(t, r.body.url)).bytes, data)).toBe(true);

    // Read-only: the active config stops taking uploads (they go to the built-in folder), its files
    // are still served, and deleting a record keeps the object.
    await t.call("PATCH", `/api/storage-configs/${c.body.id}`, { cookie: owner, json: { readOnly: true } });
    const r2 = await upload(t, owner, projectId, data, "y.jpg", "image/jpeg");
    expect(r2.body.storageConfigId).toBeNull();
    expect((await fetchBytes(t, r.body.url)).status).toBe(200);
    expect((await t.call("DELETE", `/api/projects/${projectId}/media/${r.body.id}`, { cookie: owner })).status).toBe(200);
    expect(existsSync(join(root, key))).toBe(true);
    // Without a record the object is not served: a config root is not a browsable folder.
    expect((await fetchBytes(t, r.body.url)).status).toBe(404);
    await t.call("PATCH", `/api/storage-configs/${c.body.id}`, { cookie: owner, json: { isActive: false, readOnly: false } });
  });
});

describe("project delete", () => {
  test("removes media records (cascade) and objects on writable backends; read-only objects stay", async () => {
    const p = await newProject(t, owner, "Doomed");
    const ro = await t.call("POST", "/api/storage-configs", { cookie: owner, json: { id: "ro-disk", name: "RO", backend: "local", config: { rootPath: join(t.dir, "ro-root") } } });
    await t.call("PATCH", "/api/storage-configs/ro-disk", { cookie: owner, json: { isActive: true } });
    const onRo = await upload(t, owner, p, "kept", "k.txt", "text/plain");
    expect(onRo.body.storageConfigId).toBe("ro-disk");
    await t.call("PATCH", "/api/storage-configs/ro-disk", { cookie: owner, json: { readOnly: true, isActive: false } });
    const a = await upload(t, owner, p, fileBytes("image/png", 100), "a.png", "image/png");
    const b = await upload(t, owner, p, "text", "b.txt", "text/plain");
    const files = [a, b].map((r) => join(t.ctx.config.uploadsDir, r.body.url.slice("/uploads/".length)));
    expect(files.every((f) => existsSync(f))).toBe(true);

    const del = await t.call("DELETE", `/api/projects/${p}`, { cookie: owner });
    expect(del.status).toBe(200);
    // In the trash the files stay for a restore (docs/api.md "Trash"); the purge removes them.
    expect(files.every((f) => existsSync(f))).toBe(true);
    await t.ctx.projects.purge(p);
    expect(files.some((f) => existsSync(f))).toBe(false);
    expect(existsSync(join(t.dir, "ro-root", onRo.body.url.slice("/uploads/s/ro-disk/".length)))).toBe(true);
    const left = t.ctx.db.select().from(mediaFiles).all().filter((m) => m.projectId === p);
    expect(left).toEqual([]);
    expect(ro.status).toBe(201);
    // The hook is registered once per context, however often the routes are built over it.
    const hooks = t.ctx.projectDeleteHooks.length;
    mediaRoutes(t.ctx);
    expect(t.ctx.projectDeleteHooks.length).toBe(hooks);
    expect(readdirSync(t.ctx.config.uploadsDir).length).toBeGreaterThan(0);
  });
});
