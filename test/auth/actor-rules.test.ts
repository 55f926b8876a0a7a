// docs/api.md#actor-rules-for-apibot, tested on a probe route that uses the same plugin as every
// bot-manager endpoint.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { Elysia } from "elysia";
import { authPlugin } from "../../src/http/auth";
import { errorHandler } from "../../src/http/errors";
import { createTestApp, loginAs, patFor, setUp, type TestApp } from "../support/app";

let t: TestApp;
let probe: Elysia<any, any, any, any, any, any, any>;
let session: string, pat: string, managerPat: string;

beforeAll(async () => {
  t = createTestApp();
  await setUp(t);
  probe = new Elysia()
    .use(errorHandler(t.ctx.log))
    .use(authPlugin(t.ctx))
    .get("/api/bot/whoami", ({ actor }) => ({ userId: actor.userId, scopes: actor.scopes }), { botActor: true })
    .post("/api/bot/whoami", ({ actor }) => ({ userId: actor.userId }), { botActor: true, body: (await import("zod")).z.object({ a: (await import("zod")).z.number() }) });
  session = await loginAs(t, 100);
  pat = patFor(t, 100);
  managerPat = patFor(t, 900, ["bot_manager"]);
});
afterAll(() => t.cleanup());

async function who(query: string, headers: Record<string, string> = {}) {
  const res = await probe.handle(new Request(`http://localhost/api/bot/whoami${query}`, { headers }));
  return { status: res.status, body: await res.json() };
}

describe("actor rules matrix", () => {
  test("no credentials → 401", async () => {
    const r = await who("");
    expect(r.status).toBe(401);
    expect(r.body.error).toBe("UNAUTHORIZED");
    expect((await who("?messenger_id=100")).status).toBe(401);
  });

  test("session: own messenger_id optional, a foreign one 403", async () => {
    expect(await who("", { cookie: session })).toEqual({ status: 200, body: { userId: 100, scopes: [] } });
    expect((await who("?messenger_id=100", { cookie: session })).body.userId).toBe(100);
    const r = await who("?messenger_id=101", { cookie: session });
    expect(r.status).toBe(403);
    expect(r.body.error).toBe("FORBIDDEN");
  });

  test("ordinary PAT: same rules as a session", async () => {
    const auth = { authorization: `Bearer ${pat}` };
    expect((await who("", auth)).body.userId).toBe(100);
    expect((await who("?messenger_id=100", auth)).status).toBe(200);
    expect((await who("?messenger_id=5", auth)).status).toBe(403);
    expect((await who("?telegram_id=5", auth)).status).toBe(403);
  });

  test("bot_manager PAT: messenger_id required (400 without), acts as that user", async () => {
    const auth = { authorization: `Bearer ${managerPat}` };
    const missing = await who("", auth);
    expect(missing.status).toBe(400);
    expect(missing.body.error).toBe("VALIDATION_FAILED");
    expect(await who("?messenger_id=4242", auth)).toEqual({ status: 200, body: { userId: 4242, scopes: ["bot_manager"] } });
    expect(t.ctx.auth.getUser(4242)).not.toBeNull();
  });

  test("telegram_id is an alias; both given and different → 400; malformed ids → 400", async () => {
    const auth = { authorization: `Bearer ${managerPat}` };
    expect((await who("?telegram_id=77", auth)).body.userId).toBe(77);
    expect((await who("?telegram_id=77&messenger_id=77", auth)).status).toBe(200);
    expect((await who("?telegram_id=77&messenger_id=78", auth)).status).toBe(400);
    for (const bad of ["abc", "-1", "0", "1%20OR%201=1", "99999999999999999999", "1.5"]) {
      expect((await who(`?messenger_id=${bad}`, auth)).status).toBe(400);
    }
  });

  test("an Authorization header of another scheme (a reverse proxy's Basic login) leaves the cookie in charge", async () => {
    const basic = { authorization: "Basic dXNlcjpwYXNz" };
    expect(await who("", { ...basic, cookie: session })).toEqual({ status: 200, body: { userId: 100, scopes: [] } });
    expect((await who("", basic)).status).toBe(401);
    // A Bearer header is a PAT attempt: malformed or unknown is 401 even beside a valid cookie.
    for (const authorization of ["Bearer", "Bearer ", "Bearer mcp_nope", `Bearer ${pat} x`]) {
      expect((await who("", { authorization, cookie: session })).status).toBe(401);
    }
  });

  test("invalid credentials are 401 even when the body is invalid too", async () => {
    const res = await probe.handle(new Request("http://localhost/api/bot/whoami", { method: "POST", headers: { "content-type": "application/json", authorization: "Bearer mcp_nope" }, body: '{"a":"not a number"}' }));
    expect(res.status).toBe(401);
    const ok = await probe.handle(new Request("http://localhost/api/bot/whoami", { method: "POST", headers: { "content-type": "application/json", cookie: session }, body: '{"a":"not a number"}' }));
    expect(ok.status).toBe(400);
  });
});

test("a bot_manager request for a known user does not write: it succeeds while a bot process holds the write lock", async () => {
  const f = createTestApp({ fileDb: true });
  try {
    await setUp(f);
    const manager = patFor(f, 900, ["bot_manager"]);
    const call = (id: number) => f.app.handle(new Request(`http://localhost/api/bot/projects?telegram_id=${id}`, { headers: { authorization: `Bearer ${manager}` } }));
    expect((await call(4321)).status).toBe(200); // first sight: the user row is created
    expect(f.ctx.auth.getUser(4321)).not.toBeNull();
    expect((await call(4321)).status).toBe(200); // also refreshes the PAT's lastUsedAt while nobody holds the lock
    f.ctx.db.$client.exec("PRAGMA busy_timeout = 0"); // a write would fail at once instead of waiting
    const other = new Database(f.ctx.config.databasePath);
    other.exec("BEGIN IMMEDIATE");
    try {
      const r = await call(4321);
      expect(r.status).toBe(200);
    } finally {
      other.exec("ROLLBACK");
      other.close();
    }
  } finally {
    f.cleanup();
  }
});
