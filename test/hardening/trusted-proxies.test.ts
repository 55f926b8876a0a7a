// Behind a reverse proxy every request comes from the proxy's address, so the per-address limits
// (logins, the admin key's ladder, inbound webhooks) counted the whole world as one client: one
// attacker's wrong admin keys locked the admin out, and his logins used up everybody's. With
// TRUSTED_PROXIES the client is the one the proxy names in X-Forwarded-For; from anyone else the
// header is ignored (docs/configuration.md).
import { afterEach, describe, expect, test } from "bun:test";
import { createApp } from "../../src/app";
import { clientBehindProxies, normalizeAddress } from "../../src/lib/client-address";
import { loadConfig } from "../../src/config";
import { ADMIN_KEY, createTestApp, setUp, type TestApp } from "../support/app";

describe("clientBehindProxies", () => {
  const proxies = new Set(["127.0.0.1", "10.0.0.2"]);
  test.each([
    ["a direct client: its own address, whatever it claims", "203.0.113.5", "198.51.100.1", "203.0.113.5"],
    ["an IPv4-mapped peer is its IPv4 address", "::ffff:203.0.113.5", null, "203.0.113.5"],
    ["through the proxy: the address it appended", "127.0.0.1", "198.51.100.1", "198.51.100.1"],
    ["a client's own forged entries, left of the proxy's, are not believed", "127.0.0.1", "1.1.1.1, 198.51.100.1", "198.51.100.1"],
    ["two trusted proxies: the first untrusted from the right", "127.0.0.1", "198.51.100.1, 10.0.0.2", "198.51.100.1"],
    ["garbage where the proxy's entry should be: the proxy itself", "127.0.0.1", "not-an-ip", "127.0.0.1"],
    ["garbage left of a trusted hop: that hop", "127.0.0.1", "x, 10.0.0.2", "10.0.0.2"],
    ["the proxy without the header: the proxy", "127.0.0.1", null, "127.0.0.1"],
  ])("%s", (_, peer, xff, want) => {
    expect(clientBehindProxies(peer as string, xff as string | null, proxies)).toBe(want as string);
  });

  test("no trusted proxies: the header is never read", () => {
    expect(clientBehindProxies("127.0.0.1", "198.51.100.1", new Set())).toBe("127.0.0.1");
  });

  test("TRUSTED_PROXIES takes IP addresses only; a bad entry stops the server", () => {
    expect([...loadConfig({ TRUSTED_PROXIES: " 127.0.0.1, ::1 ,[::ffff:10.0.0.2]" }).trustedProxies]).toEqual(["127.0.0.1", "::1", "10.0.0.2"]);
    expect(normalizeAddress("proxy.internal")).toBeNull();
    for (const bad of ["proxy.internal", "10.0.0.0/8", "127.0.0.1:8080"]) expect(() => loadConfig({ TRUSTED_PROXIES: bad })).toThrow(/TRUSTED_PROXIES/);
  });
});

describe("the limits behind a proxy on loopback (a real listening server)", () => {
  let t: TestApp | undefined;
  let server: ReturnType<ReturnType<typeof createApp>["listen"]> | undefined;
  afterEach(async () => {
    await server?.stop(true);
    t?.cleanup();
    server = t = undefined;
  });

  async function start(env: Record<string, string>) {
    t = createTestApp({ env: { LOGIN_ATTEMPTS_PER_MINUTE: "2", ADMIN_LOGIN_FREE_FAILURES: "1", ...env } });
    await setUp(t);
    server = createApp(t.ctx).listen({ port: 0, hostname: "127.0.0.1" });
    return `http://127.0.0.1:${server.server!.port}`;
  }
  const devLogin = (base: string, client: string) =>
    fetch(`${base}/api/auth/dev-login`, { method: "POST", headers: { "content-type": "application/json", "x-forwarded-for": client }, body: JSON.stringify({ userId: 5 }) }).then((r) => r.status);
  const adminLogin = (base: string, client: string, key: string) =>
    fetch(`${base}/admin/api/login`, { method: "POST", redirect: "manual", headers: { "x-forwarded-for": client }, body: new URLSearchParams({ key }) }).then((r) => ({ status: r.status, to: r.headers.get("location") }));

  test("with the proxy trusted, one client's logins and wrong admin keys hold back that client only", async () => {
    const base = await start({ TRUSTED_PROXIES: "127.0.0.1" });
    const attacker = "203.0.113.66";
    expect([await devLogin(base, attacker), await devLogin(base, attacker), await devLogin(base, attacker)]).toEqual([200, 200, 429]);
    expect(await devLogin(base, "198.51.100.7")).toBe(200);
    // the attacker's wrong keys put his address on the ladder; the admin's own address is not
    expect((await adminLogin(base, attacker, "wrong-key-0123456789")).to).toBe("/admin/login?error=1");
    expect((await adminLogin(base, attacker, "wrong-key-0123456789")).to).toStartWith("/admin/login?wait=");
    expect(await adminLogin(base, "198.51.100.7", ADMIN_KEY)).toEqual({ status: 302, to: "/admin" });
  });

  test("without TRUSTED_PROXIES a forged X-Forwarded-For changes nothing: the connection's address counts", async () => {
    const base = await start({});
    expect([await devLogin(base, "203.0.113.1"), await devLogin(base, "203.0.113.2"), await devLogin(base, "203.0.113.3")]).toEqual([200, 200, 429]);
  });
});
