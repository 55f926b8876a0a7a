// Issue 12 item 6: rate limits and caps (production defaults unless a test says otherwise), opt-in
// paging of the PAT and full-project lists, and the admin key's minimum length. Reproductions:
// 5,000 wrong admin keys in 0.3 s with no slowdown, a 1-character ADMIN_KEY, 10,000 PATs in 3 s,
// unpaginated 1 MB / 16 MB lists.
import { afterEach, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ConfigError, loadConfig } from "../../src/config";
import { FailureLadder, WindowLimiter } from "../../src/http/rate-limit";
import { ADMIN_KEY, createTestApp, loginAs, setUp, type TestApp } from "../support/app";

const apps: TestApp[] = [];
afterEach(() => {
  for (const t of apps.splice(0)) t.cleanup();
});

/** A set-up app with the production defaults of every limit, or the ones given. */
async function app(env: Record<string, string> = {}) {
  const t = createTestApp({ env: { LOGIN_ATTEMPTS_PER_MINUTE: "30", ADMIN_LOGIN_FREE_FAILURES: "5", PAT_CREATIONS_PER_HOUR: "20", MAX_PATS_PER_USER: "50", MAX_PROJECTS_PER_USER: "1000", ...env } });
  apps.push(t);
  await setUp(t);
  return t;
}

/** A script's login (JSON); the browser form posts the same key as a form. */
const adminLoginWith = (t: TestApp, key: string) => t.call("POST", "/admin/api/login", { json: { key } });
const adminFormLogin = (t: TestApp, key: string) => t.call("POST", "/admin/api/login", { body: new URLSearchParams({ key }) });

