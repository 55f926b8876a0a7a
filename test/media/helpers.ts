// Shared bits of the media and storage tests: files with real signatures, uploads, projects.
import { randomBytes } from "node:crypto";
import type { TestApp } from "../support/app";

export const ENCRYPTION_KEY = "test-storage-encryption-key-0123456789abcdef";

const SIGNATURES: Record<string, number[]> = {
  "image/png": [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
  "image/jpeg": [0xff, 0xd8, 0xff, 0xe0],
  "application/pdf": [...Buffer.from("%PDF-1.7\n")],
  "application/zip": [0x50, 0x4b, 0x03, 0x04],
  "audio/mpeg": [...Buffer.from("ID3")],
  "video/mp4": [0, 0, 0, 0x18, ...Buffer.from("ftypmp42")],
};

/** `size` bytes of the given type: its real signature, then random bytes. */
export function fileBytes(type: string, size: number): Uint8Array {
  const sig = SIGNATURES[type] ?? [];
  const out = new Uint8Array(size);
  out.set(randomBytes(size));
  out.set(sig.slice(0, size));
  return out;
}

export function form(data: Uint8Array | string, name: string, type: string, field = "file"): FormData {
  const fd = new FormData();
  fd.append(field, new File([data as BlobPart], name, { type }));
  return fd;
}

export async function upload(t: TestApp, cookie: string, projectId: number, data: Uint8Array | string, name: string, type: string) {
  return t.call("POST", `/api/projects/${projectId}/media`, { cookie, body: form(data, name, type) });
}

export async function newProject(t: TestApp, cookie: string, name = "Media project"): Promise<number> {
  const r = await t.call("POST", "/api/projects", { cookie, json: { name } });
  if (r.status !== 201) throw new Error(`project create failed: ${r.status} ${r.text}`);
  return r.body.id;
}

/** Raw GET through the app, keeping the bytes. */
export async function fetchBytes(t: TestApp, path: string, method = "GET") {
  const res = await t.app.handle(new Request(`http://localhost${path}`, { method }));
  return { status: res.status, headers: res.headers, bytes: new Uint8Array(await res.arrayBuffer()) };
}

export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return Buffer.compare(Buffer.from(a), Buffer.from(b)) === 0;
}
