// POST /api/projects/{id}/http-test: the editor's "send test request" goes out from the server.
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { HTTP_TEST_BODY_LIMIT } from "../../src/modules/projects/http-test.routes";
import { addCollaborator, COLLAB, newProject, team, type Team } from "./helpers";

let s: Team;
afterEach(() => s?.t.cleanup());

let target: ReturnType<typeof Bun.serve>;
let base: string;
beforeAll(() => {
  target = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(req) {
      const url = new URL(req.url);
      if (url.pathname === "/slow") return new Promise((r) => setTimeout(() => r(new Response("late")), 5000));
      if (url.pathname === "/big") return new Response("x".repeat(HTTP_TEST_BODY_LIMIT * 3));
      if (url.pathname === "/teapot") return new Response("short and stout", { status: 418 });
      return Response.json({ method: req.method, auth: req.headers.get("authorization"), custom: req.headers.get("x-custom"), type: req.headers.get("content-type"), body: await req.text() }, { headers: { "x-answer": "yes" } });
    },
  });
  base = `http://127.0.0.1:${target.port}`;
});
afterAll(() => target.stop(true));

describe("POST /api/projects/{id}/http-test", () => {
  test("sends method, headers (JSON string or object), body and bearer token; answers status, headers and body", async () => {
    s = await team();
    const id = await newProject(s.t, s.owner);
    addCollaborator(s.t, id, COLLAB);
    const r = await s.t.call("POST", `/api/projects/${id}/http-test`, {
      cookie: s.collab,
      json: { url: `${base}/echo`, method: "POST", headers: '{"X-Custom": "42"}', body: '{"a":1}', bearerToken: "tok-123" },
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ status: 200, truncated: false, headers: { "x-answer": "yes" } });
    expect(JSON.parse(r.body.body)).toEqual({ method: "POST", auth: "Bearer tok-123", custom: "42", type: "application/json", body: '{"a":1}' });
    expect(typeof r.body.durationMs).toBe("number");
    const get = await s.t.call("POST", `/api/projects/${id}/http-test`, { cookie: s.owner, json: { url: `${base}/echo`, headers: { "x-custom": "7" }, body: "ignored on GET" } });
    expect(JSON.parse(get.body.body)).toMatchObject({ method: "GET", custom: "7", body: "" });
    // an error status of the target is still a 200 answer of ours
    const tea = await s.t.call("POST", `/api/projects/${id}/http-test`, { cookie: s.owner, json: { url: `${base}/teapot` } });
    expect([tea.status, tea.body.status, tea.body.body]).toEqual([200, 418, "short and stout"]);
  });

  test("a big answer is cut at 64 KB; a silent target is 502 after the timeout; a closed port is 502", async () => {
    s = await team();
    const id = await newProject(s.t, s.owner);
    const big = await s.t.call("POST", `/api/projects/${id}/http-test`, { cookie: s.owner, json: { url: `${base}/big` } });
    expect(big.body.truncated).toBe(true);
    expect(big.body.body.length).toBe(HTTP_TEST_BODY_LIMIT);
    const slow = await s.t.call("POST", `/api/projects/${id}/http-test`, { cookie: s.owner, json: { url: `${base}/slow`, timeoutSeconds: 0.3 } });
    expect([slow.status, slow.body.error]).toEqual([502, "BAD_GATEWAY"]);
    expect(slow.body.message).toContain("0.3 s");
    const closed = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("") });
    const port = closed.port;
    closed.stop(true);
    const down = await s.t.call("POST", `/api/projects/${id}/http-test`, { cookie: s.owner, json: { url: `http://127.0.0.1:${port}/` } });
    expect([down.status, down.body.error]).toEqual([502, "BAD_GATEWAY"]);
  });

  test("bad input is 400; strangers 403; missing project 404; no session 401", async () => {
    s = await team();
    const id = await newProject(s.t, s.owner);
    const call = (json: unknown, cookie = s.owner) => s.t.call("POST", `/api/projects/${id}/http-test`, { cookie, json });
    for (const bad of [{}, { url: "" }, { url: "file:///etc/passwd" }, { url: "not a url" }, { url: `${base}/`, method: "TRACE" }, { url: `${base}/`, timeoutSeconds: 31 }, { url: `${base}/`, headers: "[1]" }, { url: `${base}/`, headers: "{oops" }, { url: `${base}/`, extra: 1 }, { url: 5 }]) {
      const r = await call(bad);
      expect([r.status, r.body.error]).toEqual([400, "VALIDATION_FAILED"]);
    }
    const malformed = await s.t.call("POST", `/api/projects/${id}/http-test`, { cookie: s.owner, body: "{not json", headers: { "content-type": "application/json" } });
    expect(malformed.status).toBe(400);
    expect((await call({ url: `${base}/echo` }, s.stranger)).status).toBe(403);
    expect((await s.t.call("POST", "/api/projects/99999/http-test", { cookie: s.owner, json: { url: `${base}/echo` } })).status).toBe(404);
    expect((await s.t.call("POST", `/api/projects/${id}/http-test`, { json: { url: `${base}/echo` } })).status).toBe(401);
  });
});
