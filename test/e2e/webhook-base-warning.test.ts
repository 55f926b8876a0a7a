// WEBHOOK_BASE_URL may be http:// (a local Bot API server, the tests' fake messenger), but Telegram's
// own servers call webhooks only at https addresses on ports 443, 80, 88 and 8443
// (docs/configuration.md). With MESSENGER_API_ROOT at api.telegram.org such a base used to start in
// silence, and every bot in webhook mode then failed to start; now `serve` logs one warning line
// naming the setting, and still starts. An https base, or a local API root, gets no warning.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { firstHealth, freePort, spawnServer } from "../support/process";

const main = resolve(import.meta.dir, "../../src/main.ts");
let root: string;
const spawned: ReturnType<typeof Bun.spawn>[] = [];

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "botloom-webhook-warning-"));
});

afterAll(() => {
  for (const p of spawned) p.kill("SIGKILL");
  if (root) rmSync(root, { recursive: true, force: true });
});

let n = 0;
/** Starts `serve` from source, waits for health, stops it; its whole output once it has exited. */
async function startAndStop(env: Record<string, string>) {
  const dir = join(root, String(++n));
  mkdirSync(dir);
  const port = await freePort();
  const proc = spawnServer([process.execPath, main, "serve"], { cwd: dir, port, env: { ADMIN_KEY: "webhook-warning-admin-key-0123", LOG_LEVEL: "info", UPDATE_CHECK_URL: "http://127.0.0.1:9/version.json", ...env } });
  spawned.push(proc);
  await firstHealth(`http://127.0.0.1:${port}`, proc);
  proc.kill("SIGTERM");
  const killer = setTimeout(() => proc.kill("SIGKILL"), 10_000);
  const code = await proc.exited;
  clearTimeout(killer);
  const [stdout, stderr] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
  expect(code).toBe(0);
  expect(stdout).toContain("listening on");
  return stdout + stderr;
}

const warningLines = (out: string) => out.split("\n").filter((l) => l.includes("WEBHOOK_BASE_URL"));

test("an http:// base with Telegram's own API root is named in one warning line; the server still starts", async () => {
  const out = await startAndStop({ WEBHOOK_BASE_URL: "http://bots.example.com/" });
  const lines = warningLines(out);
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(/\[warn\].*WEBHOOK_BASE_URL http:\/\/bots\.example\.com is not https: Telegram \(MESSENGER_API_ROOT https:\/\/api\.telegram\.org\) calls webhooks only at https:\/\/ addresses on ports 443, 80, 88, 8443/);
}, 60_000);

test("an https base on a port Telegram does not call is named too", async () => {
  const lines = warningLines(await startAndStop({ WEBHOOK_BASE_URL: "https://bots.example.com:5000" }));
  expect(lines).toHaveLength(1);
  expect(lines[0]).toContain("WEBHOOK_BASE_URL https://bots.example.com:5000 uses port 5000");
}, 60_000);

test("no warning for an https base on Telegram's ports, nor for http with a local Bot API server", async () => {
  expect(warningLines(await startAndStop({ WEBHOOK_BASE_URL: "https://bots.example.com" }))).toEqual([]);
  expect(warningLines(await startAndStop({ WEBHOOK_BASE_URL: "https://bots.example.com:8443/botloom" }))).toEqual([]);
  expect(warningLines(await startAndStop({ WEBHOOK_BASE_URL: "http://127.0.0.1:5000", MESSENGER_API_ROOT: "http://127.0.0.1:8081" }))).toEqual([]);
}, 90_000);
