// Issue 12 item 6 (headers): every HTML page runs no inline script without this response's nonce,
// refuses framing and sniffing; every other response carries nosniff and a referrer policy.
import { afterAll, describe, expect, test } from "bun:test";
import { adminLogin, createTestApp, loginAs, setUp } from "../support/app";
import { contentSecurityPolicy, htmlSecurityHeaders, withSecurityHeaders } from "../../src/http/security-headers";

const t = createTestApp();
afterAll(() => t.cleanup());

function scriptSrc(csp: string) {
  return csp.split(";").map((d) => d.trim()).find((d) => d.startsWith("script-src")) ?? "";
}

function expectStrictPage(headers: Headers) {
  const csp = headers.get("content-security-policy") ?? "";
  expect(csp).toContain("frame-ancestors 'none'");
  expect(scriptSrc(csp)).not.toContain("'unsafe-inline'");
  expect(scriptSrc(csp)).not.toContain("'unsafe-eval'");
  expect(headers.get("x-frame-options")).toBe("DENY");
  expect(headers.get("x-content-type-options")).toBe("nosniff");
  expect(headers.get("referrer-policy")).toBe("same-origin");
}

describe("HTML pages", () => {
  test("admin login, settings and hub: strict CSP, inline elements carry the response's nonce", async () => {
    await setUp(t);
    const admin = await adminLogin(t);
    const nonces: string[] = [];
    for (const [path, cookie] of [["/admin/login", undefined], ["/admin/settings", admin], ["/admin", admin]] as const) {
      const r = await t.call("GET", path, { cookie });
      expect(r.status).toBe(200);
      expectStrictPage(r.headers);
      const nonce = /'nonce-([^']+)'/.exec(scriptSrc(r.headers.get("content-security-policy")!))?.[1];
      expect(nonce).toBeTruthy();
      nonces.push(nonce!);
      // every inline <script> and <style> carries the nonce; none goes without
      const inline = [...r.text.matchAll(/<(script|style)\b([^>]*)>/g)];
      expect(inline.length).toBeGreaterThan(0);
      for (const m of inline) expect(m[2]).toContain(`nonce="${nonce}"`);
      expect(r.text).not.toMatch(/\son[a-z]+=/i);
    }
    expect(new Set(nonces).size).toBe(nonces.length);
  });

  test("the Studio's index.html", async () => {
    const r = await t.call("GET", "/");
    if (r.status === 503) return console.warn("web app not built: skipped");
    expectStrictPage(r.headers);
  });
});

describe("every response", () => {
  test("JSON answers, errors, redirects and 404s carry nosniff and a referrer policy", async () => {
    const user = await loginAs(t, 4101);
    for (const [method, path, opts] of [
      ["GET", "/api/health", {}],
      ["GET", "/api/projects", { cookie: user }],
      ["GET", "/api/projects", {}],
      ["POST", "/api/projects", { cookie: user, body: "{not json", headers: { "content-type": "application/json" } }],
      ["GET", "/admin", {}],
      ["GET", "/no/such/route", {}],
    ] as const) {
      const r = await t.call(method, path, opts as any);
      expect(r.headers.get("x-content-type-options")).toBe("nosniff");
      expect(r.headers.get("referrer-policy")).toBe("same-origin");
    }
  });
});

describe("the shared builder", () => {
  test("never allows inline scripts, with or without extras", () => {
    for (const p of [{}, { nonce: "abc" }, { styleAttributes: true, scriptSrc: ["https://telegram.org"], frameSrc: ["https://oauth.telegram.org"] }]) {
      const csp = contentSecurityPolicy(p);
      expect(scriptSrc(csp)).not.toContain("unsafe");
      expect(csp).toContain("object-src 'none'");
      expect(csp).toContain("frame-ancestors 'none'");
    }
    expect(contentSecurityPolicy({ nonce: "n1" })).toContain("script-src 'self' 'nonce-n1'");
    expect(htmlSecurityHeaders()["x-frame-options"]).toBe("DENY");
  });

  test("an HTML response without a policy gets the strict one; a route's own headers are kept", () => {
    const bare = new Headers({ "content-type": "text/html; charset=utf-8" });
    withSecurityHeaders(bare);
    expect(scriptSrc(bare.get("content-security-policy")!)).toBe("script-src 'self'");
    expect(bare.get("x-frame-options")).toBe("DENY");
    const own = new Headers({ "content-type": "text/html", "content-security-policy": "default-src 'none'", "referrer-policy": "no-referrer" });
    withSecurityHeaders(own);
    expect(own.get("content-security-policy")).toBe("default-src 'none'");
    expect(own.get("referrer-policy")).toBe("no-referrer");
    const json = new Headers({ "content-type": "application/json" });
    withSecurityHeaders(json);
    expect(json.get("content-security-policy")).toBeNull();
    expect(json.get("x-content-type-options")).toBe("nosniff");
  });
});
