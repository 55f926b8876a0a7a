// Shared pieces of the benchmarks: the load generator process, an in-process platform on a real
// port, a bare Bun.serve baseline, RSS readings and the one-line JSON output. Every helper that
// starts something returns a stop function, and `cleanup` runs them all on exit or on a signal.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { loadConfig } from "../src/config";
import { buildContext } from "../src/bootstrap";
import { startServer } from "../src/server";
import { createLogger } from "../src/log";
import type { AppContext } from "../src/context";
import type { SupervisionPolicy } from "../src/bots/policy";
import { buildBinary, freePort, startProcessServer, type ProcessServer } from "../test/support/process";
import { setProcessCpus } from "../src/lib/priority";

export const ROOT = resolve(import.meta.dir, "..");
export const BUN = process.execPath;

export interface LoadTarget {
  name?: string;
  method?: string;
  /** appended to `base`; `{n}` and client vars are substituted */
  path: string;
  headers?: Record<string, string>;
  body?: unknown;
  weight?: number;
  /** statuses that count as success (default: 2xx/3xx) */
  expect?: number[];
}

export interface LoadSpec {
  base: string;
  targets: LoadTarget[];
  connections: number;
  seconds: number;
  warmupSeconds?: number;
  maxRequests?: number;
  timeoutMs?: number;
  headers?: Record<string, string>;
  /** per-connection headers and substitution variables (connection i uses clients[i % len]) */
  clients?: { headers?: Record<string, string>; vars?: Record<string, string> }[];
}

export interface Latency {
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  maxMs: number;
}

export interface TargetFigures extends Latency {
  name: string;
  requests: number;
  errors: number;
}

export interface LoadFigures extends Latency {
  requests: number;
  errors: number;
  seconds: number;
  rps: number;
  connections: number;
  statusCounts: Record<string, number>;
  targets?: TargetFigures[];
  errorSamples?: string[];
}

// --- cleanup --------------------------------------------------------------------------------

const cleanups: (() => unknown)[] = [];
let cleaning: Promise<void> | null = null;

/** Registers a stop function; `cleanup()` runs them newest first. */
export function onCleanup(fn: () => unknown) {
  cleanups.push(fn);
}

export function cleanup(): Promise<void> {
  cleaning ??= (async () => {
    while (cleanups.length) {
      const fn = cleanups.pop()!;
      try {
        await fn();
      } catch {}
    }
  })();
  return cleaning;
}

for (const sig of ["SIGINT", "SIGTERM"] as const) {
  process.on(sig, () => {
    void cleanup().then(() => process.exit(130));
  });
}

/** Runs the benchmark body, prints its figures as ONE JSON line, always cleans up. */
export async function runBench(name: string, body: () => Promise<Record<string, unknown>>, opts: { timeoutMs?: number } = {}) {
  const limit = opts.timeoutMs ?? 10 * 60_000;
  const guard = setTimeout(() => {
    console.error(`${name}: over its ${limit / 1000} s bound, giving up`);
    void cleanup().then(() => process.exit(1));
  }, limit);
  try {
    const figures = await body();
    console.log(JSON.stringify({ bench: name, ...figures, bun: Bun.version, cpus: navigator.hardwareConcurrency }));
  } catch (e) {
    console.error(`${name} failed:`, e instanceof Error ? (e.stack ?? e.message) : e);
    process.exitCode = 1;
  } finally {
    clearTimeout(guard);
    await cleanup();
  }
}

// --- arguments and numbers ------------------------------------------------------------------

/** Runs `fn` over `items`, at most `width` at once. */
export async function pool<T>(items: T[], width: number, fn: (item: T) => Promise<unknown>) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await fn(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, worker));
}

export function arg(name: string, def: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const v = i >= 0 ? Number(process.argv[i + 1]) : def;
  if (!Number.isFinite(v) || v < 0) throw new Error(`--${name} must be a non-negative number`);
  return v;
}

export function latency(samples: number[]): Latency & { n: number } {
  const s = [...samples].sort((a, b) => a - b);
  const n = s.length;
  const at = (q: number) => (n ? round(s[Math.min(n - 1, Math.max(0, Math.ceil(q * n) - 1))]) : 0);
  return { n, p50Ms: at(0.5), p90Ms: at(0.9), p99Ms: at(0.99), maxMs: n ? round(s[n - 1]) : 0 };
}

