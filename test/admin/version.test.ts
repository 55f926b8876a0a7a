import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { VERSION } from "../../src/version";
import { compareVersions, DEPLOY_GUIDE_URL, FAILURE_TTL_MS, SUCCESS_TTL_MS, UpdateChecker } from "../../src/modules/admin/update-check";
import { adminLogin, createTestApp, loginAs, recordingLogger, setUp, type TestApp } from "../support/app";

/** A local stand-in for the public repository's raw version file. */
function startVersionServer() {
  const state = { status: 200, body: "" as string, hits: 0, delayMs: 0 };
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch() {
      state.hits++;
      if (state.delayMs) await Bun.sleep(state.delayMs);
      return new Response(state.body, { status: state.status, headers: { "content-type": "application/json" } });
    },
  });
  return {
    state,
    url: `http://127.0.0.1:${server.port}/assets/version.json`,
    serve(v: unknown) {
      state.status = 200;
      state.body = typeof v === "string" ? v : JSON.stringify(v);
    },
    stop: () => server.stop(true),
  };
}

function closedPortUrl() {
  const s = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("") });
  const port = s.port;
  s.stop(true);
  return `http://127.0.0.1:${port}/version.json`;
}

const bump = (v: string, d: number) => {
  const p = v.split(".").map(Number);
  p[3] += d;
  if (p[3] < 0) {
    p[3] = 0;
    p[2] -= 1;
  }
  return p.join(".");
};

describe("compareVersions", () => {
  test("numeric part by part", () => {
    expect(compareVersions("0.10.0.0", "0.9.0.0")).toBe(1);
    expect(compareVersions("0.9.0.0", "0.10.0.0")).toBe(-1);
    expect(compareVersions("1.2.3.4", "1.2.3.4")).toBe(0);
    expect(compareVersions("1.2.3.10", "1.2.3.9")).toBe(1);
    expect(compareVersions("2.0.0.0", "1.99.99.99")).toBe(1);
  });
});

describe("GET /admin/api/version", () => {
  let t: TestApp;
  beforeAll(() => (t = createTestApp()));
  afterAll(() => t.cleanup());

  test("reads the local version file", async () => {
    const r = await t.call("GET", "/admin/api/version", { cookie: await adminLogin(t) });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ version: VERSION.version, releasedAt: VERSION.releasedAt, notesUrl: VERSION.notesUrl });
    expect(r.body.version).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
  });

  test("401 without admin session; a user session does not count", async () => {
    await setUp(t);
    const user = await loginAs(t, 5);
    for (const cookie of [undefined, user]) {
      const r = await t.call("GET", "/admin/api/version", { cookie });
      expect(r.status).toBe(401);
      expect(r.body.error).toBe("ADMIN_UNAUTHORIZED");
    }
  });
});

