// The egress policy's address rules and the secret masker, as pure functions (the end-to-end
// checks are in test/projects/http-test.test.ts and test/scenario/bot-egress.test.ts).
import { describe, expect, test } from "bun:test";
import { egressAddressProblem, egressCheck, egressParseIp, egressPolicy, EgressError, parseEgressAllow } from "../../src/scenario/codegen/runtime/egress";
import { secretMasker } from "../../src/scenario/codegen/runtime/secret-forms";
import { ConfigError, loadConfig } from "../../src/config";
import { maskSecrets, registerSecret } from "../../src/log";

const problem = (ip: string) => egressAddressProblem(egressParseIp(ip)!);
const check = (url: string, allow = "") => egressCheck(egressPolicy(allow), new URL(url));

describe("addresses", () => {
  test("non-public IPv4 and IPv6 ranges are refused; public ones pass", () => {
    for (const ip of ["127.0.0.1", "127.255.0.9", "10.1.2.3", "172.16.0.1", "172.31.255.255", "192.168.0.1", "169.254.169.254", "100.64.0.1", "100.127.255.255", "0.0.0.0", "224.0.0.1", "255.255.255.255", "240.0.0.1", "192.0.2.1", "198.18.0.1"])
      expect([ip, problem(ip)]).toEqual([ip, expect.any(String)]);
    for (const ip of ["::1", "::", "::ffff:127.0.0.1", "::ffff:8.8.8.8", "fd00::1", "fc00::1", "fe80::1", "ff02::1", "64:ff9b::7f00:1", "2002:7f00:1::", "2001::1", "2001:db8::1", "::127.0.0.1", "100::1"])
      expect([ip, problem(ip)]).toEqual([ip, expect.any(String)]);
    for (const ip of ["8.8.8.8", "1.1.1.1", "172.32.0.1", "100.128.0.1", "2606:4700:4700::1111", "2a00:1450:4001::1"]) expect([ip, problem(ip)]).toEqual([ip, undefined]);
  });

  test("numeric spellings of loopback are refused as loopback", async () => {
    for (const url of ["http://2130706433/", "http://0x7f.1/", "http://0177.0.0.1/", "http://127.1/", "http://0x7f000001/", "http://[::ffff:7f00:1]/", "http://[0:0:0:0:0:0:0:1]/"]) {
      const err = await check(url).catch((e) => e);
      expect([url, err instanceof EgressError]).toEqual([url, true]);
      expect((err as Error).message).toMatch(/loopback|IPv4-mapped/);
    }
  });

  test("malformed addresses are not addresses", () => {
    for (const bad of ["1.2.3", "256.1.1.1", "1:2:3", "::1::2", "1:2:3:4:5:6:7:8:9", "g::1", "example.com"]) expect([bad, egressParseIp(bad)]).toEqual([bad, undefined]);
  });
});

describe("the allow list", () => {
  test("entries: host, *.domain, IP, IP:port, [IPv6]:port, networks; bad entries are named", () => {
    const { entries, invalid } = parseEgressAllow(" 127.0.0.1:8080, 10.0.0.0/8,internal.example,*.corp.example:443,[::1]:81,fd00::/8 ,, bad/x, foo:99999, 1.2.3.4/33");
    expect(entries.length).toBe(6);
    expect(invalid).toEqual(["bad/x", "foo:99999", "1.2.3.4/33"]);
  });

  test("an entry opens its address, network, port or name, nothing else", async () => {
    expect(await check("http://127.0.0.1:8080/", "127.0.0.1:8080")).toEqual({ address: "127.0.0.1", port: 8080 });
    await expect(check("http://127.0.0.1:8081/", "127.0.0.1:8080")).rejects.toThrow(EgressError);
    expect((await check("http://10.9.8.7/", "10.0.0.0/8")).address).toBe("10.9.8.7");
    await expect(check("http://11.0.0.1.nip.invalid/", "10.0.0.0/8")).rejects.toThrow("name not found");
    expect((await check("http://localhost:5000/", "localhost:5000")).port).toBe(5000);
    await expect(check("http://localhost:5001/", "localhost:5000")).rejects.toThrow("loopback");
    // the messenger API root given to the policy stays reachable
    expect((await egressCheck(egressPolicy("", ["http://127.0.0.1:8081"]), new URL("http://127.0.0.1:8081/bot1:x/getMe"))).port).toBe(8081);
    await expect(check("ftp://8.8.8.8/")).rejects.toThrow("only http(s)");
  });

  test("EGRESS_ALLOW is checked at start: a bad entry stops the server with its name", () => {
    expect(() => loadConfig({ DATA_DIR: "/tmp/botloom-egress-cfg", SESSION_SECRET: "x".repeat(16), EGRESS_ALLOW: "10.0.0.0/8,not a host" })).toThrow(ConfigError);
    expect(loadConfig({ DATA_DIR: "/tmp/botloom-egress-cfg", SESSION_SECRET: "x".repeat(16), EGRESS_ALLOW: " 10.0.0.0/8 , internal.example " }).egressAllow).toBe("10.0.0.0/8,internal.example");
  });
});

describe("the secret masker", () => {
  const SECRET = "Sk-Live-Key-0123/With+Case";
  const mask = secretMasker([SECRET]);
  test("hides every form: case changed, percent-encoded either case, hex, JSON, base64 at any offset", () => {
    const forms = [
      SECRET,
      SECRET.toLowerCase(),
      SECRET.toUpperCase(),
      encodeURIComponent(SECRET),
      encodeURIComponent(SECRET).toLowerCase(),
      Buffer.from(SECRET).toString("hex"),
      Buffer.from(SECRET).toString("hex").toUpperCase(),
      Buffer.from(SECRET).toString("base64"),
      Buffer.from(SECRET).toString("base64url"),
      JSON.stringify({ k: SECRET }),
    ];
    for (const f of forms) expect(mask(`before ${f} after`)).not.toContain(f);
    for (const user of ["u", "us", "use"]) {
      const basic = Buffer.from(`${user}:${SECRET}`).toString("base64");
      const masked = mask(`Authorization: Basic ${basic}`);
      expect(masked).toContain("***");
      // what is left of the base64 value cannot give the secret back
      expect(Buffer.from(masked.split("Basic ")[1]!.replace("***", ""), "base64").toString()).not.toContain(SECRET.slice(4, 16));
    }
    expect(mask("nothing secret here")).toBe("nothing secret here");
  });

  test("the server log masks a registered secret (admin key, storage keys) in its other forms too", () => {
    const key = "Egress-Test-Admin-Key-42";
    registerSecret(key);
    for (const f of [key, key.toLowerCase(), encodeURIComponent(key), Buffer.from(key).toString("base64"), Buffer.from(key).toString("hex")]) expect(maskSecrets(`x ${f} y`)).toBe("x *** y");
  });

  test("short values are not masked (they would hide ordinary words)", () => {
    expect(secretMasker(["abc"])("abc abc")).toBe("abc abc");
  });
});
