// A corpus of bad requests against every route of the product: ids that are not ids, bodies that
// are not what the route reads, odd query values, garbage credentials. Every answer must be a 4xx
// in the one error shape (or an ordinary success where the input is merely odd, e.g. an emoji
// name), never a 500 and never a trace of the server's insides; the data survives.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ROUTES, credentialsFor, expectCleanError, expectNoLeak, fill, hardening, makeFixture, OWNER, uncovered, type Hardening, type Ids } from "./fixture";

let h: Hardening;
let ids: Ids;

beforeAll(async () => {
  h = await hardening();
  ids = await makeFixture(h);
});
afterAll(() => h.close());

/** Not ids: injection, traversal, signs, overflow, exponent, control and non-ASCII characters. */
const BAD_IDS = [
  "1 OR 1=1",
  "1' OR '1'='1",
  "1; DROP TABLE projects",
  "../../etc/passwd",
  "..%2F..%2Fetc%2Fpasswd",
  "-1",
  "0",
  "99999999999999999999",
  "1e3",
  "0x10",
  "1.5",
  " 1",
  "%00",
  "null",
  "Проект",
  "😀",
  "x".repeat(2000),
];

/** Path parameters holding a number: a bad value is a 400 there (house rule), never a lookup. */
const NUMERIC = new Set(["project", "token", "env", "media", "version", "template", "pat", "adminPat", "user", "collab", "chatMessage", "tableRow"]);

test("the catalogue names every route of the app", () => {
  expect(uncovered(h.t.app)).toEqual([]);
});

describe("bad ids in every path parameter", () => {
  for (const route of ROUTES) {
    const params = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
    if (params.length === 0) continue;
    test(`${route.method} ${route.path}`, async () => {
      for (const name of params) {
        for (const bad of BAD_IDS) {
          const value = bad.includes("%") ? bad : encodeURIComponent(bad);
          const path = fill(route.path, ids, { name, value });
          const r = await h.call(route.method, path, { ...credentialsFor(h, route.level), ...(route.method === "GET" || route.method === "HEAD" || route.method === "DELETE" ? {} : { json: {} }) });
          const where = `${route.method} ${path}`;
          if (name === "upload") {
            // public file links: a missing or malformed path is simply not found
            expect([400, 404]).toContain(r.status);
            expectNoLeak(r.text, where);
            continue;
          }
          if (route.path.startsWith("/api/hooks/")) {
            // an unknown hook is a failure like a wrong secret: a run of them is rate limited (docs/hooks.md)
            expect([401, 404, 429]).toContain(r.status);
            expectNoLeak(r.text, where);
            continue;
          }
          if (route.path.startsWith("/api/webhook/")) {
            // the intake checks the secret after the ids: both are refusals without a body read
            expect([400, 401]).toContain(r.status);
            continue;
          }
          expectCleanError(r, where);
          if (NUMERIC.has(name)) {
            if (r.status !== 400) throw new Error(`${where}: a malformed ${name} id should be 400, got ${r.status}: ${r.text.slice(0, 200)}`);
          } else expect([400, 404]).toContain(r.status);
        }
      }
    });
  }
});

const WRONG_TYPES = {
  name: 123,
  description: ["x"],
  data: "not a scenario",
  token: 5,
  key: 7,
  value: { nested: true },
  isSecret: "yes",
  userId: "abc",
  user_id: "1 OR 1=1",
  projectIds: "1,2",
  adminIds: 5,
  adminId: [],
  featured: "1",
  rating: "five",
  launchMode: "turbo",
  tokenId: { id: 1 },
  auth: 5,
  messenger: [],
  config: "x",
  backend: "ftp",
  isActive: "true",
  readOnly: "no",
  scopes: ["root"],
  sheets: "x",
  json_data: 42,
  userDatabaseEnabled: "maybe",
  sortOrder: "first",
  catchAllHandlers: 7,
  hash: 1,
  auth_date: "yesterday",
  id: -1,
};

const INJECTION = {
  name: "'; DROP TABLE projects; --",
  description: "<script>alert(1)</script>",
  key: "A' OR '1'='1",
  value: "$(rm -rf /)",
  token: "123:abc' OR 1=1 --",
  user_id: 1,
  userId: 1,
  adminIds: "1,2) OR (1=1",
  adminId: "del_admin_1 OR 1=1",
  projectIds: [1],
  search: "%' OR 1=1 --",
  config: { rootPath: "../../../../etc" },
  backend: "local",
};

