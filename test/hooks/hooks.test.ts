// docs/hooks.md over HTTP with a recording bot controller: a hook's URL and secret (shown once,
// stored hashed, rotatable), and every refusal of POST /api/hooks/<id> before the bot is told.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { botTokens, hookDeliveries, hooks } from "../../src/db/schema";
import { createTestApp, loginAs, setUp, type TestApp } from "../support/app";
import { TellingBots } from "./telling-bots";

const node = (id: string, type: string, data: Record<string, unknown>) => ({ id, type, position: { x: 0, y: 0 }, data });
const scenario = {
  sheets: [{
    id: "s", name: "S", edges: [], nodes: [
      node("start", "command_trigger", { command: "/start", autoTransitionTo: "hi" }),
      node("hi", "message", { messageText: "hi" }),
      node("paid", "webhook_trigger", { userField: "customer.tg", variablePrefix: "order_", answerStatus: 202, answerBody: '{"queued":"{order_id}"}', rateLimitPerMinute: 3, autoTransitionTo: "thanks" }),
      node("form", "webhook_trigger", { autoTransitionTo: "thanks" }),
      node("crm", "webhook_trigger", { autoTransitionTo: "thanks" }),
      node("thanks", "message", { messageText: "order {order_id}" }),
    ],
  }],
};

let t: TestApp;
let bots: TellingBots;
let cookie: string;
let project: number;
let token: number;

beforeAll(async () => {
  bots = new TellingBots();
  t = createTestApp({ bots });
  await setUp(t);
  cookie = await loginAs(t, 71);
  project = (await t.call("POST", "/api/projects", { cookie, json: { name: "Shop", data: scenario } })).body.id;
  token = t.ctx.db.insert(botTokens).values({ projectId: project, token: "123456:AAHookTestTokenAbcdefghijklmnop", name: "b" }).returning({ id: botTokens.id }).get().id;
  bots.running.add(token);
});
afterAll(() => t.cleanup());

const secretFor = async (nodeId: string) => {
  const r = await t.call("POST", `/api/projects/${project}/hooks/${nodeId}/secret`, { cookie });
  expect(r.status).toBe(201);
  return r.body as { hookId: string; path: string; secret: string };
};
const hook = (path: string, opts: { secret?: string; json?: unknown; body?: string; type?: string; headers?: Record<string, string> } = {}) =>
  t.call("POST", path, {
    body: opts.body ?? (opts.json === undefined ? undefined : JSON.stringify(opts.json)),
    headers: { "content-type": opts.type ?? "application/json", ...(opts.secret ? { "x-botloom-secret": opts.secret } : {}), ...opts.headers },
  });

describe("a hook's URL and secret", () => {
  test("listed per webhook_trigger node, without a URL until the first secret; the secret is shown once and stored hashed", async () => {
    const before = await t.call("GET", `/api/projects/${project}/hooks`, { cookie });
    expect(before.status).toBe(200);
    expect(before.body.items.map((i: { nodeId: string; hookId: string | null }) => [i.nodeId, i.hookId])).toEqual([["paid", null], ["form", null], ["crm", null]]);
    const made = await secretFor("form");
    expect(made.path).toBe(`/api/hooks/${made.hookId}`);
    expect(made.secret).toMatch(/^whs_[A-Za-z0-9]{40,}$/);
    const after = await t.call("GET", `/api/projects/${project}/hooks`, { cookie });
    expect(after.text).not.toContain(made.secret);
    expect(after.body.items.find((i: { nodeId: string }) => i.nodeId === "form")).toMatchObject({ hookId: made.hookId, path: made.path, hasSecret: true, userField: "user_id", perMinute: 60 });
    const row = t.ctx.db.select().from(hooks).all().find((r) => r.id === made.hookId)!;
    expect(row.secretHash).not.toContain(made.secret);
    expect(t.logs.join("\n")).not.toContain(made.secret);
  });

  test("a node that is not a webhook_trigger of the saved scenario is 404; others' projects are refused", async () => {
    expect((await t.call("POST", `/api/projects/${project}/hooks/hi/secret`, { cookie })).status).toBe(404);
    expect((await t.call("POST", `/api/projects/${project}/hooks/nope/secret`, { cookie })).status).toBe(404);
    const stranger = await loginAs(t, 72);
    expect((await t.call("GET", `/api/projects/${project}/hooks`, { cookie: stranger })).status).toBe(403);
    expect((await t.call("POST", `/api/projects/${project}/hooks/form/secret`, { cookie: stranger })).status).toBe(403);
    expect((await t.call("GET", `/api/projects/${project}/hooks`)).status).toBe(401);
  });

  test("rotation keeps the URL and invalidates the old secret", async () => {
    const first = await secretFor("form");
    expect((await hook(first.path, { secret: first.secret, json: { user_id: 5 } })).status).toBe(200);
    const second = await secretFor("form");
    expect(second.hookId).toBe(first.hookId);
    expect(second.secret).not.toBe(first.secret);
    const n = bots.told.length;
    expect((await hook(first.path, { secret: first.secret, json: { user_id: 5 } })).status).toBe(401);
    expect(bots.told.length).toBe(n);
    expect((await hook(second.path, { secret: second.secret, json: { user_id: 5 } })).status).toBe(200);
  });
});

