// install.sh under a temporary prefix (no system user, no systemd): fresh install, re-run keeps the
// keys, upgrade replaces the executable and keeps the data, uninstall keeps data unless --purge.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { buildBinary, freePort, startProcessServer } from "../support/process";

const root = resolve(import.meta.dir, "../..");
const script = join(root, "install.sh");
let work: string;
let prefix: string;

/** A stand-in executable: answers `version`, `backup <file>` and `printenv` like the CLI would. */
function stubBinary(version: string): string {
  const file = join(work, `botloom-${version}`);
  writeFileSync(
    file,
    `#!/bin/sh
case "$1" in
  version) echo "${version}" ;;
  backup) echo "copy of $DATA_DIR/botloom.db" > "$2" ;;
  printenv) echo "NODE_ENV=$NODE_ENV PORT=$PORT ADMIN_KEY=$ADMIN_KEY DATA_DIR=$DATA_DIR PWD=$(pwd)" ;;
  printvars) printf '%s|%s|%s|%s\n' "$PORT" "$HOST" "$LOG_LEVEL" "$ADMIN_KEY" ;;
  *) echo "stub $*" ;;
esac
`,
  );
  chmodSync(file, 0o755);
  return file;
}

function run(args: string[], env: Record<string, string> = {}) {
  const p = Bun.spawnSync(["bash", script, ...args], { cwd: work, env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: work, ...env } });
  return { code: p.exitCode, out: p.stdout.toString(), err: p.stderr.toString() };
}

const paths = () => ({
  binary: join(prefix, "opt/botloom/botloom"),
  env: join(prefix, "etc/botloom/botloom.env"),
  unit: join(prefix, "etc/systemd/system/botloom.service"),
  wrapper: join(prefix, "usr/local/bin/botloom"),
  data: join(prefix, "opt/botloom/data"),
  backups: join(prefix, "opt/botloom/backups"),
});

function envOf(file: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of readFileSync(file, "utf8").split("\n")) {
    const m = /^([A-Z_]+)=(.*)$/.exec(line);
    if (m) out[m[1]] = m[2];
  }
  return out;
}

