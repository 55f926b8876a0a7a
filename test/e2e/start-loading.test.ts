// The compiled binary between listening and having loaded its app (src/listener.ts, src/main.ts):
// requests of every kind sent in that window get the answers they get afterwards; a start that
// fails in that window fails as before, closes what it held and leaves no pid file; a port or a
// DATA_DIR already served by another server is refused, not shared.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { buildBinary, freePort, spawnServer, startProcessServer, type ProcessServer } from "../support/process";

const ADMIN_KEY = "loading-admin-key-0123456789";
let binary: string;
const dirs: string[] = [];
const servers: ProcessServer[] = [];
/** Every process spawned here, killed after the tests even when one failed halfway. */
const spawned: ReturnType<typeof Bun.spawn>[] = [];

function folder() {
  const d = mkdtempSync(join(tmpdir(), "botloom-loading-"));
  dirs.push(d);
  return d;
}

function spawnServe(cwd: string, port: number, env: Record<string, string> = {}) {
  const proc = spawnServer([binary, "serve"], { cwd, port, env: { ADMIN_KEY, SESSION_SECRET: "loading-session-secret-0123456789", LOG_LEVEL: "info", ...env } });
  spawned.push(proc);
  return proc;
}

/** Resolves as soon as a TCP connection to the port succeeds: the listener is up, the app maybe not. */
async function listening(port: number, proc: { exitCode: number | null }, host = "127.0.0.1") {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline && proc.exitCode === null) {
    const up = await new Promise<boolean>((done) => {
      const s = connect(port, host);
      s.on("connect", () => (s.destroy(), done(true)));
      s.on("error", () => done(false));
    });
    if (up) return true;
    await Bun.sleep(1);
  }
  return false;
}

beforeAll(async () => {
  binary = await buildBinary(resolve(import.meta.dir, "../.."));
}, 120_000);