describe("POST /api/hooks/<id>", () => {
  test("runs the node's flow for the named user with the body's fields as variables, and answers as the node says", async () => {
    const h = await secretFor("paid");
    const r = await hook(h.path, { secret: h.secret, json: { id: "A-17", total: 9.5, paid: true, customer: { tg: "4242" }, items: [1, 2] } });
    expect(r.status).toBe(202);
    expect(r.body).toEqual({ queued: "A-17" });
    expect(bots.told.at(-1)).toEqual({ tokenId: token, command: { op: "hook", chatId: "4242", nodeId: "paid", vars: { order_id: "A-17", order_total: 9.5, order_paid: true } } });
    // a form body, and the secret as a bearer token
    const form = await secretFor("form");
    const f = await hook(form.path, { body: "user_id=77&city=Kazan", type: "application/x-www-form-urlencoded", headers: { authorization: `Bearer ${form.secret}` } });
    expect(f.status).toBe(200);
    expect(f.body).toEqual({ ok: true });
    expect(bots.told.at(-1)!.command).toEqual({ op: "hook", chatId: "77", nodeId: "form", vars: { user_id: "77", city: "Kazan" } });
  });

  test("a missing or wrong secret is 401 and tells the bot nothing; an unknown hook is 404", async () => {
    const h = await secretFor("form");
    const n = bots.told.length;
    expect((await hook(h.path, { json: { user_id: 1 } })).status).toBe(401);
    expect((await hook(h.path, { secret: h.secret + "x", json: { user_id: 1 } })).status).toBe(401);
    expect((await hook(h.path, { json: { user_id: 1 }, headers: { authorization: "Basic abc" } })).status).toBe(401);
    expect((await hook("/api/hooks/AAAAAAAAAAAAAAAAAAAAAAAA", { secret: h.secret, json: { user_id: 1 } })).status).toBe(404);
    expect((await hook("/api/hooks/..%2F..", { secret: h.secret, json: { user_id: 1 } })).status).toBe(404);
    expect(bots.told.length).toBe(n);
  });

  test("bad bodies: not JSON, not an object, 10,000 levels deep, over 1 MB, another type, no user", async () => {
    const h = await secretFor("form");
    const n = bots.told.length;
    const bad = async (opts: Parameters<typeof hook>[1], status: number) => {
      const r = await hook(h.path, { secret: h.secret, ...opts });
      expect(r.status).toBe(status);
      expect(typeof r.body.error).toBe("string");
      return r;
    };
    await bad({ body: "{nope" }, 400);
    await bad({ json: [1, 2] }, 400);
    await bad({ body: "[".repeat(10_000) + "]".repeat(10_000) }, 400);
    await bad({ body: '{"a":'.repeat(10_000) + "1" + "}".repeat(10_000) }, 400);
    await bad({ body: JSON.stringify({ user_id: 1, pad: "x".repeat(1024 * 1024) }) }, 413);
    await bad({ body: "<xml/>", type: "text/xml" }, 415);
    const noUser = await bad({ json: { id: 1 } }, 400);
    expect(noUser.body.message).toContain('"user_id"');
    await bad({ json: { user_id: "12abc" } }, 400);
    expect(bots.told.length).toBe(n);
  });

  test("a body without Content-Length is still capped at 1 MB", async () => {
    const h = await secretFor("form");
    const chunk = new TextEncoder().encode("x".repeat(64 * 1024));
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(c) {
        if (sent++ < 40) c.enqueue(chunk);
        else c.close();
      },
    });
    const r = await t.app.handle(new Request(`http://localhost${h.path}`, { method: "POST", body: stream, headers: { "content-type": "application/json", "x-botloom-secret": h.secret }, duplex: "half" } as RequestInit));
    expect(r.status).toBe(413);
  });

  test("the bot not running is 409 BOT_NOT_RUNNING", async () => {
    const h = await secretFor("form");
    bots.running.delete(token);
    try {
      const r = await hook(h.path, { secret: h.secret, json: { user_id: 3 } });
      expect(r.status).toBe(409);
      expect(r.body.error).toBe("BOT_NOT_RUNNING");
    } finally {
      bots.running.add(token);
    }
  });

  test("the node's rate limit: past rateLimitPerMinute requests a minute, 429 and nothing runs", async () => {
    const h = await secretFor("paid");
    const statuses: number[] = [];
    // "paid" allows 3 a minute; earlier tests spent one of them
    for (let i = 0; i < 4; i++) statuses.push((await hook(h.path, { secret: h.secret, json: { id: i, customer: { tg: 5 } } })).status);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
    const n = bots.told.length;
    const r = await hook(h.path, { secret: h.secret, json: { id: 9, customer: { tg: 5 } } });
    expect(r.status).toBe(429);
    expect(r.body.error).toBe("RATE_LIMITED");
    expect(bots.told.length).toBe(n);
  });
});