const UNICODE = {
  name: "😀🚀 Проект ✓ 名前 \u202eevil\u202c",
  description: "null\u0000byte, bidi \u200f, combining é",
  key: "ÜBER_KEY",
  value: "значение 🔑",
  firstName: "Zoë 🧪",
  userId: 424242,
  user_id: 424243,
  adminIds: "١٢٣",
  featured: 1,
  rating: 5,
};

const HUGE_NUMBERS = { userId: 1e308, user_id: 99999999999999999999, id: 2 ** 63, rating: -1e9, sortOrder: 1e300, projectIds: [99999999999999999999], tokenId: 1e21, featured: 1e10, isSecret: 2 };

const BODIES: { name: string; body: string; type?: string }[] = [
  { name: "malformed JSON", body: '{"name": "x",' },
  { name: "form data as JSON", body: "name=x&y=1" },
  { name: "null", body: "null" },
  { name: "array", body: "[1,2,3]" },
  { name: "string", body: '"x"' },
  { name: "number", body: "42" },
  { name: "empty object", body: "{}" },
  { name: "empty body", body: "" },
  { name: "wrong types", body: JSON.stringify(WRONG_TYPES) },
  { name: "injection strings", body: JSON.stringify(INJECTION) },
  { name: "unicode and emoji", body: JSON.stringify(UNICODE) },
  { name: "huge numbers", body: JSON.stringify(HUGE_NUMBERS).replace("1e+308", "1e308").replace('"user_id":100000000000000000000', '"user_id":99999999999999999999') },
  { name: "deep nesting", body: `{"name":"x","data":${"[".repeat(5000)}${"]".repeat(5000)}}` },
  // issue 12: 40,000 levels overflowed recursive walks (a 500); 65 is the first depth refused
  { name: "40,000-level nesting", body: `{"name":"x","data":${"[".repeat(40_000)}${"]".repeat(40_000)}}` },
  { name: "65-level nesting", body: `{"name":"x","value":"v","data":${"[".repeat(64)}${"]".repeat(64)}}` },
  { name: "prototype keys", body: '{"__proto__": {"polluted": true}, "constructor": {"prototype": {"polluted": true}}, "name": "x"}' },
  { name: "JSON sent as text/plain", body: JSON.stringify({ name: "x" }), type: "text/plain" },
  { name: "JSON as octet-stream", body: JSON.stringify({ name: "x" }), type: "application/octet-stream" },
  { name: "2 MB string", body: JSON.stringify({ ...UNICODE, name: "x".repeat(2_000_000), value: "v".repeat(2_000_000) }) },
];

describe("bad bodies on every route that takes one", () => {
  for (const route of ROUTES.filter((r) => r.method === "POST" || r.method === "PUT" || r.method === "PATCH")) {
    test(`${route.method} ${route.path}`, async () => {
      // a fresh fixture: odd but valid bodies may rename, duplicate or replace things
      const own = await makeFixture(h);
      for (const b of BODIES) {
        const path = fill(route.path, own);
        const r = await h.call(route.method, path, { ...credentialsFor(h, route.level), body: b.body, headers: { "content-type": b.type ?? "application/json" } });
        const where = `${route.method} ${path} with ${b.name}`;
        if (r.status >= 400) expectCleanError(r, where);
      }
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    });
  }
});

const BAD_QUERIES = [
  "archived=maybe",
  "archived=1%20OR%201=1",
  "limit=-1",
  "limit=0",
  "limit=99999999999999999999",
  "limit=1e3",
  "offset=abc",
  "offset=-5",
  "page=0",
  "page=-1",
  "perPage=1e9",
  "perPage=99999999999999999999",
  "tokenId=..%2F..%2Fetc",
  "tokenId=1%20OR%201=1",
  `search=${"%25".repeat(3000)}`,
  "search=%00%0d%0a",
  "featured=2",
  "category=%F0%9F%98%80",
  "refresh=yes",
  "messenger_id=1%20OR%201=1",
  "messenger_id=-1",
  "messenger_id=99999999999999999999",
  "telegram_id=abc",
  "archived=true&archived=false",
  "limit=5&limit=6",
  "days=-1",
  "days=1e3",
  "days=99999999999999999999",
  "search=a&search=b",
  // analytics ranges: malformed, impossible, reversed, far away, repeated (docs/analytics.md)
  "from=2026-13-01",
  "from=2026-02-30&to=2026-03-01",
  "from=1999-12-31",
  "to=9999-12-31",
  "from=2026-03-10&to=2026-03-01",
  "from=2000-01-01&bucket=hour",
  "from=1%27%20OR%201=1",
  "bucket=week",
  "bucket=day&bucket=hour",
  // rolling windows: huge, with dates (test/bot-api/analytics.test.ts has the rest)
  "hours=99999999999999999999",
  "hours=24&from=2026-03-01",
];