export const median = (xs: number[]) => latency(xs).p50Ms;
export const round = (x: number, digits = 3) => Number(x.toFixed(digits));
export const ratio = (a: number, b: number) => (b ? round(a / b, 3) : null);

export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), `botloom-bench-${prefix}-`));
  onCleanup(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

// --- load generator (a second process) ------------------------------------------------------

/** Runs bench/loadgen.ts as its own `bun` process and returns its figures. */
export async function runLoad(spec: LoadSpec): Promise<LoadFigures> {
  const proc = Bun.spawn([BUN, join(ROOT, "bench/loadgen.ts"), JSON.stringify(spec)], { stdout: "pipe", stderr: "pipe", stdin: "ignore" });
  const kill = () => proc.kill("SIGKILL");
  onCleanup(kill);
  const bound = setTimeout(kill, ((spec.warmupSeconds ?? 0) + spec.seconds) * 1000 + 60_000);
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  clearTimeout(bound);
  const line = out.trim().split("\n").at(-1) ?? "";
  if (code !== 0 || !line.startsWith("{")) throw new Error(`loadgen exited with ${code}: ${err || out}`);
  return JSON.parse(line) as LoadFigures;
}

/** The figures worth keeping from a load run. */
export const brief = (f: LoadFigures) => ({ rps: f.rps, p50Ms: f.p50Ms, p99Ms: f.p99Ms, maxMs: f.maxMs, requests: f.requests, errors: f.errors });

// --- servers --------------------------------------------------------------------------------

/** A bare Bun.serve answering a fixed body: the floor of this machine in the same run. */
export function bareServer(body: string | (() => string), contentType = "application/json") {
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: () => new Response(typeof body === "function" ? body() : body, { headers: { "content-type": contentType } }),
  });
  onCleanup(() => server.stop(true));
  return { url: `http://127.0.0.1:${server.port}`, stop: () => server.stop(true) };
}

export interface Platform {
  ctx: AppContext;
  url: string;
  dir: string;
  /** dev-login as `userId`; returns the cookie header value */
  login(userId: number): Promise<string>;
  stop(): Promise<void>;
}

export const BENCH_SESSION_SECRET = "bench-session-secret-0123456789";

/** The platform in this process on a real loopback port, set up with dev login. */
export async function startPlatform(opts: { env?: Record<string, string>; botPolicy?: SupervisionPolicy } = {}): Promise<Platform> {
  const dir = tempDir("platform");
  const port = await freePort();
  const config = loadConfig({
    DATA_DIR: join(dir, "data"),
    BOTS_DIR: join(dir, "bots"),
    UPLOADS_DIR: join(dir, "uploads"),
    SESSION_SECRET: BENCH_SESSION_SECRET,
    LOG_LEVEL: "silent",
    HOST: "127.0.0.1",
    PORT: String(port),
    PATH: process.env.PATH,
    ...opts.env,
  });
  const ctx = buildContext(config, { log: createLogger("silent"), botPolicy: opts.botPolicy });
  await ctx.settings.update({ auth: { loginMode: "dev_login" } });
  const server = await startServer(ctx);
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await server.stop();
  };
  onCleanup(stop);
  return {
    ctx,
    url: server.url,
    dir,
    login: (userId) => devLogin(server.url, userId),
    stop,
  };
}

export const BENCH_ADMIN_KEY = "bench-admin-key-0123456789";

