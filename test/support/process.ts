// Real processes for end-to-end tests: the compiled binary or `bun src/main.ts`, on loopback,
// with a free port, bounded waits and guaranteed cleanup.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";

/** A free TCP port on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const s = createServer();
    s.once("error", rej);
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => res(port));
    });
  });
}

const built = new Map<string, Promise<string>>();

/**
 * Builds dist/<name> once per test run (reused when newer than every source file it embeds is not checked: tests always rebuild once).
 * Benchmarks pass their own name, so they never overwrite a binary that a concurrent test run is executing.
 */
export function buildBinary(root: string, name = "botloom-test"): Promise<string> {
  let once = built.get(name);
  if (once) return once;
  once = (async () => {
    const outfile = join(root, "dist", name);
    const p = Bun.spawn([process.execPath, join(root, "scripts/build.ts")], { cwd: root, env: { ...process.env, BUILD_OUTFILE: outfile }, stdout: "pipe", stderr: "pipe" });
    const code = await p.exited;
    if (code !== 0 || !existsSync(outfile) || statSync(outfile).size === 0) {
      throw new Error(`build failed (${code}): ${await new Response(p.stderr).text()}`);
    }
    return outfile;
  })();
  built.set(name, once);
  return once;
}

export interface ProcessServer {
  url: string;
  port: number;
  proc: ReturnType<typeof Bun.spawn>;
  output(): string;
  stop(signal?: NodeJS.Signals): Promise<number>;
}

/**
 * A server process on loopback `port` in `cwd`, started without waiting for it: for tests that race
 * its start. `env` goes over PATH, HOME (the folder), HOST and PORT.
 */
export function spawnServer(cmd: string[], opts: { cwd: string; port: number; env?: Record<string, string>; output?: "pipe" | "ignore" }) {
  return Bun.spawn(cmd, {
    cwd: opts.cwd,
    env: { PATH: process.env.PATH ?? "", HOME: opts.cwd, HOST: "127.0.0.1", PORT: String(opts.port), ...opts.env },
    stdout: opts.output ?? "pipe",
    stderr: opts.output ?? "pipe",
    stdin: "ignore",
  });
}

/**
 * The body of the first 200 from `url`/api/health, polled every millisecond as an impatient client
 * would (the server answers health before its app has loaded: src/listener.ts); bounded.
 */
export async function firstHealth(url: string, proc: { exitCode: number | null }, timeoutMs = 20_000): Promise<{ database: boolean; templates: boolean; ready: boolean }> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`the server exited with ${proc.exitCode} before answering health`);
    const r = await fetch(`${url}/api/health`).catch(() => null);
    if (r?.status === 200) return r.json();
    if (Date.now() > deadline) throw new Error(`no health answer from ${url} in ${timeoutMs} ms`);
    await Bun.sleep(1);
  }
}

/** Starts a server process and waits (bounded) until /api/health answers. */
export async function startProcessServer(cmd: string[], opts: { cwd: string; env?: Record<string, string>; port?: number; timeoutMs?: number }): Promise<ProcessServer> {
  const port = opts.port ?? (await freePort());
  let out = "";
  const proc = spawnServer(cmd, { cwd: opts.cwd, port, env: { HOME: process.env.HOME ?? "/tmp", LOG_LEVEL: "warn", ...opts.env } });
  const pump = async (s: ReadableStream<Uint8Array>) => {
    const d = new TextDecoder();
    for await (const c of s) out += d.decode(c, { stream: true });
  };
  void pump(proc.stdout as ReadableStream<Uint8Array>);
  void pump(proc.stderr as ReadableStream<Uint8Array>);
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + (opts.timeoutMs ?? 20_000);
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`server exited with ${proc.exitCode}:\n${out}`);
    try {
      const r = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(1000) });
      if (r.status === 200) break;
    } catch {}
    if (Date.now() > deadline) {
      proc.kill("SIGKILL");
      throw new Error(`server did not become healthy in time:\n${out}`);
    }
    await Bun.sleep(50);
  }
  return {
    url,
    port,
    proc,
    output: () => out,
    async stop(signal = "SIGTERM") {
      if (proc.exitCode !== null) return proc.exitCode;
      proc.kill(signal);
      const timer = setTimeout(() => proc.kill("SIGKILL"), 10_000);
      const code = await proc.exited;
      clearTimeout(timer);
      return code;
    },
  };
}

/** Polls `fn` until it returns something truthy (bounded); the error names what was awaited. */
export async function until<T>(fn: () => T | Promise<T>, what: string, timeoutMs = 15_000): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(50);
  }
}

/** Whether a process id is alive (signal 0 probes without signalling). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Live children of `parentPid` read from /proc (no procps needed): those whose command line
 * contains `match`, or for which `match(pid)` holds.
 */
export function childPids(parentPid: number, match: string | ((pid: number) => boolean)): number[] {
  const test = typeof match === "string" ? (pid: number) => readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ").includes(match) : match;
  const out: number[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(fields[1]) !== parentPid || fields[0] === "Z") continue;
      if (test(Number(name))) out.push(Number(name));
    } catch {
      // the process ended while we looked
    }
  }
  return out;
}

/** On a fresh server process: the admin turns dev login on, then `userId` logs in; the session cookie. */
export async function devLoginOnServer(url: string, adminKey: string, userId: number): Promise<string> {
  const login = await fetch(`${url}/admin/api/login`, { method: "POST", body: new URLSearchParams({ key: adminKey }), redirect: "manual" });
  const admin = login.headers.getSetCookie()[0]!.split(";")[0]!;
  const put = await fetch(`${url}/admin/api/app-settings`, { method: "PUT", headers: { cookie: admin, "content-type": "application/json" }, body: JSON.stringify({ auth: { loginMode: "dev_login" } }) });
  if (put.status !== 200) throw new Error(`turning dev login on answered ${put.status}`);
  const dev = await fetch(`${url}/api/auth/dev-login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ userId, firstName: `U${userId}` }) });
  if (dev.status !== 200) throw new Error(`dev login answered ${dev.status}`);
  return dev.headers.getSetCookie()[0]!.split(";")[0]!;
}