/**
 * A hostile query the route tolerates: an ordinary answer — not an error in disguise, no server
 * internals, and paging kept inside its documented bounds (clamped, never taken as given).
 */
function expectSafeSuccess(r: { status: number; text: string; body: any; headers: Headers }, where: string) {
  expect({ where, status: r.status >= 200 && r.status < 400 }).toEqual({ where, status: true });
  expectNoLeak(r.text, where);
  if (!(r.headers.get("content-type") ?? "").includes("json")) return;
  expect({ where, body: r.body !== null && r.body !== undefined }).toEqual({ where, body: true });
  const b = r.body;
  if (typeof b !== "object" || Array.isArray(b)) return;
  expect({ where, errorShape: typeof b.error === "string" && typeof b.message === "string" }).toEqual({ where, errorShape: false });
  if ("perPage" in b) expect({ where, perPage: Number.isInteger(b.perPage) && b.perPage >= 1 && b.perPage <= 200 }).toEqual({ where, perPage: true });
  if ("page" in b) expect({ where, page: Number.isInteger(b.page) && b.page >= 1 }).toEqual({ where, page: true });
  if (Array.isArray(b.items)) expect({ where, items: b.items.length <= 1000 }).toEqual({ where, items: true });
}

describe("bad query parameters on every GET route", () => {
  for (const route of ROUTES.filter((r) => r.method === "GET")) {
    test(`GET ${route.path}`, async () => {
      for (const q of BAD_QUERIES) {
        const path = `${fill(route.path, ids)}?${q}`;
        const r = await h.call("GET", path, credentialsFor(h, route.level));
        if (r.status >= 400) expectCleanError(r, `GET ${path}`);
        else expectSafeSuccess(r, `GET ${path}`);
      }
    });
  }

  test("the bot API refuses every malformed acting-user id with 400", async () => {
    for (const q of ["messenger_id=1%20OR%201=1", "messenger_id=-1", "messenger_id=0", "messenger_id=99999999999999999999", "messenger_id=1e3", `messenger_id=${OWNER}&telegram_id=${OWNER + 1}`, "telegram_id=%F0%9F%98%80"]) {
      for (const bearer of [h.managerPat, h.ownerPat]) {
        const r = await h.call("GET", `/api/bot/projects?${q}`, { bearer });
        expectCleanError(r, `GET /api/bot/projects?${q}`);
        expect(r.status).toBe(400);
      }
    }
    // CR/LF in a query value never becomes a header
    const r = await h.call("GET", "/api/bot/projects?messenger_id=1%0D%0ASet-Cookie:%20evil=1", { bearer: h.managerPat });
    expect(r.status).toBe(400);
    expect(r.headers.getSetCookie().join()).not.toContain("evil");
  });
});

describe("outbound addresses (egress policy)", () => {
  // the editor's test request never reaches an internal address, however it is spelled; the answer
  // is the one error shape and names no port state
  const INTERNAL = [
    "http://127.0.0.1:1/admin/api/status",
    "http://2130706433/",
    "http://0x7f.1/",
    "http://0177.0.0.1/",
    "http://127.1/",
    "http://localhost/",
    "http://[::1]/",
    "http://[::ffff:127.0.0.1]/",
    "http://[64:ff9b::a9fe:a9fe]/",
    "http://169.254.169.254/latest/meta-data/",
    "http://10.0.0.1/",
    "http://100.64.0.1/",
    "http://[fd00::1]/",
    "http://0.0.0.0/",
  ];
  test("every internal spelling through http-test is 400, refused by the policy before any connection", async () => {
    for (const url of INTERNAL) {
      const r = await h.call("POST", `/api/projects/${ids.project}/http-test`, { cookie: h.owner, json: { url, timeoutSeconds: 2 } });
      expect([url, r.status, r.body.error]).toEqual([url, 400, "VALIDATION_FAILED"]);
      expect(r.body.message).toContain("public addresses only");
      expectCleanError(r, `http-test ${url}`);
    }
  });
});

