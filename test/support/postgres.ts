// A real PostgreSQL for the tests of psql_query's external connection: initdb into a temporary
// folder and pg_ctl on a free 127.0.0.1 port (unix socket in that folder too), password
// authentication, stopped and removed by stop(). PostgreSQL refuses to run as root: as root the
// commands run as the `postgres` user (runuser) over a folder it owns. Debian's `postgresql`
// package provides the binaries (.ci/run installs it); without them postgresMissing() says so and
// the tests skip with that message.
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "./process";

const ROOT = "/usr/lib/postgresql";

/** The newest installed version's bin folder, or undefined. */
function binDir(): string | undefined {
  if (!existsSync(ROOT)) return undefined;
  const versions = readdirSync(ROOT).filter((v) => existsSync(join(ROOT, v, "bin", "initdb"))).sort((a, b) => Number(b) - Number(a));
  return versions[0] === undefined ? undefined : join(ROOT, versions[0], "bin");
}

/** Why the PostgreSQL tests cannot run here, or undefined when they can. */
export function postgresMissing(): string | undefined {
  if (!binDir()) return `PostgreSQL binaries not found under ${ROOT}/<version>/bin (apt-get install postgresql): external PostgreSQL tests skipped`;
  if (process.getuid?.() === 0 && Bun.spawnSync(["id", "-u", "postgres"]).exitCode !== 0) return "running as root without a `postgres` user to run PostgreSQL as: external PostgreSQL tests skipped";
  return undefined;
}

export interface Postgres {
  port: number;
  /** the superuser's connection string (for the test's own set-up) */
  adminUrl: string;
  /** a connection string of `user` on `db` */
  url(user: string, password: string, db: string): string;
  /** runs SQL as the superuser */
  admin(sql: string): Promise<unknown[]>;
  /** stops the server (immediately) and keeps its files */
  halt(): void;
  /** halts the server and removes its files */
  stop(): Promise<void>;
}

const ADMIN = "pgadmin";
const ADMIN_PASSWORD = "admin-pw-" + Math.random().toString(36).slice(2);

export async function startPostgres(): Promise<Postgres> {
  const bin = binDir();
  if (!bin) throw new Error(postgresMissing());
  const asRoot = process.getuid?.() === 0;
  const dir = mkdtempSync(join(tmpdir(), "botloom-pg-"));
  const data = join(dir, "data");
  const run = (cmd: string[]) => {
    const argv = asRoot ? ["runuser", "-u", "postgres", "--", ...cmd] : cmd;
    const r = Bun.spawnSync(argv, { stdout: "pipe", stderr: "pipe", cwd: dir });
    if (r.exitCode !== 0) throw new Error(`${cmd[0]} failed (${r.exitCode}): ${r.stderr.toString()}${r.stdout.toString()}`);
  };
  writeFileSync(join(dir, "pw"), ADMIN_PASSWORD + "\n");
  if (asRoot) {
    const uid = Number(Bun.spawnSync(["id", "-u", "postgres"]).stdout.toString().trim());
    const gid = Number(Bun.spawnSync(["id", "-g", "postgres"]).stdout.toString().trim());
    chownSync(dir, uid, gid);
    chownSync(join(dir, "pw"), uid, gid);
  }
  run([join(bin, "initdb"), "-D", data, "-U", ADMIN, "--pwfile", join(dir, "pw"), "--auth", "scram-sha-256", "-E", "UTF8", "--no-sync"]);
  const port = await freePort();
  const start = () =>
    run([join(bin, "pg_ctl"), "-D", data, "-l", join(dir, "log"), "-w", "-t", "30", "-o", `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`, "start"]);
  start();
  let up = true;
  const adminUrl = `postgres://${ADMIN}:${ADMIN_PASSWORD}@127.0.0.1:${port}/postgres`;
  const adminSql = new Bun.SQL(adminUrl, { max: 1 });
  const halt = () => {
    if (!up) return;
    up = false;
    run([join(bin, "pg_ctl"), "-D", data, "-m", "immediate", "-w", "stop"]);
  };
  return {
    port,
    adminUrl,
    url: (user, password, db) => `postgres://${encodeURIComponent(user)}:${encodeURIComponent(password)}@127.0.0.1:${port}/${db}`,
    admin: async (sql) => [...((await adminSql.unsafe(sql)) as unknown[])],
    halt: () => {
      void adminSql.close({ timeout: 0 }).catch(() => undefined);
      halt();
    },
    async stop() {
      await adminSql.close({ timeout: 0 }).catch(() => undefined);
      try {
        halt();
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