const serviceUserExists = Bun.spawnSync(["id", "botloom"]).exitCode === 0;

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), "botloom-install-"));
  prefix = join(work, "root");
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("install.sh", () => {
  test("fresh install: executable, folders, generated configuration (0600), systemd unit, admin URL and key", () => {
    const r = run(["--prefix", prefix, "--binary", stubBinary("1.0.0.1"), "--port", "5123"]);
    expect(r.err).toBe("");
    expect(r.code).toBe(0);
    const p = paths();
    expect(statSync(p.binary).mode & 0o777).toBe(0o755);
    for (const d of ["data", "bots", "uploads", "backups"]) expect(statSync(join(prefix, "opt/botloom", d)).isDirectory()).toBe(true);
    // What holds tokens and keys is the service's alone (the server warns about anything looser).
    for (const d of ["data", "bots", "backups"]) expect([d, statSync(join(prefix, "opt/botloom", d)).mode & 0o777]).toEqual([d, 0o700]);
    expect(statSync(p.env).mode & 0o777).toBe(0o600);
    const env = envOf(p.env);
    expect(env.NODE_ENV).toBe("production");
    expect(env.PORT).toBe("5123");
    expect(env.HOST).toBe("0.0.0.0");
    // no proxy on this machine is assumed: forwarding headers are believed from no one
    expect(env.TRUSTED_PROXIES).toBeUndefined();
    expect(env.ADMIN_KEY).toMatch(/^[0-9a-f]{48}$/);
    expect(env.SESSION_SECRET).toMatch(/^[0-9a-f]{64}$/);
    expect(env.STORAGE_ENCRYPTION_KEY).toMatch(/^[0-9a-f]{64}$/);
    expect(new Set([env.ADMIN_KEY, env.SESSION_SECRET.slice(0, 48), env.STORAGE_ENCRYPTION_KEY.slice(0, 48)]).size).toBe(3);
    expect(env.DATA_DIR).toBe(p.data);
    const unit = readFileSync(p.unit, "utf8");
    for (const line of [
      "Restart=on-failure",
      "KillMode=control-group",
      `WorkingDirectory=${join(prefix, "opt/botloom")}`,
      `EnvironmentFile=${p.env}`,
      `ExecStart=${p.binary} serve --init`,
      "User=botloom",
      "WantedBy=multi-user.target",
    ]) {
      expect(unit).toContain(`\n${line}\n`);
    }
    const verify = Bun.which("systemd-analyze");
    if (verify) {
      // parse errors name the file and line ("botloom.service:18: Failed to parse ...")
      const v = Bun.spawnSync([verify, "verify", p.unit]);
      expect(v.stdout.toString() + v.stderr.toString()).not.toContain(`${p.unit}:`);
    } else console.warn("[install test] systemd-analyze not found: the unit file is not verified");
    expect(r.out).toContain("Botloom 1.0.0.1 installed");
    expect(r.out).toMatch(/Admin login: http:\/\/\S+:5123\/admin\/login/);
    expect(r.out).toContain(`Admin key:   ${env.ADMIN_KEY}`);
    expect(r.out).toContain("No system user or systemd unit was set up");
    // The start command it prints is the one docs/operations.md gives for its example prefix.
    const printed = r.out.split("\n").find((l) => l.includes("usr/local/bin/botloom serve"))!.trim();
    expect(printed).toBe(`${p.wrapper} serve --init`);
    expect(readFileSync(join(root, "docs", "operations.md"), "utf8")).toContain(printed.replace(prefix, "/tmp/trial"));
  });

  test("the botloom command runs the executable with the installed configuration", () => {
    const p = paths();
    const r = Bun.spawnSync([p.wrapper, "printenv"], { cwd: work, env: { PATH: process.env.PATH ?? "" } });
    const env = envOf(p.env);
    expect(r.stdout.toString().trim()).toBe(`NODE_ENV=production PORT=5123 ADMIN_KEY=${env.ADMIN_KEY} DATA_DIR=${p.data} PWD=${join(prefix, "opt/botloom")}`);
  });

  test("variables the caller sets win over the configuration file; the others come from it", () => {
    const p = paths();
    const env = envOf(p.env);
    const call = (vars: Record<string, string>) =>
      Bun.spawnSync([p.wrapper, "printvars"], { cwd: work, env: { PATH: process.env.PATH ?? "", ...vars } }).stdout.toString().trim();
    expect(call({})).toBe(`5123|0.0.0.0|info|${env.ADMIN_KEY}`);
    expect(call({ PORT: "47020" })).toBe(`47020|0.0.0.0|info|${env.ADMIN_KEY}`);
    expect(call({ PORT: "47020", HOST: "127.0.0.1", LOG_LEVEL: "debug" })).toBe(`47020|127.0.0.1|debug|${env.ADMIN_KEY}`);
    // Values that need quoting survive the round trip through the shell unchanged.
    expect(call({ LOG_LEVEL: "it's a $HOME `x` \"q\"" })).toBe(`5123|0.0.0.0|it's a $HOME \`x\` "q"|${env.ADMIN_KEY}`);
    // The same through `sh -c` with assignments on the command line, as a person types it.
    const typed = Bun.spawnSync(["sh", "-c", `PORT=47021 LOG_LEVEL=warn ${p.wrapper} printvars`], { cwd: work, env: { PATH: process.env.PATH ?? "" } });
    expect(typed.stdout.toString().trim()).toBe(`47021|0.0.0.0|warn|${env.ADMIN_KEY}`);
  });

  test("re-running keeps the configuration and keys exactly; an explicit --port changes only the port", () => {
    const before = readFileSync(paths().env, "utf8");
    const r = run(["--prefix", prefix, "--binary", stubBinary("1.0.0.1")]);
    expect(r.code).toBe(0);
    expect(readFileSync(paths().env, "utf8")).toBe(before);
    expect(r.out).not.toContain("New configuration");
    const again = run(["--prefix", prefix, "--binary", stubBinary("1.0.0.1"), "--port", "6000"]);
    expect(again.code).toBe(0);
    expect(readFileSync(paths().env, "utf8")).toBe(before.replace("PORT=5123", "PORT=6000"));
    expect(statSync(paths().env).mode & 0o777).toBe(0o600);
  });

  test("a configuration from an older install gains missing settings and keeps its values", () => {
    const p = paths();
    const env = envOf(p.env);
    writeFileSync(p.env, `NODE_ENV=production\nPORT=6000\nADMIN_KEY=${env.ADMIN_KEY}\nSESSION_SECRET=${env.SESSION_SECRET}\n`, { mode: 0o600 });
    expect(run(["--prefix", prefix, "--binary", stubBinary("1.0.0.1")]).code).toBe(0);
    const after = envOf(p.env);
    expect(after.ADMIN_KEY).toBe(env.ADMIN_KEY);
    expect(after.SESSION_SECRET).toBe(env.SESSION_SECRET);
    expect(after.STORAGE_ENCRYPTION_KEY).toMatch(/^[0-9a-f]{64}$/);
    expect(after.DATA_DIR).toBe(p.data);
  });

  test("upgrade: replaces the executable, backs the database up first, keeps data and keys", () => {
    const p = paths();
    writeFileSync(join(p.data, "botloom.db"), "the database");
    const keys = readFileSync(p.env, "utf8");
    // three earlier upgrades' backups: with the new one, the oldest goes (three are kept)
    const earlier = ["before-upgrade-20240101-000000.backup", "before-upgrade-20250101-000000.backup", "before-upgrade-20260101-000000.backup"];
    if (!serviceUserExists) for (const f of earlier) writeFileSync(join(p.backups, f), "old");
    const r = run(["--prefix", prefix, "--binary", stubBinary("1.0.0.2")]);
    expect(r.code).toBe(0);
    expect(Bun.spawnSync([p.binary, "version"]).stdout.toString().trim()).toBe("1.0.0.2");
    expect(r.out).toContain("Botloom 1.0.0.2 upgraded");
    expect(readFileSync(p.env, "utf8")).toBe(keys);
    expect(readFileSync(join(p.data, "botloom.db"), "utf8")).toBe("the database");
    expect(existsSync(join(prefix, "opt/botloom/botloom.new"))).toBe(false);
    if (serviceUserExists) {
      console.warn("[install test] a real `botloom` user exists here: the pre-upgrade backup runs as that user and is not checked");
    } else {
      const backups = readdirSync(p.backups).filter((f) => /^before-upgrade-\d{8}-\d{6}\.backup$/.test(f)).sort();
      expect(backups.slice(0, 2)).toEqual(earlier.slice(1));
      expect(backups).toHaveLength(3);
      expect(readFileSync(join(p.backups, backups[2]), "utf8")).toContain(`copy of ${p.data}/botloom.db`);
    }
  });

  test("bad arguments are refused with a message", () => {
    const missing = run(["--prefix", prefix, "--binary", join(work, "nope")]);
    expect(missing.code).not.toBe(0);
    expect(missing.err).toContain("no Botloom executable");
    for (const port of ["0", "70000", "abc", "80;rm"]) {
      const r = run(["--prefix", prefix, "--binary", stubBinary("1.0.0.2"), "--port", port]);
      expect([port, r.code]).toEqual([port, 1]);
      expect(r.err).toContain("--port must be");
    }
    const unknown = run(["--prefix", prefix, "--frobnicate"]);
    expect(unknown.code).not.toBe(0);
    expect(unknown.err).toContain("unknown option: --frobnicate");
    expect(run(["--help"]).out).toContain("--uninstall");
    // the configuration survived the refused runs
    expect(envOf(paths().env).PORT).toBe("6000");
  });

  test("uninstall keeps data and keys; installing again reuses them; --purge removes everything", () => {
    const p = paths();
    const keys = readFileSync(p.env, "utf8");
    const r = run(["--prefix", prefix, "--uninstall"]);
    expect(r.code).toBe(0);
    for (const f of [p.binary, p.unit, p.wrapper]) expect(existsSync(f)).toBe(false);
    expect(readFileSync(join(p.data, "botloom.db"), "utf8")).toBe("the database");
    expect(readFileSync(p.env, "utf8")).toBe(keys);
    expect(r.out).toContain("Kept:");

    expect(run(["--prefix", prefix, "--binary", stubBinary("1.0.0.3")]).code).toBe(0);
    expect(readFileSync(p.env, "utf8")).toBe(keys);

    const purge = run(["--prefix", prefix, "--uninstall", "--purge"]);
    expect(purge.code).toBe(0);
    expect(existsSync(join(prefix, "opt/botloom"))).toBe(false);
    expect(existsSync(join(prefix, "etc/botloom"))).toBe(false);
    expect(existsSync(p.unit)).toBe(false);
  });

  test("BOTLOOM_PREFIX works like --prefix", () => {
    const other = join(work, "other-root");
    const r = run(["--binary", stubBinary("1.0.0.1")], { BOTLOOM_PREFIX: other });
    expect(r.code).toBe(0);
    expect(existsSync(join(other, "opt/botloom/botloom"))).toBe(true);
    expect(existsSync(join(other, "etc/botloom/botloom.env"))).toBe(true);
  });

  test("the real executable, installed under a prefix, starts with the generated configuration", async () => {
    const binary = await buildBinary(root);
    const real = join(work, "real-root");
    const port = await freePort();
    const r = run(["--prefix", real, "--binary", binary, "--port", String(port), "--host", "127.0.0.1"]);
    expect(r.code).toBe(0);
    expect(r.out).toContain(`Admin login: http://127.0.0.1:${port}/admin/login`);
    const env = envOf(join(real, "etc/botloom/botloom.env"));
    // on loopback, behind a proxy of this machine: its X-Forwarded-For names the client (and the server takes the setting)
    expect(env.TRUSTED_PROXIES).toBe("127.0.0.1,::1");
    const server = await startProcessServer([join(real, "usr/local/bin/botloom"), "serve", "--init"], { cwd: work, port });
    try {
      const login = await fetch(`${server.url}/admin/api/login`, { method: "POST", body: new URLSearchParams({ key: env.ADMIN_KEY }), redirect: "manual" });
      expect(login.status).toBe(302);
      const cookie = login.headers.getSetCookie()[0];
      expect(cookie).toContain("Secure"); // production mode
      const version = await fetch(`${server.url}/admin/api/version`, { headers: { cookie: cookie.split(";")[0] } });
      expect(version.status).toBe(200);
      expect(existsSync(join(real, "opt/botloom/data/botloom.db"))).toBe(true);
      // the keys came from the configuration file: nothing was generated into the data folder
      expect(existsSync(join(real, "opt/botloom/data/admin.key"))).toBe(false);
      expect(existsSync(join(real, "opt/botloom/data/session.secret"))).toBe(false);
      expect(server.output()).not.toContain("accessible to other accounts");
    } finally {
      await server.stop();
    }
    // `PORT=… botloom serve`: the caller's port wins over the one in the configuration file.
    const other = await freePort();
    const moved = await startProcessServer([join(real, "usr/local/bin/botloom"), "serve"], { cwd: work, port: other });
    try {
      expect(other).not.toBe(port);
      expect((await fetch(`${moved.url}/api/health`)).status).toBe(200);
      expect(await fetch(`http://127.0.0.1:${port}/api/health`).then(() => "answered", () => "closed")).toBe("closed");
    } finally {
      await moved.stop();
    }
  }, 180_000);

  test("shellcheck finds nothing", () => {
    if (!Bun.which("shellcheck")) {
      console.warn("[install test] shellcheck SKIPPED: not installed (apt-get install -y shellcheck)");
      return;
    }
    const r = Bun.spawnSync(["shellcheck", script]);
    expect(r.stdout.toString() + r.stderr.toString()).toBe("");
    expect(r.exitCode).toBe(0);
  });
});