describe("garbage credentials", () => {
  const USER_PROBES: [string, string, unknown?][] = [
    ["GET", "/api/projects/list"],
    ["GET", "/api/auth/me"],
    ["GET", "/api/bot/projects"],
    ["GET", "/api/storage-configs"],
    ["GET", "/api/templates"],
    ["POST", "/api/projects", { name: "never" }],
    ["GET", "/api/events"],
  ];

  test("garbage session cookies are 401 UNAUTHORIZED", async () => {
    const [validId] = h.owner.slice("connect.sid=".length).split(".");
    const cookies = [
      "connect.sid=garbage",
      `connect.sid=${"A".repeat(5000)}`,
      "connect.sid=%ZZ%",
      "connect.sid=abc.def",
      "connect.sid=s%3Aabc.def",
      `connect.sid=${validId}.${"0".repeat(64)}`,
      `connect.sid=${validId}`,
      "connect.sid=é",
      "connect.sid=1%20OR%201%3D1",
      "connect.sid=..%2F..%2Fetc%2Fpasswd",
      `connect.sid=${encodeURIComponent('{"userId":1}')}`,
    ];
    for (const [method, path, json] of USER_PROBES) {
      for (const cookie of cookies) {
        const r = await h.call(method, path, { cookie, json });
        expectCleanError(r, `${method} ${path} with ${cookie.slice(0, 60)}`);
        expect(r.status).toBe(401);
        expect(r.body.error).toBe("UNAUTHORIZED");
      }
    }
  });

  test("garbage and revoked PATs are 401 UNAUTHORIZED", async () => {
    const revoked = h.t.ctx.auth.createPat(OWNER, "revoked", []);
    h.t.ctx.auth.deletePat(revoked.id);
    const headers = [
      `Bearer mcp_${"x".repeat(32)}`,
      `Bearer ${"A".repeat(10_000)}`,
      "Bearer",
      "Bearer ",
      "Basic dXNlcjpwYXNz",
      "Bearer mcp_' OR '1'='1",
      "Bearer mcp_..%2F..%2Fetc",
      `Bearer ${revoked.token}`,
      `Bearer ${h.ownerPat}x`,
      `Bearer ${h.ownerPat} ${h.ownerPat}`,
      "Token mcp_abc",
    ];
    for (const [method, path, json] of USER_PROBES) {
      for (const authorization of headers) {
        const r = await h.call(method, path, { headers: { authorization }, json });
        expectCleanError(r, `${method} ${path} with ${authorization.slice(0, 60)}`);
        expect(r.status).toBe(401);
      }
    }
  });

  test("garbage admin cookies are 401 ADMIN_UNAUTHORIZED; a user session is no admin", async () => {
    const cookies = ["admin_auth=garbage", `admin_auth=${"A".repeat(5000)}`, "admin_auth=", h.owner, `admin_auth=${h.admin.split("=")[1]}x`];
    for (const path of ["/admin/api/app-settings", "/admin/api/users", "/admin/api/pats", "/admin/api/version"]) {
      for (const cookie of cookies) {
        const r = await h.call("GET", path, { cookie });
        expectCleanError(r, `GET ${path} with ${cookie.slice(0, 40)}`);
        expect(r.status).toBe(401);
        expect(r.body.error).toBe("ADMIN_UNAUTHORIZED");
      }
    }
  });
});

test("after the whole corpus: healthy, the fixture's data intact, no 500 anywhere, no error logged", async () => {
  expect((await h.call("GET", "/api/health")).status).toBe(200);
  const p = await h.call("GET", `/api/projects/${ids.project}`, { cookie: h.owner });
  expect(p.status).toBe(200);
  expect(p.body.name).toMatch(/^Fixture \d+$/);
  expect(p.body.data.sheets[0].nodes[0].id).toBe("start");
  const tokens = await h.call("GET", `/api/bot/projects/${ids.project}/tokens`, { cookie: h.owner });
  expect(tokens.body.count).toBe(1);
  expect(h.responses.filter((r) => r.status >= 500).map((r) => `${r.method} ${r.path.slice(0, 100)} ${r.status} ${r.text.slice(0, 200)}`)).toEqual([]);
  expect(h.t.logs.filter((l) => l.startsWith("error"))).toEqual([]);
});
