// Faults of the compiled binary: kill -9 while bots run and writes are in flight (a restart on the
// same folder keeps everything that was acknowledged and brings the bots back), and a data folder
// that cannot be written (a file where the folder should be; a read-only file system when this
// machine lets the test mount one): one readable line, a non-zero exit, the data untouched.
// A bot that crashes in a loop ending in `error` after the backoff policy is covered by
// test/bots/runtime.test.ts ("a killed bot is restarted; a bot that keeps crashing ends in error").
import { describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { greeterScenario } from "../bots/scenario-fixture";
import { useBinaryServer } from "../support/binary-server";
import { freePort, isAlive, until } from "../support/process";

const ADMIN_KEY = "faults-admin-key-0123456789";
const SESSION_SECRET = "faults-session-secret-0123456789";
const h = useBinaryServer("botloom-faults-", { ADMIN_KEY, SESSION_SECRET });
const start = () => h.start();
const alive = isAlive;

describe("kill -9 of the server", () => {
  test("with bots running and writes in flight: nothing acknowledged is lost, the bots come back", async () => {
    const s = await start();
    const url = s.url;
    const login = await fetch(`${url}/admin/api/login`, { method: "POST", body: new URLSearchParams({ key: ADMIN_KEY }), redirect: "manual" });
    const admin = login.headers.getSetCookie()[0].split(";")[0];
    await fetch(`${url}/admin/api/app-settings`, { method: "PUT", headers: { cookie: admin, "content-type": "application/json" }, body: JSON.stringify({ auth: { loginMode: "dev_login" } }) });
    const dev = await fetch(`${url}/api/auth/dev-login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ userId: 1 }) });
    const cookie = dev.headers.getSetCookie()[0].split(";")[0];
    const json = { cookie, "content-type": "application/json" };
    const post = (path: string, body: unknown) => fetch(url + path, { method: "POST", headers: json, body: JSON.stringify(body) });

    // two bots running
    const project = await (await post("/api/projects", { name: "Survivor", data: greeterScenario })).json();
    const bots = [h.fake.addBot({ username: "survivor_a_bot" }), h.fake.addBot({ username: "survivor_b_bot" })];
    const tokenIds: number[] = [];
    for (const b of bots) {
      const token = await (await post(`/api/bot/projects/${project.id}/tokens`, { token: b.token })).json();
      tokenIds.push(token.id);
      const started = await fetch(`${url}/api/bot/tokens/${token.id}/start`, { method: "POST", headers: { cookie } });
      if (started.status !== 200) throw new Error(`start: ${started.status} ${await started.text()}\n${s.output()}`);
    }
    for (const b of bots) await until(() => h.fake.calls(b.token, "getUpdates").length > 0, "the bots to poll");
    const botPids = (readFileSync(`/proc/${s.proc.pid}/task/${s.proc.pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number));
    expect(botPids.length).toBe(1); // both bots in their owner's one runner

    // writers: project creates and env variables, recording what was acknowledged with a 2xx
    const ackedProjects: { id: number; name: string }[] = [];
    const ackedEnv: string[] = [];
    let stop = false;
    let n = 0;
    const writer = async () => {
      while (!stop) {
        const i = n++;
        try {
          if (i % 3 === 2) {
            const key = `KEY_${i}`;
            const r = await post(`/api/bot/tokens/${tokenIds[0]}/env`, { key, value: `v${i}` });
            if (r.status === 201) ackedEnv.push(key);
          } else {
            const r = await post("/api/projects", { name: `Write ${i}`, data: greeterScenario });
            if (r.status === 201) ackedProjects.push({ id: (await r.json()).id, name: `Write ${i}` });
          }
        } catch {
          return; // the server is gone
        }
      }
    };
    const writers = Array.from({ length: 8 }, writer);
    await until(() => ackedProjects.length + ackedEnv.length >= 60, "60 acknowledged writes");
    s.proc.kill("SIGKILL");
    await s.proc.exited;
    stop = true;
    await Promise.all(writers);
    // Writes sent but never acknowledged: the kill came while they were in flight. Eight writers
    // never pause between writes, so some must have been cut off, or the test killed an idle server.
    const inFlight = n - ackedProjects.length - ackedEnv.length;
    expect(inFlight).toBeGreaterThan(0);
    expect(ackedProjects.length).toBeGreaterThan(30);
    // the orphaned bots notice (stdin closes) and exit
    await until(() => botPids.every((p) => !alive(p)), "the orphaned bots to exit", 10_000);

    const s2 = await start();
    for (const p of ackedProjects) {
      const r = await fetch(`${s2.url}/api/projects/${p.id}`, { headers: { cookie } });
      expect(r.status).toBe(200);
      expect((await r.json()).name).toBe(p.name);
    }
    const list = (await (await fetch(`${s2.url}/api/projects/list`, { headers: { cookie } })).json()) as { id: number }[];
    const listed = new Set(list.map((p) => p.id));
    expect(ackedProjects.filter((p) => !listed.has(p.id))).toEqual([]);
    // A write in flight may or may not have landed, but nothing beyond what was sent appears.
    const written = (list as { id: number; name: string }[]).filter((p) => p.name.startsWith("Write "));
    expect(written.length).toBeGreaterThanOrEqual(ackedProjects.length);
    expect(written.length).toBeLessThanOrEqual(ackedProjects.length + inFlight);
    const envKeys = ((await (await fetch(`${s2.url}/api/bot/tokens/${tokenIds[0]}/env`, { headers: { cookie } })).json()).items as { key: string }[]).map((e) => e.key);
    expect(ackedEnv.filter((k) => !envKeys.includes(k))).toEqual([]);

    // both bots were running when the server died: they are running again and answer
    for (const id of tokenIds) {
      await until(async () => (await (await fetch(`${s2.url}/api/bot/tokens/${id}/status`, { headers: { cookie } })).json()).status === "running", `bot ${id} resumed`);
    }
    for (const b of bots) {
      h.fake.sendText(b.token, { id: 31337, first_name: "Eve" }, "/start");
      expect((await h.fake.waitForSent(b.token, 31337, 1, 15_000))[0].params.text).toBe("Привет, Eve!");
    }
    const db = new Database(join(h.dir, "data", "botloom.db"), { readonly: true });
    expect(db.query("PRAGMA integrity_check").get()).toEqual({ integrity_check: "ok" });
    db.close();
    await s2.stop("SIGTERM");
  }, 90_000);
});

/** Runs `serve` with this DATA_DIR; bounded; returns exit code and all output. */
async function serveWith(dataDir: string, cwd: string) {
  const p = Bun.spawn([h.binary, "serve"], {
    cwd,
    env: { PATH: process.env.PATH ?? "", HOME: cwd, HOST: "127.0.0.1", PORT: String(await freePort()), DATA_DIR: dataDir, ADMIN_KEY, LOG_LEVEL: "info" },
    stdout: "pipe",
    stderr: "pipe",
    stdin: "ignore",
  });
  const timer = setTimeout(() => p.kill("SIGKILL"), 15_000);
  const [out, err, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  clearTimeout(timer);
  return { code, lines: (out + err).split("\n").filter((l) => l.trim() !== "") };
}

function expectOneClearLine(r: { code: number; lines: string[] }, mentions: string) {
  expect(r.code).not.toBe(0);
  expect(r.lines).toHaveLength(1);
  expect(r.lines[0]).toStartWith("botloom: ");
  expect(r.lines[0]).toContain(mentions);
  expect(r.lines[0]).toContain("DATA_DIR");
  expect(r.lines[0]).not.toMatch(/\bat .*:\d+|\.ts:\d/);
}

describe("a data folder that cannot be written", () => {
  test("DATA_DIR is a file, or lies under one: one line, non-zero exit, the file untouched", async () => {
    const work = mkdtempSync(join(tmpdir(), "botloom-faults-ro-"));
    try {
      const file = join(work, "not-a-folder");
      writeFileSync(file, "precious\n");
      expectOneClearLine(await serveWith(file, work), file);
      expectOneClearLine(await serveWith(join(file, "data"), work), file);
      expect(readFileSync(file, "utf8")).toBe("precious\n");
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }, 30_000);

  // Tests run as root, which ignores permission bits (chmod 0555 would not stop it); a read-only
  // mount does. Mounting needs CAP_SYS_ADMIN: where the machine refuses, this part is skipped.
  const mountable = (() => {
    const probe = mkdtempSync(join(tmpdir(), "botloom-faults-probe-"));
    let ok = false;
    try {
      ok = Bun.spawnSync(["mount", "-t", "tmpfs", "-o", "ro,size=1m", "tmpfs", probe], { stderr: "ignore" }).exitCode === 0;
      if (ok) ok = Bun.spawnSync(["umount", probe]).exitCode === 0;
    } catch {
      ok = false; // no mount command here
    }
    rmSync(probe, { recursive: true, force: true });
    return ok;
  })();

  test.skipIf(!mountable)("an existing database on a read-only file system: one line, non-zero exit, the database unchanged", async () => {
    const mountDir = mkdtempSync(join(tmpdir(), "botloom-faults-mnt-"));
    expect(Bun.spawnSync(["mount", "-t", "tmpfs", "-o", "size=32m", "tmpfs", mountDir]).exitCode).toBe(0);
    try {
      const data = join(mountDir, "data");
      mkdirSync(data);
      mkdirSync(join(mountDir, "empty"));
      cpSync(join(h.dir, "data"), data, { recursive: true }); // the folder of the kill -9 test, stopped cleanly
      writeFileSync(join(data, "session.secret"), SESSION_SECRET + "\n");
      expect(Bun.spawnSync(["mount", "-o", "remount,ro", mountDir]).exitCode).toBe(0);
      const hash = () => new Bun.CryptoHasher("sha256").update(readFileSync(join(data, "botloom.db"))).digest("hex");
      const before = hash();
      expectOneClearLine(await serveWith(data, mountDir), data);
      expect(hash()).toBe(before);
      // an empty read-only folder fails the same way, before anything is written
      expectOneClearLine(await serveWith(join(mountDir, "empty"), mountDir), join(mountDir, "empty"));
    } finally {
      Bun.spawnSync(["umount", "-l", mountDir]);
      rmSync(mountDir, { recursive: true, force: true });
    }
  }, 30_000);
});