describe("the admin key", () => {
  test("ADMIN_KEY shorter than 16 characters refuses to start, naming the variable; so does a short admin.key file", () => {
    const dir = mkdtempSync(join(tmpdir(), "botloom-key-"));
    try {
      for (const key of ["x", "a".repeat(15)]) {
        expect(() => loadConfig({ DATA_DIR: dir, ADMIN_KEY: key })).toThrow(ConfigError);
        expect(() => loadConfig({ DATA_DIR: dir, ADMIN_KEY: key })).toThrow(/ADMIN_KEY must be at least 16 characters/);
      }
      expect(loadConfig({ DATA_DIR: dir, ADMIN_KEY: "a".repeat(16) }).adminKey).toBe("a".repeat(16));
      writeFileSync(join(dir, "admin.key"), "short\n");
      expect(() => loadConfig({ DATA_DIR: dir })).toThrow(/ADMIN_KEY from .*admin\.key must be at least 16/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("admin login", () => {
  test("5,000 wrong keys: five are tried, the rest refused with 429 and Retry-After; logged without the keys", async () => {
    const t = await app();
    const statuses = new Map<number, number>();
    let retryAfter: string | null = null;
    for (let i = 0; i < 5000; i++) {
      const r = await adminLoginWith(t, `wrong-key-${i}-abcdefgh`);
      statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
      if (r.status === 429) retryAfter ??= r.headers.get("retry-after");
    }
    // five free tries, then one more per doubling wait (1 s, 2 s, 4 s ...) however slow the machine
    const tried = statuses.get(302) ?? 0;
    expect(tried).toBeGreaterThanOrEqual(5);
    expect(tried).toBeLessThanOrEqual(15);
    expect(statuses.get(429)).toBe(5000 - tried);
    expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
    // while the address waits, even the right key is refused: no oracle
    const right = await adminLoginWith(t, ADMIN_KEY);
    expect(right.status).toBe(429);
    expect(right.body).toMatchObject({ error: "RATE_LIMITED" });
    // the browser's form is sent back to the login page, which says how long to wait
    const form = await adminFormLogin(t, ADMIN_KEY);
    expect(form.status).toBe(302);
    const location = form.headers.get("location")!;
    expect(location).toMatch(/^\/admin\/login\?wait=\d+$/);
    expect((await t.call("GET", location)).text).toContain("Too many wrong keys from your address");
    expect((await t.call("GET", "/admin/login?wait=<script>")).text).not.toContain("Too many");
    const lines = t.logs.filter((l) => l.includes("admin login"));
    expect(lines.length).toBe(tried);
    expect(lines.join("\n")).not.toContain("wrong-key-");
  });

  test("the ladder: free failures, then 1 s, 2 s, 4 s ... after the last one; 4× free locks for 15 minutes; a right key clears", () => {
    let now = 1_000_000;
    const l = new FailureLadder(3, () => now);
    for (let i = 0; i < 3; i++) {
      expect(l.waitFor("a")).toBe(0);
      l.fail("a");
    }
    expect(l.waitFor("a")).toBe(1);
    expect(l.waitFor("b")).toBe(0); // per address
    now += 1000;
    expect(l.waitFor("a")).toBe(0);
    l.fail("a");
    expect(l.waitFor("a")).toBe(2);
    now += 2000;
    l.fail("a");
    expect(l.waitFor("a")).toBe(4);
    // failures 6..11 wait their turn; the 12th (4 × 3) locks
    for (let n = 6; n <= 12; n++) {
      now += 600_000;
      expect(l.fail("a")).toEqual({ count: n, locked: n === 12 });
    }
    expect(l.waitFor("a")).toBe(15 * 60);
    now += 15 * 60_000;
    expect(l.waitFor("a")).toBe(0);
    l.fail("b");
    l.succeed("b");
    expect(l.waitFor("b")).toBe(0);
  });
});

describe("logins and PATs", () => {
  test("dev-login and messenger-login: at most LOGIN_ATTEMPTS_PER_MINUTE per client address, then 429 with Retry-After", async () => {
    const t = await app();
    for (let i = 1; i <= 30; i++) expect((await t.call("POST", "/api/auth/dev-login", { json: { userId: i } })).status).toBe(200);
    const over = await t.call("POST", "/api/auth/dev-login", { json: { userId: 31 } });
    expect(over.status).toBe(429);
    expect(over.body.error).toBe("RATE_LIMITED");
    expect(Number(over.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(over.headers.getSetCookie()).toEqual([]);
    const widget = await t.call("POST", "/api/auth/messenger-login", { json: { id: 1, first_name: "x", auth_date: 1, hash: "0".repeat(64) } });
    expect(widget.status).toBe(429);
    expect(t.logs.filter((l) => l.includes("login attempts from")).length).toBe(1);
  });

  test("the window: a fresh minute allows again", () => {
    let now = 0;
    const w = new WindowLimiter(2, 60_000, () => now);
    expect([w.take("k"), w.take("k"), w.take("k") > 0, w.take("other")]).toEqual([0, 0, true, 0]);
    now += 60_000;
    expect(w.take("k")).toBe(0);
  });

  test("10,000 PATs in 3 s no more: PAT_CREATIONS_PER_HOUR per user, and MAX_PATS_PER_USER held at once", async () => {
    const t = await app({ MAX_PATS_PER_USER: "25" });
    const a = await loginAs(t, 1401);
    const b = await loginAs(t, 1402);
    const statuses: number[] = [];
    for (let i = 0; i < 200; i++) statuses.push((await t.call("POST", "/api/auth/pats", { cookie: a, json: { name: `p${i}` } })).status);
    expect(statuses.filter((s) => s === 201).length).toBe(20);
    expect(new Set(statuses.slice(20))).toEqual(new Set([429]));
    expect((await t.call("POST", "/api/auth/pats", { cookie: b, json: { name: "other user" } })).status).toBe(201);

    const capped = await app({ MAX_PATS_PER_USER: "3" });
    const c = await loginAs(capped, 1403);
    for (let i = 0; i < 3; i++) expect((await capped.call("POST", "/api/auth/pats", { cookie: c, json: { name: `p${i}` } })).status).toBe(201);
    const fourth = await capped.call("POST", "/api/auth/pats", { cookie: c, json: { name: "p3" } });
    expect(fourth.status).toBe(409);
    expect(fourth.body.message).toContain("at most 3");
    const list = await capped.call("GET", "/api/auth/pats", { cookie: c });
    await capped.call("DELETE", `/api/auth/pats/${list.body.items[0].id}`, { cookie: c });
    expect((await capped.call("POST", "/api/auth/pats", { cookie: c, json: { name: "again" } })).status).toBe(201);
  });
});

describe("projects", () => {
  test("MAX_PROJECTS_PER_USER owned projects: create, duplicate, bot API create and import, template use all refuse the next one", async () => {
    const t = await app({ MAX_PROJECTS_PER_USER: "2" });
    const a = await loginAs(t, 1501);
    const first = await t.call("POST", "/api/projects", { cookie: a, json: { name: "one" } });
    expect(first.status).toBe(201);
    expect((await t.call("POST", "/api/projects", { cookie: a, json: { name: "two" } })).status).toBe(201);
    const tpl = await t.call("POST", "/api/templates", { cookie: a, json: { name: "T", data: { sheets: [] } } });
    for (const [method, path, json] of [
      ["POST", "/api/projects", { name: "three" }],
      ["POST", `/api/projects/${first.body.id}/duplicate`, {}],
      ["POST", "/api/bot/projects", { name: "three" }],
      ["POST", "/api/bot/projects/import", { sheets: [] }],
      ["POST", `/api/templates/${tpl.body.id}/use`, {}],
    ] as const) {
      const r = await t.call(method, path, { cookie: a, json });
      expect([path, r.status, r.body?.error]).toEqual([path, 409, "CONFLICT"]);
      expect(r.body.message).toContain("at most 2");
    }
    expect((await t.call("POST", "/api/projects", { cookie: await loginAs(t, 1502), json: { name: "other user" } })).status).toBe(201);
  });
});

describe("paging", () => {
  test("GET /api/projects: the array stays; page/perPage answer { items, total, page, perPage }", async () => {
    const t = await app();
    const a = await loginAs(t, 1601);
    for (let i = 0; i < 5; i++) await t.call("POST", "/api/projects", { cookie: a, json: { name: `p${i}` } });
    const all = await t.call("GET", "/api/projects", { cookie: a });
    expect(Array.isArray(all.body)).toBe(true);
    expect(all.body.length).toBe(5);
    const p2 = await t.call("GET", "/api/projects?page=2&perPage=2", { cookie: a });
    expect(p2.body).toMatchObject({ total: 5, page: 2, perPage: 2 });
    expect(p2.body.items.map((p: { id: number }) => p.id)).toEqual(all.body.slice(2, 4).map((p: { id: number }) => p.id));
    expect(p2.body.items[0].data).toHaveProperty("sheets");
    expect((await t.call("GET", "/api/projects?perPage=100000", { cookie: a })).body).toMatchObject({ page: 1, perPage: 200, total: 5 });
    expect((await t.call("GET", "/api/projects?page=9", { cookie: a })).body).toMatchObject({ items: [], total: 5, page: 9, perPage: 50 });
    for (const q of ["page=0", "page=abc", "perPage=-1", "page=1.5"]) expect((await t.call("GET", `/api/projects?${q}`, { cookie: a })).status).toBe(400);
  });

  test("GET /api/auth/pats: { items, count } stays; page/perPage add total, page, perPage", async () => {
    const t = await app();
    const a = await loginAs(t, 1701);
    for (let i = 0; i < 5; i++) await t.call("POST", "/api/auth/pats", { cookie: a, json: { name: `p${i}` } });
    const all = await t.call("GET", "/api/auth/pats", { cookie: a });
    expect(Object.keys(all.body).sort()).toEqual(["count", "items"]);
    expect(all.body.count).toBe(5);
    const page = await t.call("GET", "/api/auth/pats?page=3&perPage=2", { cookie: a });
    expect(page.body).toMatchObject({ count: 1, total: 5, page: 3, perPage: 2 });
    expect(page.body.items[0].id).toBe(all.body.items[4].id);
    expect(page.text).not.toContain("mcp_");
    expect((await t.call("GET", "/api/auth/pats?perPage=x", { cookie: a })).status).toBe(400);
  });
});
