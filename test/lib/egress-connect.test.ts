// How egressFetch connects: a name is resolved once per hop and the connection goes to the checked
// address, the name kept in the Host header and as the TLS server name (no DNS rebinding between
// the check and the connection). Real servers on loopback; the allow list names them.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { lookup } from "node:dns/promises";
import { egressFetch, egressPolicy, EgressError } from "../../src/scenario/codegen/runtime/egress";

let plain: ReturnType<typeof Bun.serve>;
const hosts: string[] = [];
beforeAll(() => {
  plain = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: (req) => {
      hosts.push(req.headers.get("host") ?? "");
      return new Response("plain");
    },
  });
});
afterAll(() => plain.stop(true));

describe("resolution", () => {
  test("a name is resolved once per hop: a second answer (rebinding) never decides the connection", async () => {
    const answers = [["127.0.0.1"], ["10.0.0.1"]];
    let asked = 0;
    const policy = { ...egressPolicy(`127.0.0.1:${plain.port}`), resolve: async () => answers[Math.min(asked++, 1)]! };
    const { response, url } = await egressFetch(policy, `http://rebind.example:${plain.port}/x`);
    expect([response.status, await response.text(), url, asked]).toEqual([200, "plain", `http://rebind.example:${plain.port}/x`, 1]);
    expect(hosts.at(-1)).toBe(`rebind.example:${plain.port}`);
  });

  test("a name with one internal address among public ones is refused", async () => {
    const policy = { ...egressPolicy(""), resolve: async () => ["93.184.216.34", "127.0.0.1"] };
    const err = await egressFetch(policy, "http://mixed.example/").catch((e) => e);
    expect(err).toBeInstanceOf(EgressError);
    expect((err as EgressError).refused).toBe(true);
  });

  test("a name that does not resolve reads as could not connect", async () => {
    const policy = { ...egressPolicy(""), resolve: async () => [] };
    await expect(egressFetch(policy, "http://nothing.example/")).rejects.toThrow("could not connect to nothing.example (name not found)");
  });
});

// https: the certificate is checked against the name though the connection goes to the address.
// The test makes a throwaway certificate with openssl and runs the client in a child process that
// trusts it (NODE_EXTRA_CA_CERTS is read at start).
const openssl = Bun.which("openssl");
describe.skipIf(!openssl)("https by address", () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "botloom-egress-tls-"));
    const made = Bun.spawnSync([openssl!, "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", join(dir, "key.pem"), "-out", join(dir, "cert.pem"), "-days", "2", "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost"], { stderr: "pipe" });
    expect(made.exitCode).toBe(0);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test("the name is the TLS server name: https://localhost verifies; the bare address does not", async () => {
    const first = (await lookup("localhost", { all: true, verbatim: true }))[0]!;
    const tls = Bun.serve({
      port: 0,
      hostname: first.address,
      tls: { key: Bun.file(join(dir, "key.pem")), cert: Bun.file(join(dir, "cert.pem")) },
      fetch: (req) => new Response("host=" + req.headers.get("host")),
    });
    const address = first.family === 6 ? `[${first.address}]` : first.address;
    const script = `
      const { egressFetch, egressPolicy } = await import(${JSON.stringify(join(import.meta.dir, "../../src/scenario/codegen/runtime/egress.ts"))});
      const out = {};
      const r = await egressFetch(egressPolicy("localhost"), "https://localhost:${tls.port}/x");
      out.named = r.response.status + " " + (await r.response.text());
      out.address = await egressFetch(egressPolicy(${JSON.stringify(`${address}:${tls.port}`)}), "https://${address}:${tls.port}/x").then(() => "connected", (e) => e.message);
      console.log(JSON.stringify(out));`;
    const child = Bun.spawn([process.execPath, "-e", script], { env: { ...process.env, NODE_EXTRA_CA_CERTS: join(dir, "cert.pem") }, stdout: "pipe", stderr: "pipe" });
    const timer = setTimeout(() => child.kill(), 15_000);
    try {
      const out = await new Response(child.stdout).text();
      await child.exited;
      const result = JSON.parse(out.trim().split("\n").at(-1)!);
      expect(result.named).toBe(`200 host=localhost:${tls.port}`);
      expect(result.address).toBe(`could not connect to ${address}:${tls.port}`);
    } finally {
      clearTimeout(timer);
      child.kill();
      tls.stop(true);
    }
  });
});