describe("Idempotency-Key (docs/hooks.md \"Retries\")", () => {
  const keyed = (h: { path: string; secret: string }, key: string, user = 501) => hook(h.path, { secret: h.secret, json: { user_id: user }, headers: { "idempotency-key": key } });

  test("a key sent again runs the flow once and answers as the node does, marked as replayed; another key runs again", async () => {
    const h = await secretFor("form");
    const n = bots.told.length;
    const first = await keyed(h, "order-1");
    expect(first.status).toBe(200);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    const again = await keyed(h, "order-1");
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ ok: true });
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(bots.told.length).toBe(n + 1);
    expect((await keyed(h, "order-2")).headers.get("idempotent-replayed")).toBeNull();
    // without a key every request runs, as before
    await hook(h.path, { secret: h.secret, json: { user_id: 501 } });
    await hook(h.path, { secret: h.secret, json: { user_id: 501 } });
    expect(bots.told.length).toBe(n + 4);
  });

  test("keys are per hook: the same key at another hook runs there", async () => {
    const form = await secretFor("form");
    const crm = await secretFor("crm");
    await keyed(form, "shared-key");
    const n = bots.told.length;
    const r = await keyed(crm, "shared-key");
    expect(r.status).toBe(200);
    expect(r.headers.get("idempotent-replayed")).toBeNull();
    expect(bots.told.length).toBe(n + 1);
  });

  test("a delivery the bot did not take gives its key back: the retry after the bot starts runs", async () => {
    const h = await secretFor("form");
    bots.running.delete(token);
    try {
      expect((await keyed(h, "while-stopped")).status).toBe(409);
    } finally {
      bots.running.add(token);
    }
    const n = bots.told.length;
    const retry = await keyed(h, "while-stopped");
    expect(retry.status).toBe(200);
    expect(retry.headers.get("idempotent-replayed")).toBeNull();
    expect(bots.told.length).toBe(n + 1);
  });

  test("a key is remembered for a day: once expired, it runs again", async () => {
    const h = await secretFor("form");
    await keyed(h, "old-key");
    t.ctx.db.update(hookDeliveries).set({ expiresAt: "2000-01-01T00:00:00.000Z" }).run();
    const n = bots.told.length;
    const r = await keyed(h, "old-key");
    expect(r.headers.get("idempotent-replayed")).toBeNull();
    expect(bots.told.length).toBe(n + 1);
    // the expired rows went when the key was taken again
    expect(t.ctx.db.select().from(hookDeliveries).all().every((d) => d.expiresAt > "2001")).toBe(true);
  });

  test("a malformed key is 400 and runs nothing", async () => {
    const h = await secretFor("form");
    const n = bots.told.length;
    for (const bad of ["x".repeat(256), "has space", "a\tb", "caf\u00e9"]) {
      const r = await hook(h.path, { secret: h.secret, json: { user_id: 5 }, headers: { "idempotency-key": bad } });
      expect(r.status).toBe(400);
      expect(r.body.error).toBe("VALIDATION_FAILED");
    }
    expect(bots.told.length).toBe(n);
  });

  test("two requests with one key at once run the flow once", async () => {
    const h = await secretFor("form");
    const n = bots.told.length;
    const answers = await Promise.all([keyed(h, "racing"), keyed(h, "racing"), keyed(h, "racing")]);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    expect(answers.filter((a) => a.headers.get("idempotent-replayed") === "true").length).toBe(2);
    expect(bots.told.length).toBe(n + 1);
  });
});