describe("GET /admin/api/update-check", () => {
  let fake: ReturnType<typeof startVersionServer>;
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    fake = startVersionServer();
    t = createTestApp({ env: { UPDATE_CHECK_URL: fake.url } });
    admin = await adminLogin(t);
  });
  afterAll(() => {
    t.cleanup();
    fake.stop();
  });
  const check = (refresh = false) => t.call("GET", `/admin/api/update-check${refresh ? "?refresh=1" : ""}`, { cookie: admin });

  test("401 without admin session", async () => {
    const r = await t.call("GET", "/admin/api/update-check");
    expect(r.status).toBe(401);
    expect(r.body.error).toBe("ADMIN_UNAUTHORIZED");
  });

  test("newer version: updateAvailable, notes link, deploy guide", async () => {
    const newer = bump(VERSION.version, 1);
    fake.serve({ version: newer, releasedAt: "2030-01-01", notesUrl: "https://example.org/notes" });
    const r = await check(true);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      current: { version: VERSION.version, releasedAt: VERSION.releasedAt },
      latest: { version: newer, releasedAt: "2030-01-01", notesUrl: "https://example.org/notes" },
      updateAvailable: true,
      checkFailed: false,
      deployGuideUrl: DEPLOY_GUIDE_URL,
    });
  });

  test("the result is cached; refresh=1 asks again", async () => {
    fake.serve({ version: bump(VERSION.version, 1), releasedAt: "2030-01-01", notesUrl: null });
    await check(true);
    const hits = fake.state.hits;
    fake.serve({ version: VERSION.version, releasedAt: VERSION.releasedAt, notesUrl: null });
    const cached = await check();
    expect(fake.state.hits).toBe(hits);
    expect(cached.body.updateAvailable).toBe(true);
    const fresh = await check(true);
    expect(fake.state.hits).toBe(hits + 1);
    expect(fresh.body.updateAvailable).toBe(false);
    expect(fresh.body.latest.version).toBe(VERSION.version);
  });

  test("same version: no update", async () => {
    fake.serve({ version: VERSION.version, releasedAt: VERSION.releasedAt, notesUrl: null });
    const r = await check(true);
    expect(r.body).toMatchObject({ updateAvailable: false, checkFailed: false, latest: { version: VERSION.version, notesUrl: null } });
  });

  test("older remote version: no update, latest shows what was published", async () => {
    const older = "0.0.0.1";
    fake.serve({ version: older, releasedAt: "2020-01-01" });
    const r = await check(true);
    expect(r.body).toMatchObject({ updateAvailable: false, checkFailed: false, latest: { version: older, releasedAt: "2020-01-01", notesUrl: null } });
  });

  test("unsafe notes links are dropped", async () => {
    fake.serve({ version: bump(VERSION.version, 1), releasedAt: "2030-01-01", notesUrl: "javascript:alert(1)" });
    const r = await check(true);
    expect(r.body).toMatchObject({ updateAvailable: true, latest: { notesUrl: null } });
  });

  test("invalid remote files and error statuses: checkFailed, latest = current, still 200", async () => {
    const failed = {
      current: { version: VERSION.version, releasedAt: VERSION.releasedAt },
      latest: { version: VERSION.version, releasedAt: VERSION.releasedAt, notesUrl: null },
      updateAvailable: false,
      checkFailed: true,
      deployGuideUrl: DEPLOY_GUIDE_URL,
    };
    for (const body of ["not json", "[]", "null", JSON.stringify({ version: "1.2.3", releasedAt: "x" }), JSON.stringify({ version: "99.0.0.0" }), JSON.stringify({ version: "v9.0.0.0", releasedAt: "x" }), "x".repeat(70_000)]) {
      fake.serve(body);
      const r = await check(true);
      expect(r.status).toBe(200);
      expect(r.body).toEqual(failed);
    }
    fake.state.status = 404;
    const r = await check(true);
    expect(r.status).toBe(200);
    expect(r.body).toEqual(failed);
    expect(t.logs.some((l) => l.startsWith("warn Update check"))).toBe(true);
  });

  test("refresh must be a flag", async () => {
    const r = await t.call("GET", "/admin/api/update-check?refresh=yes", { cookie: admin });
    expect(r.status).toBe(400);
    expect(r.body.error).toBe("VALIDATION_FAILED");
  });
});

describe("update check offline", () => {
  test("a closed port gives checkFailed with latest = current, status 200", async () => {
    const t = createTestApp({ env: { UPDATE_CHECK_URL: closedPortUrl() } });
    try {
      const r = await t.call("GET", "/admin/api/update-check", { cookie: await adminLogin(t) });
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ checkFailed: true, updateAvailable: false, latest: { version: VERSION.version, notesUrl: null } });
      expect(r.body.latest.releasedAt).toBe(VERSION.releasedAt);
    } finally {
      t.cleanup();
    }
  });
});

describe("UpdateChecker cache lifetime", () => {
  test("success is kept 6 hours, failure 15 minutes; concurrent checks share one request", async () => {
    const fake = startVersionServer();
    let now = 1_000_000;
    const checker = new UpdateChecker({ url: fake.url, current: VERSION, log: recordingLogger([]), now: () => now });
    try {
      fake.serve({ version: bump(VERSION.version, 1), releasedAt: "2030-01-01" });
      fake.state.delayMs = 20;
      const [a, b] = await Promise.all([checker.check(), checker.check()]);
      expect(a).toBe(b);
      expect(fake.state.hits).toBe(1);
      fake.state.delayMs = 0;
      now += SUCCESS_TTL_MS - 1;
      await checker.check();
      expect(fake.state.hits).toBe(1);
      now += 2;
      fake.state.status = 500;
      const failed = await checker.check();
      expect(fake.state.hits).toBe(2);
      expect(failed.checkFailed).toBe(true);
      now += FAILURE_TTL_MS - 1;
      await checker.check();
      expect(fake.state.hits).toBe(2);
      now += 2;
      fake.serve({ version: VERSION.version, releasedAt: VERSION.releasedAt });
      expect((await checker.check()).checkFailed).toBe(false);
      expect(fake.state.hits).toBe(3);
    } finally {
      fake.stop();
    }
  });

  test("a remote that does not answer in time counts as failed", async () => {
    const fake = startVersionServer();
    fake.serve({ version: VERSION.version, releasedAt: VERSION.releasedAt });
    fake.state.delayMs = 500;
    const checker = new UpdateChecker({ url: fake.url, current: VERSION, log: recordingLogger([]), timeoutMs: 50 });
    try {
      expect((await checker.check()).checkFailed).toBe(true);
    } finally {
      fake.stop();
    }
  });
});
