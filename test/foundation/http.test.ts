import { afterEach, beforeEach, describe, expect, spyOn, test } from "bun:test";
import { Elysia } from "elysia";
import { errorHandler } from "../../src/http/errors";
import { createTestApp, loginAs, setUp, type TestApp } from "../support/app";

let t: TestApp;
beforeEach(() => {
  t = createTestApp();
});
afterEach(() => t.cleanup());

describe("setup guard", () => {
  test("before setup: /api/* is 503 NOT_SET_UP except health and auth config; admin is reachable", async () => {
    for (const [method, path] of [["GET", "/api/projects"], ["POST", "/api/auth/dev-login"], ["GET", "/api/bot/projects"], ["POST", "/api/webhook/1/2"], ["GET", "/api/storage-configs"], ["HEAD", "/api/auth/config"], ["GET", "/api/nonexistent"],
      ["POST", "/api/storage-configs"], ["PATCH", "/api/storage-configs/x1"], ["DELETE", "/api/storage-configs/x1"], ["POST", "/api/storage-configs/x1/test"],
      ["GET", "/api/projects/1/media"], ["POST", "/api/projects/1/media"], ["DELETE", "/api/projects/1/media/1"],
      ["GET", "/api/templates"], ["GET", "/api/templates/1"], ["POST", "/api/templates/1/use"], ["GET", "/api/events"], ["GET", "/api/auth/pats"], ["POST", "/api/auth/logout"], ["GET", "/api/docs"]]) {
      const res = await t.call(method, path);
      expect(res.status).toBe(503);
      if (method !== "HEAD") expect(res.body.error).toBe("NOT_SET_UP");
    }
    expect((await t.call("GET", "/api/health")).status).toBe(200);
    expect((await t.call("HEAD", "/api/health")).status).toBe(204);
    expect((await t.call("GET", "/api/health/")).status).toBe(200);
    expect((await t.call("GET", "/api/auth/config/")).status).toBe(200);
    expect((await t.call("GET", "/api/auth/config")).body).toEqual({ setUp: false, loginMode: null, botUsername: null });
    expect((await t.call("GET", "/admin/login")).status).toBe(200);
    expect((await t.call("GET", "/admin/api/status")).status).toBe(200);
    expect((await t.call("GET", "/admin")).status).toBe(302);
    // Public media links are not API paths: a missing file is a 404, not NOT_SET_UP.
    expect((await t.call("GET", "/uploads/1/photo/x.png")).status).toBe(404);
  });

  test("messenger_widget without a complete provider is refused; dev_login opens the API", async () => {
    await expect(t.ctx.settings.update({ auth: { loginMode: "messenger_widget" } })).rejects.toThrow(/clientId and botToken/);
    expect(t.ctx.settings.isSetUp()).toBe(false);
    await setUp(t);
    expect(t.ctx.settings.isSetUp()).toBe(true);
    expect((await t.call("GET", "/api/auth/me")).status).toBe(401);
  });

  test("concurrent saves leave one consistent state", async () => {
    await Promise.all(Array.from({ length: 20 }, () => t.ctx.settings.update({ auth: { loginMode: "dev_login" } })));
    expect(t.ctx.settings.isSetUp()).toBe(true);
    expect(t.ctx.db.$client.query("select count(*) as n from app_settings where key = 'auth'").get()).toEqual({ n: 1 });
  });
});

describe("HTTP core", () => {
  test("health reports database, templates and ready", async () => {
    const res = await t.call("GET", "/api/health");
    expect(res.body).toEqual({ database: true, templates: t.ctx.state.templatesLoaded, ready: true });
    const head = await t.call("HEAD", "/api/health");
    expect(head.text).toBe("");
  });

  test("health reports a closed database without failing", async () => {
    t.ctx.db.$client.close();
    const res = await t.call("GET", "/api/health");
    expect(res.status).toBe(200);
    expect(res.body.database).toBe(false);
    expect(res.body.ready).toBe(false);
  });

  test("unknown routes are 404 JSON", async () => {
    await setUp(t);
    const res = await t.call("GET", "/definitely/not/here");
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: "NOT_FOUND", message: expect.any(String) });
  });

  test("bodies over 10 MB are refused with 413 before reading", async () => {
    await setUp(t);
    const cookie = await loginAs(t, 1);
    const res = await t.call("POST", "/api/auth/pats", { cookie, body: "x", headers: { "content-type": "application/json", "content-length": String(11 * 1024 * 1024) } });
    expect(res.status).toBe(413);
    expect(res.body.error).toBe("PAYLOAD_TOO_LARGE");
    const bad = await t.call("POST", "/api/auth/pats", { cookie, body: "x", headers: { "content-type": "application/json", "content-length": "-5" } });
    expect(bad.status).toBe(400);
  });

  test("a 500 never leaks a stack trace or SQL", async () => {
    const lines: string[] = [];
    const log = { error: (...a: unknown[]) => lines.push(String(a)) } as any;
    const app = new Elysia().use(errorHandler(log)).get("/boom", () => {
      throw new Error("SQLITE_ERROR: near 'DROP TABLE users': syntax error at /src/x.ts:1");
    });
    const res = await app.handle(new Request("http://localhost/boom"));
    expect(res.status).toBe(500);
    const body = await res.json();
    expect(body).toEqual({ error: "INTERNAL", message: "Internal server error" });
    expect(lines.join()).toContain("SQLITE_ERROR");
  });

  test("OpenAPI document is served at /api/openapi.json", async () => {
    await setUp(t);
    const warnings: unknown[] = [];
    const warn = spyOn(console, "warn").mockImplementation((...args: unknown[]) => void warnings.push(args));
    try {
      const res = await t.call("GET", "/api/openapi.json");
      expect(res.status).toBe(200);
      expect(res.body.openapi).toStartWith("3.");
      expect(Object.keys(res.body.paths)).toContain("/api/health");
      // schemas with transforms (templates, settings) are documented too, without a warning per schema
      expect(res.body.paths["/api/templates/"]?.post?.requestBody ?? res.body.paths["/api/templates"]?.post?.requestBody).toBeDefined();
    } finally {
      warn.mockRestore();
    }
    expect(warnings).toEqual([]);
  });
});