/** HTTP session helpers shared by both platform kinds. */
async function devLogin(url: string, userId: number): Promise<string> {
  const res = await fetch(`${url}/api/auth/dev-login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ userId, firstName: `U${userId}` }) });
  if (res.status !== 200) throw new Error(`dev-login ${res.status}`);
  return res.headers.getSetCookie().find((c) => c.startsWith("connect.sid="))!.split(";")[0];
}

export interface BinaryPlatform {
  url: string;
  dir: string;
  /** admin_auth cookie */
  admin: string;
  server: ProcessServer;
  login(userId: number): Promise<string>;
  /** Starts the server again on the same folder (after `server.stop`). */
  restart(): Promise<void>;
}

/**
 * The compiled binary (dist/botloom-bench, built once) as its own process in a fresh folder, set up
 * through the admin API with dev login. `env` reaches the server (MESSENGER_API_ROOT, ...);
 * `cpuProfileDir` runs `src/main.ts` under Bun's CPU profiler instead of the binary.
 */
export async function startBinaryPlatform(opts: { env?: Record<string, string>; webhooks?: boolean; cpuProfileDir?: string } = {}): Promise<BinaryPlatform> {
  // From source with Bun's CPU profiler instead (written to `cpuProfileDir` when the server stops):
  // what the server's own thread spends its time on under a bench's load.
  const cmd = opts.cpuProfileDir
    ? [BUN, "--cpu-prof", "--cpu-prof-md", `--cpu-prof-dir=${opts.cpuProfileDir}`, join(ROOT, "src/main.ts"), "serve"]
    : [await buildBinary(ROOT, "botloom-bench"), "serve"];
  const dir = tempDir("binary");
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const env = { ADMIN_KEY: BENCH_ADMIN_KEY, SESSION_SECRET: BENCH_SESSION_SECRET, LOG_LEVEL: "warn", ...(opts.webhooks ? { WEBHOOK_BASE_URL: url } : {}), ...opts.env };
  const p: BinaryPlatform = {
    url,
    dir,
    admin: "",
    server: await startProcessServer(cmd, { cwd: dir, env, port, timeoutMs: 60_000 }),
    login: (userId) => devLogin(url, userId),
    async restart() {
      p.server = await startProcessServer(cmd, { cwd: dir, env, port, timeoutMs: 60_000 });
    },
  };
  onCleanup(() => p.server.stop("SIGTERM"));
  const login = await fetch(`${url}/admin/api/login`, { method: "POST", body: new URLSearchParams({ key: BENCH_ADMIN_KEY }), redirect: "manual" });
  const admin = (p.admin = login.headers.getSetCookie()[0].split(";")[0]);
  const put = await fetch(`${url}/admin/api/app-settings`, { method: "PUT", headers: { cookie: admin, "content-type": "application/json" }, body: JSON.stringify({ auth: { loginMode: "dev_login" } }) });
  if (put.status !== 200) throw new Error(`setup failed: ${put.status} ${await put.text()}`);
  return p;
}

/** JSON request helper for set-up steps; throws on an unexpected status. */
export async function api(url: string, method: string, path: string, opts: { cookie?: string; json?: unknown; expect?: number } = {}): Promise<any> {
  const headers: Record<string, string> = {};
  if (opts.cookie) headers.cookie = opts.cookie;
  if (opts.json !== undefined) headers["content-type"] = "application/json";
  const res = await fetch(url + path, { method, headers, body: opts.json === undefined ? undefined : JSON.stringify(opts.json) });
  const text = await res.text();
  if (res.status !== (opts.expect ?? (method === "POST" && path === "/api/projects" ? 201 : 200))) throw new Error(`${method} ${path} answered ${res.status}: ${text}`);
  return text ? JSON.parse(text) : undefined;
}

/**
 * Bot webhook ports are 9000 + tokenId, so tokens of a fresh database (ids 1, 2, ...) would share
 * ports with any other test run on this machine. Benchmarks start their token ids at a random
 * high base instead (AUTOINCREMENT reads sqlite_sequence).
 */
export function raiseTokenIds(databasePath: string, count: number): number {
  const { Database } = require("bun:sqlite") as typeof import("bun:sqlite");
  const base = 20_000 + Math.floor(Math.random() * (30_000 - count)); // 9000 + id stays below 60000
  const db = new Database(databasePath);
  db.exec("PRAGMA busy_timeout = 5000");
  db.prepare("DELETE FROM sqlite_sequence WHERE name = 'bot_tokens'").run();
  db.prepare("INSERT INTO sqlite_sequence(name, seq) VALUES ('bot_tokens', ?)").run(base);
  db.close();
  return base + 1;
}

// --- processes ------------------------------------------------------------------------------

export { childrenOf, cpuMs, rssMb, threadCpuMs, treeOf, treeRssMb } from "./proc";

export async function until<T>(fn: () => T | Promise<T>, what: string, timeoutMs: number, stepMs = 20): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(stepMs);
  }
}

/**
 * Health requests one at a time, 10 ms apart, for `ms`: their latencies. The probe is a process of
 * its own, so the bench's own work (a load's clients, the fake messenger) does not delay it.
 * `fetch` (the default): Bun's fetch, whose HTTP client runs on a thread of its own, so each
 * request crosses threads in the probe twice more. `socket`: a raw HTTP/1.1 request on one
 * kept-alive connection, read on the probe's only thread; on busy cores the probe's own waits for a
 * core then weigh less (docs/performance.md "The event loop's long turns, traced").
 */
/**
 * `--probe fetch|socket|stamped` (healthProbe); socket when not given. The fetch probe's own HTTP-client
 * thread was the first of the threads that took the event loop's core under load (scheduler traces
 * in docs/performance.md): the one-thread socket probe measures the same request with less of itself in it.
 */
export const probeArg = (): "fetch" | "socket" | "stamped" => {
  const kind = process.argv.includes("--probe") ? process.argv[process.argv.indexOf("--probe") + 1] : undefined;
  return kind === "fetch" || kind === "stamped" ? kind : "socket";
};

export async function healthProbe(url: string, ms: number, kind: "fetch" | "socket" | "stamped" = "socket", cpus: Uint8Array | null = null, warmupMs = 0): Promise<number[]> {
  if (kind === "stamped") return (await stampedHealthProbe(url, ms, cpus, warmupMs)).seen;
  const code = kind === "fetch" ? fetchProbe(url, ms, warmupMs) : socketProbe(url, ms, warmupMs);
  return JSON.parse(await probeProcess([BUN, "-e", code], cpus));
}

/**
 * The socket probe's requests, each timed twice: as the probe's process saw the answer (`seen`)
 * and when the kernel put it on the probe's socket (`atSocket`, bench/stamped-probe.ts): the second
 * leaves out the probe's own wait for a core, which on a busy machine is the probe's, not the server's.
 */
export async function stampedHealthProbe(url: string, ms: number, cpus: Uint8Array | null = null, warmupMs = 0): Promise<{ seen: number[]; atSocket: number[]; unstamped: number }> {
  return JSON.parse(await probeProcess([BUN, join(import.meta.dir, "stamped-probe.ts"), url, String(ms), String(warmupMs)], cpus));
}

async function probeProcess(cmd: string[], cpus: Uint8Array | null): Promise<string> {
  const proc = Bun.spawn(cmd, { stdout: "pipe", stderr: "inherit" });
  // `cpus`: where it runs, whatever cores this process keeps to
  setProcessCpus(proc.pid, cpus);
  onCleanup(() => proc.kill());
  const out = await new Response(proc.stdout).text();
  if ((await proc.exited) !== 0) throw new Error("the health probe failed");
  return out;
}

// \`warmupMs\`: the probe's first requests for that long are not kept. A probe process just started
// answers its first second of probes slower (its own code not yet compiled, a new connection):
// about seven of the 22 slowest idle probes of a 24-second run (docs/performance.md "The figure
// against a quiet server").
const fetchProbe = (url: string, ms: number, warmupMs: number) =>
  `const s=[];const from=performance.now()+${warmupMs};const end=from+${ms};while(performance.now()<end){const t=performance.now();const r=await fetch(${JSON.stringify(url + "/api/health")});await r.arrayBuffer();if(r.status!==200)throw new Error("health "+r.status);if(t>=from)s.push(performance.now()-t);await Bun.sleep(10)}console.log(JSON.stringify(s))`;

/** The answer is complete when its headers and Content-Length bytes of body are in. */
const socketProbe = (url: string, ms: number, warmupMs: number) => {
  const { hostname, port } = new URL(url);
  return `
const request = ${JSON.stringify(`GET /api/health HTTP/1.1\r\nHost: ${hostname}:${port}\r\n\r\n`)};
let answered = null, buf = "";
const socket = await Bun.connect({ hostname: ${JSON.stringify(hostname)}, port: ${Number(port)}, socket: {
  data(_s, chunk) {
    buf += chunk.toString("latin1");
    const head = buf.indexOf("\\r\\n\\r\\n");
    if (head < 0) return;
    const length = Number(/content-length: *(\\d+)/i.exec(buf.slice(0, head))?.[1] ?? 0);
    if (buf.length < head + 4 + length) return;
    if (!buf.startsWith("HTTP/1.1 200")) throw new Error("health " + buf.slice(0, 12));
    buf = "";
    answered?.();
  },
  close() { if (answered) throw new Error("the server closed the probe's connection"); },
} });
socket.setNoDelay(true);
const s = [];
const from = performance.now() + ${warmupMs};
const end = from + ${ms};
while (performance.now() < end) {
  const done = new Promise((r) => (answered = r));
  const t = performance.now();
  socket.write(request);
  await done;
  if (t >= from) s.push(performance.now() - t);
  answered = null;
  await Bun.sleep(10);
}
socket.end();
console.log(JSON.stringify(s));`;
};
