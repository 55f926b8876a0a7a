// Bodies sent without Content-Length (chunked) are counted while read: the 10 MB limit holds for
// them too (docs/api.md#limits), and small ones parse as usual.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createTestApp, loginAs, setUp, type TestApp, ADMIN_KEY } from "../support/app";

let t: TestApp;
let base: string;
let cookie: string;

/** A request body as a stream, so fetch sends it chunked (no Content-Length). */
function chunked(text: string, chunkSize = 64 * 1024): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  let offset = 0;
  return new ReadableStream({
    pull(c) {
      if (offset >= bytes.length) return c.close();
      c.enqueue(bytes.subarray(offset, offset + chunkSize));
      offset += chunkSize;
    },
  });
}

async function post(path: string, body: string, type: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${base}${path}`, { method: "POST", body: chunked(body), headers: { "content-type": type, cookie, ...headers }, redirect: "manual" });
  const text = await res.text();
  return { status: res.status, text, body: text.startsWith("{") ? JSON.parse(text) : undefined, headers: res.headers };
}

beforeAll(async () => {
  t = createTestApp();
  await setUp(t);
  t.app.listen({ port: 0, hostname: "127.0.0.1" });
  base = `http://127.0.0.1:${t.app.server!.port}`;
  cookie = await loginAs(t, 1);
});
afterAll(() => {
  t.app.server?.stop(true);
  t.cleanup();
});

describe("chunked bodies", () => {
  test("small JSON parses as usual", async () => {
    const r = await post("/api/auth/pats", JSON.stringify({ name: "chunked" }), "application/json");
    expect(r.status).toBe(201);
    expect(r.body.name).toBe("chunked");
  });

  test("JSON over 10 MB is 413 PAYLOAD_TOO_LARGE and the server stays healthy", async () => {
    const big = JSON.stringify({ name: "x".repeat(11 * 1024 * 1024) });
    const r = await post("/api/auth/pats", big, "application/json");
    expect(r.status).toBe(413);
    expect(r.body.error).toBe("PAYLOAD_TOO_LARGE");
    expect((await fetch(`${base}/api/health`)).status).toBe(200);
  });

  test("malformed JSON is 400", async () => {
    const r = await post("/api/auth/pats", "{nope", "application/json");
    expect(r.status).toBe(400);
    expect(r.body.error).toBe("VALIDATION_FAILED");
  });

  test("text/plain (bot-manager import) and forms (admin login) still work", async () => {
    const imported = await post("/api/bot/projects/import", JSON.stringify({ sheets: [{ id: "s", name: "S", nodes: [], edges: [] }] }), "text/plain");
    expect(imported.status).toBe(200);
    expect(imported.body.id).toBeNumber();
    const login = await post("/admin/api/login", new URLSearchParams({ key: ADMIN_KEY }).toString(), "application/x-www-form-urlencoded");
    expect(login.status).toBe(302);
    expect(login.headers.get("location")).toBe("/admin");
  });
});
