// POST /api/projects/{id}/http-test: the editor's "send test request" goes out from the server.
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { HTTP_TEST_BODY_LIMIT } from "../../src/modules/projects/http-test.routes";
import { addCollaborator, COLLAB, newProject, team, type Team } from "./helpers";
import { INTERNAL_SECRET, startInternalService, type InternalService } from "../support/internal-service";

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

// The tests' loopback target is an internal service: the operator's allow list lets it through.
const ALLOW_LOOPBACK = { env: { EGRESS_ALLOW: "127.0.0.1" } };

describe("POST /api/projects/{id}/http-test", () => {
  test("sends method, headers (JSON string or object), body and bearer token; answers status, headers and body", async () => {
    s = await team(ALLOW_LOOPBACK);
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
    s = await team(ALLOW_LOOPBACK);
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
    s = await team(ALLOW_LOOPBACK);
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

// Issue 29 item 2: the request went anywhere, redirects included, and told a closed port from an
// open one. A loopback "admin API" stands for every internal service a user must not reach.
describe("http-test under the egress policy (allow list off)", () => {
  let admin: InternalService;
  let redirector: ReturnType<typeof Bun.serve>;
  beforeAll(() => {
    admin = startInternalService();
    redirector = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: (req) => Response.redirect(new URL(req.url).searchParams.get("to")!, 302) });
  });
  afterAll(() => {
    admin.stop();
    redirector.stop(true);
  });

  const refused = (r: { status: number; body: any; text: string }) => {
    expect([r.status, r.body.error]).toEqual([400, "VALIDATION_FAILED"]);
    expect(r.text).not.toContain(INTERNAL_SECRET);
  };

  test("loopback, private, link-local, CGNAT and their numeric and IPv6 spellings are refused before any connection", async () => {
    s = await team();
    const id = await newProject(s.t, s.owner);
    const p = admin.port;
    const urls = [
      `http://127.0.0.1:${p}/admin/api/status`,
      `http://localhost:${p}/admin/api/status`,
      `http://2130706433:${p}/`,
      `http://0x7f.1:${p}/`,
      `http://0177.0.0.1:${p}/`,
      `http://127.1:${p}/`,
      `http://0.0.0.0:${p}/`,
      `http://[::1]:${p}/`,
      `http://[::ffff:127.0.0.1]:${p}/`,
      `http://[::ffff:7f00:1]:${p}/`,
      `http://[64:ff9b::7f00:1]:${p}/`,
      "http://169.254.169.254/latest/meta-data/",
      "http://10.0.0.1/",
      "http://172.16.5.4/",
      "http://192.168.1.1/",
      "http://100.64.0.1/",
      "http://224.0.0.1/",
      "http://255.255.255.255/",
      "http://[fd00::1]/",
      "http://[fe80::1]/",
    ];
    for (const url of urls) {
      const r = await s.t.call("POST", `/api/projects/${id}/http-test`, { cookie: s.owner, json: { url, timeoutSeconds: 2 } });
      refused(r);
      expect(r.body.message).toContain("public addresses only");
    }
    expect(admin.hits()).toBe(0);
  });

  test("a redirect to an internal address is refused at its hop, though the first address was allowed", async () => {
    // only the redirector is an allowed internal service; the admin API is not
    s = await team({ env: { EGRESS_ALLOW: `127.0.0.1:${redirector.port}` } });
    const id = await newProject(s.t, s.owner);
    for (const to of [`http://127.0.0.1:${admin.port}/admin/api/status`, `http://2130706433:${admin.port}/`, "http://169.254.169.254/"]) {
      const r = await s.t.call("POST", `/api/projects/${id}/http-test`, { cookie: s.owner, json: { url: `http://127.0.0.1:${redirector.port}/redir?to=${encodeURIComponent(to)}` } });
      refused(r);
      expect(r.body.message).toContain("public addresses only");
    }
    // a redirect loop ends after a bounded number of hops

    const self = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: (req) => Response.redirect(req.url, 302) });
    try {
      s.t.cleanup();
      s = await team({ env: { EGRESS_ALLOW: `127.0.0.1:${self.port}` } });
      const id2 = await newProject(s.t, s.owner);
      const r = await s.t.call("POST", `/api/projects/${id2}/http-test`, { cookie: s.owner, json: { url: `http://127.0.0.1:${self.port}/x` } });
      expect([r.status, r.body.message]).toEqual([502, expect.stringContaining("redirects")]);
    } finally {
      self.stop(true);
    }

    expect(admin.hits()).toBe(0);
  });

  test("a closed port and a port that speaks no HTTP read the same: could not connect", async () => {
    s = await team(ALLOW_LOOPBACK);
    const id = await newProject(s.t, s.owner);
    const closed = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("") });
    const closedPort = closed.port;
    closed.stop(true);
    const mute = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { open: (sock) => void sock.end(), data: () => undefined } });
    try {
      const a = await s.t.call("POST", `/api/projects/${id}/http-test`, { cookie: s.owner, json: { url: `http://127.0.0.1:${closedPort}/`, timeoutSeconds: 5 } });
      const b = await s.t.call("POST", `/api/projects/${id}/http-test`, { cookie: s.owner, json: { url: `http://127.0.0.1:${mute.port}/`, timeoutSeconds: 5 } });
      expect(a.status).toBe(502);
      expect(b.status).toBe(502);
      expect(a.body.message.replace(String(closedPort), "PORT")).toBe(b.body.message.replace(String(mute.port), "PORT"));
      expect(a.body.message).toBe(`The request failed: could not connect to 127.0.0.1:${closedPort}`);
    } finally {
      mute.stop(true);
    }
  });

  test("the messenger API root stays reachable without an allow list (a local Bot API server)", async () => {
    s = await team({ env: { MESSENGER_API_ROOT: base } });
    const id = await newProject(s.t, s.owner);
    const r = await s.t.call("POST", `/api/projects/${id}/http-test`, { cookie: s.owner, json: { url: `${base}/bot1:x/getMe` } });
    expect([r.status, r.body.status]).toEqual([200, 200]);
    refused(await s.t.call("POST", `/api/projects/${id}/http-test`, { cookie: s.owner, json: { url: `http://127.0.0.1:${admin.port}/` } }));
  });

  test("an allow-listed service is reached; the allow list names a port or a network", async () => {
    s = await team({ env: { EGRESS_ALLOW: `127.0.0.1:${admin.port}` } });
    const id = await newProject(s.t, s.owner);
    const ok = await s.t.call("POST", `/api/projects/${id}/http-test`, { cookie: s.owner, json: { url: `http://127.0.0.1:${admin.port}/` } });
    expect(ok.body.status).toBe(200);
    const other = await s.t.call("POST", `/api/projects/${id}/http-test`, { cookie: s.owner, json: { url: `${base}/echo` } });
    refused(other);
  });
});