afterAll(async () => {
  for (const s of servers) await s.stop("SIGKILL");
  for (const p of spawned) {
    if (p.exitCode === null) p.kill("SIGKILL");
    await p.exited;
  }
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe("requests sent while the app loads", () => {
  test("every kind gets the answer it gets once the app is loaded", async () => {
    const dir = folder();
    const port = await freePort();
    const first = await startProcessServer([binary, "serve"], { cwd: dir, port, env: { ADMIN_KEY, SESSION_SECRET: "loading-session-secret-0123456789" } });
    servers.push(first);
    const login = await fetch(`${first.url}/admin/api/login`, { method: "POST", body: new URLSearchParams({ key: ADMIN_KEY }), redirect: "manual" });
    const admin = login.headers.getSetCookie()[0]!.split(";")[0]!;
    await fetch(`${first.url}/admin/api/app-settings`, { method: "PUT", headers: { cookie: admin, "content-type": "application/json" }, body: JSON.stringify({ auth: { loginMode: "dev_login" } }) });
    const dev = await fetch(`${first.url}/api/auth/dev-login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ userId: 1 }) });
    const cookie = dev.headers.getSetCookie()[0]!.split(";")[0]!;
    const json = { cookie, "content-type": "application/json" };
    const project = await (await fetch(`${first.url}/api/projects`, { method: "POST", headers: json, body: JSON.stringify({ name: "Loading" }) })).json();
    expect(await first.stop()).toBe(0);

    const url = `http://127.0.0.1:${port}`;
    const streamed = (bytes: number) => {
      let sent = 0;
      return new ReadableStream<Uint8Array>({
        pull(c) {
          if (sent >= bytes) return c.close();
          sent += 65536;
          c.enqueue(new Uint8Array(65536).fill(120));
        },
      });
    };
    const requests: Record<string, () => Promise<Response>> = {
      list: () => fetch(`${url}/api/projects`, { headers: { cookie } }),
      noCredentials: () => fetch(`${url}/api/projects`),
      malformedJson: () => fetch(`${url}/api/projects`, { method: "POST", headers: json, body: "{nope" }),
      wrongTypes: () => fetch(`${url}/api/projects`, { method: "POST", headers: json, body: JSON.stringify({ name: 5 }) }),
      json11MB: () => fetch(`${url}/api/projects`, { method: "POST", headers: json, body: JSON.stringify({ name: "x".repeat(11 * 1024 * 1024) }) }),
      streamed11MB: () => fetch(`${url}/api/projects`, { method: "POST", headers: json, body: streamed(11 * 1024 * 1024) }),
      streamedUpload53MB: () => fetch(`${url}/api/projects/${project.id}/media`, { method: "POST", headers: { cookie, "content-type": "multipart/form-data; boundary=zz" }, body: streamed(53 * 1024 * 1024) }),
      foreignProject: () => fetch(`${url}/api/projects/999999`, { method: "PUT", headers: json, body: "{}" }),
      deleteForeign: () => fetch(`${url}/api/projects/999999`, { method: "DELETE", headers: { cookie } }),
      options: () => fetch(`${url}/api/projects`, { method: "OPTIONS" }),
      headAdminPage: () => fetch(`${url}/admin/login`, { method: "HEAD" }),
      postHealth: () => fetch(`${url}/api/health`, { method: "POST" }),
      healthSlash: () => fetch(`${url}/api/health/`),
      studio: () => fetch(`${url}/`),
      eventsWithoutUpgrade: () => fetch(`${url}/api/events`, { headers: { cookie } }),
    };
    const answer = async (name: string) => {
      const r = await Promise.race([requests[name]!(), Bun.sleep(15_000).then(() => null)]);
      if (!r) return { name, hung: true };
      const text = await r.text();
      return { name, status: r.status, type: r.headers.get("content-type"), body: text.startsWith("<!doctype") ? "html" : text };
    };
    const names = Object.keys(requests);

    // Retried when this machine was too busy to send before the app opened: the comparison is the point.
    let early: unknown[] = [];
    let late: unknown[] = [];
    let socket = "";
    let heldHealth: unknown = null;
    let aborted = "";
    let proc: ReturnType<typeof spawnServe> | null = null;
    for (let attempt = 0; attempt < 3; attempt++) {
      proc = spawnServe(dir, port);
      expect(await listening(port, proc)).toBe(true);
      const probe = fetch(`${url}/api/health`).then((r) => r.json());
      const ws = new WebSocket(`ws://127.0.0.1:${port}/api/events`, { headers: { cookie } } as unknown as string[]);
      const messages: string[] = [];
      ws.onmessage = (e) => messages.push(String(e.data));
      const opened = new Promise<string>((done) => {
        ws.onopen = () => done("open");
        ws.onclose = (e) => done(`closed ${e.code}`);
      });
      const quitter = new AbortController();
      const quit = fetch(`${url}/api/projects`, { headers: { cookie }, signal: quitter.signal }).then(
        () => "answered",
        (e: Error) => e.name,
      );
      quitter.abort();
      const wrongKeys = [1, 2].map(() => fetch(`${url}/admin/api/login`, { method: "POST", body: new URLSearchParams({ key: "wrong-key-0123456789" }), redirect: "manual" }).then((r) => r.status));
      early = await Promise.all(names.map(answer));
      heldHealth = await probe;
      socket = await opened;
      aborted = await quit;
      expect(await Promise.all(wrongKeys)).toEqual([302, 302]);
      // Every early one is answered, so the app is loaded now.
      late = await Promise.all(names.map(answer));
      // The socket asked for while loading works: it gets the event of a project created now.
      const created = await fetch(`${url}/api/projects`, { method: "POST", headers: json, body: JSON.stringify({ name: "Seen" }) });
      const { id } = await created.json();
      const deadline = Date.now() + 5000;
      while (messages.length === 0 && Date.now() < deadline) await Bun.sleep(20);
      expect(messages.map((m) => JSON.parse(m))).toEqual([{ event: "projects-changed", kind: "created", projectId: id }]);
      ws.close();
      if ((heldHealth as { templates: boolean }).templates === false) break;
      proc.kill("SIGKILL");
      await proc.exited;
    }
    expect(heldHealth).toEqual({ database: true, templates: false, ready: true });
    expect(socket).toBe("open");
    expect(aborted).toBe("AbortError");
    expect(early).toEqual(late);
    // Spot checks that the answers are the app's, with its limits: not a refusal, not a hang.
    const byName = Object.fromEntries(late.map((a) => [(a as { name: string }).name, a]));
    expect(byName.malformedJson).toMatchObject({ status: 400 });
    expect(byName.json11MB).toMatchObject({ status: 413 });
    expect(byName.streamed11MB).toMatchObject({ status: 413 });
    expect(byName.streamedUpload53MB).toMatchObject({ status: 413 });
    expect(byName.foreignProject).toMatchObject({ status: 404 });
    proc!.kill("SIGTERM");
    expect(await proc!.exited).toBe(0);
    // The admin login ladder saw the client's address through the listener, for held requests too.
    const output = (await new Response(proc!.stdout).text()) + (await new Response(proc!.stderr).text());
    expect(output).toContain("wrong key from 127.0.0.1 (2 in a row)");
  }, 120_000);
});

describe("where and how it listens", () => {
  test("production without an admin key: /admin is held, then absent (404), like after loading", async () => {
    const dir = folder();
    const port = await freePort();
    const proc = spawnServe(dir, port, { NODE_ENV: "production", ADMIN_KEY: "" });
    try {
      expect(await listening(port, proc)).toBe(true);
      const url = `http://127.0.0.1:${port}`;
      const health = fetch(`${url}/api/health`).then((r) => r.json());
      const early = await Promise.all(["/admin/login", "/admin/api/status", "/admin"].map((p) => fetch(url + p, { redirect: "manual" }).then((r) => r.status)));
      const late = await Promise.all(["/admin/login", "/admin/api/status", "/admin"].map((p) => fetch(url + p, { redirect: "manual" }).then((r) => r.status)));
      expect((await health).database).toBe(true);
      expect(early).toEqual([404, 404, 404]);
      expect(late).toEqual(early);
    } finally {
      proc.kill("SIGTERM");
      expect(await proc.exited).toBe(0);
    }
    expect(await new Response(proc.stderr).text()).toContain("No admin key configured: the admin area is not available.");
  }, 60_000);

  for (const [host, probe] of [
    ["::1", "::1"],
    ["0.0.0.0", "127.0.0.1"],
  ]) {
    test(`HOST=${host}: health at once, the app once loaded, on ${probe}`, async () => {
      if (host === "::1") {
        try {
          Bun.listen({ hostname: "::1", port: 0, socket: { data() {} } }).stop(true);
        } catch {
          console.warn("skipped: this machine has no IPv6 loopback");
          return;
        }
      }
      const port = await freePort();
      const proc = spawnServe(folder(), port, { HOST: host });
      try {
        expect(await listening(port, proc, probe)).toBe(true);
        const url = `http://${probe.includes(":") ? `[${probe}]` : probe}:${port}`;
        expect((await fetch(`${url}/api/health`)).status).toBe(200);
        expect(await (await fetch(`${url}/admin/api/status`)).json()).toEqual({ authenticated: false, adminEnabled: true });
      } finally {
        proc.kill("SIGTERM");
        expect(await proc.exited).toBe(0);
      }
      expect(await new Response(proc.stdout).text()).toContain(`listening on ${host}:${port}`);
    }, 60_000);
  }
});

describe("a start that cannot finish", () => {
  test("a failure while the app loads: its one line, exit 2, no pid file, held requests closed", async () => {
    const dir = folder();
    // buildContext reads the .env of each bot folder in BOTS_DIR: a folder in its place fails the
    // start after listening (a BOTS_DIR that is no folder is refused before, src/config.ts).
    mkdirSync(join(dir, "bots", "bot_1_1", ".env"), { recursive: true });
    const port = await freePort();
    const proc = spawnServe(dir, port);
    const held: Promise<string>[] = [];
    const sending = (async () => {
      while (proc.exitCode === null) {
        held.push(
          fetch(`http://127.0.0.1:${port}/api/projects`, { method: "POST", body: "{}" }).then(
            (r) => `answered ${r.status}`,
            () => "closed",
          ),
        );
        await Bun.sleep(2);
      }
    })();
    const killer = setTimeout(() => proc.kill("SIGKILL"), 20_000);
    const code = await proc.exited;
    clearTimeout(killer);
    await sending;
    const stderr = await new Response(proc.stderr).text();
    expect(code).toBe(2);
    expect(stderr.trim().split("\n").at(-1)).toMatch(/^botloom: cannot open the database .*botloom\.db: EISDIR: illegal operation on a directory/);
    expect(existsSync(join(dir, "data", "botloom.pid"))).toBe(false);
    // Nothing is left waiting for an app that will never come.
    const settled = await Promise.race([Promise.all(held), Bun.sleep(5000).then(() => null)]);
    expect(settled).not.toBeNull();
    expect(settled!.every((s) => s === "closed")).toBe(true);
  }, 60_000);

  test("a second server on a DATA_DIR already served is refused; the first keeps its pid file and answers", async () => {
    const dir = folder();
    const first = await startProcessServer([binary, "serve"], { cwd: dir, env: { ADMIN_KEY } });
    servers.push(first);
    const pidFile = join(dir, "data", "botloom.pid");
    const firstPid = readFileSync(pidFile, "utf8").trim();
    const second = spawnServe(dir, await freePort());
    const killer = setTimeout(() => second.kill("SIGKILL"), 10_000);
    const code = await second.exited;
    clearTimeout(killer);
    // Before: both ran, resumed the same bots, and the second's stop removed the pid file while the
    // first still ran (`restore` then replaced its databases).
    expect(code).toBe(2);
    expect((await new Response(second.stderr).text()).trim()).toBe(
      `botloom: another Botloom server (pid ${firstPid}) is running on DATA_DIR ${join(dir, "data")}: stop it first, or give this one a DATA_DIR of its own`,
    );
    expect(readFileSync(pidFile, "utf8").trim()).toBe(firstPid);
    expect((await fetch(`${first.url}/admin/api/status`)).status).toBe(200);
    // The lock goes with the process, however it ends: no stale lock after kill -9.
    await first.stop("SIGKILL");
    const next = await startProcessServer([binary, "serve"], { cwd: dir, env: { ADMIN_KEY } });
    servers.push(next);
    expect((await fetch(`${next.url}/admin/api/status`)).status).toBe(200);
    expect(await next.stop()).toBe(0);
  }, 60_000);

  test("a port another server already serves is refused, not shared; the first keeps answering", async () => {
    const port = await freePort();
    const first = await startProcessServer([binary, "serve"], { cwd: folder(), port, env: { ADMIN_KEY } });
    servers.push(first);
    const dir = folder();
    const second = spawnServe(dir, port);
    const killer = setTimeout(() => second.kill("SIGKILL"), 10_000);
    const code = await second.exited;
    clearTimeout(killer);
    // Before: both listened (SO_REUSEPORT) and the kernel split connections between two installs.
    expect(code).toBe(1);
    expect((await new Response(second.stderr).text()).trim()).toBe(`botloom: Failed to start server. Is port ${port} in use?`);
    expect(existsSync(join(dir, "data", "botloom.pid"))).toBe(false);
    for (let i = 0; i < 10; i++) expect((await fetch(`${first.url}/admin/api/status`)).status).toBe(200);
    expect(await first.stop()).toBe(0);
    // Freed by a stop, the port is taken again at once.
    const again = await startProcessServer([binary, "serve"], { cwd: dir, port, env: { ADMIN_KEY } });
    servers.push(again);
    expect((await fetch(`${again.url}/admin/api/status`)).status).toBe(200);
    expect(await again.stop()).toBe(0);
  }, 60_000);
});
