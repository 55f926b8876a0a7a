#!/usr/bin/env bun
// CLI entry (docs/cli.md): serve [--init] | pat create | backup [file] | restore <file> | version.
// Only what `serve` needs before it listens is imported here; the app, its services and the other
// commands are imported where they are used, so that the executable loads their code after it
// listens (src/listener.ts, bench/cold-start.ts).
import { existsSync } from "node:fs";
import { parseArgs } from "node:util";
import { checkFolders, ConfigError, initDataDir, loadConfig, webhookBaseWarning, type Config } from "./config";
import { migrationsCurrent, openSqlite, schemaNewerThanThis } from "./db/sqlite";
import { looseModeWarnings } from "./lib/file-modes";
import { checkpointOffThread, type Checkpointer } from "./db/checkpointer";
import { removePidFile, runningServerPid, writePidFile } from "./lib/pid-file";
import { lockDataDir } from "./db/instance-lock";
import { listen, reachableHost } from "./listener";
import { loadApp, turn } from "./app-loader";
import { healthStatus } from "./modules/health/status";
import type { BackupSchedule } from "./modules/backups/schedule";
import { createLogger, type Logger } from "./log";
import type { AppContext } from "./context";
import type { RunningServer } from "./server";
import { VERSION } from "./version";
import { closeNow } from "./lib/shared-runtime";

/** How long after listening bot resume and the backup schedule begin (the first requests do not wait for them). */
const BACKGROUND_DELAY_MS = 100;

const USAGE = `Usage: botloom <command>
  serve [--init]                                   start the server (--init: create folders and an admin key on first run)
  pat create --user <messengerId> [--scope bot_manager] [--name N]   print a new personal access token once
  backup [file]                                    back up the platform and project databases (default: DATA_DIR/backups/)
  restore <file>                                   replace the databases with a backup (server stopped; the old ones are kept aside)
  version                                          print the installed version`;

function fail(message: string, code = 1): never {
  console.error(message);
  process.exit(code);
}

/**
 * The databases live in DATA_DIR: when the platform's (or, while the context is built, a project's)
 * cannot be opened, say where and why in one line.
 */
function openingDatabases<T>(config: Config, open: () => T): T {
  try {
    return open();
  } catch (e) {
    const reason = e instanceof Error ? e.message : String(e);
    const hint = /unable to open|readonly|read-only|EROFS|EACCES|EPERM|ENOTDIR|EEXIST/i.test(reason) ? ` (DATA_DIR ${config.dataDir} must be a writable folder)` : "";
    throw new ConfigError(`cannot open the database ${config.databasePath}: ${reason}${hint}`);
  }
}

/**
 * A HOST that is no address of this machine failed with Bun's bare "ENOENT: no such file or
 * directory, listen": say which setting. A port in use keeps Bun's own line, which names it.
 */
function listening<T>(config: Config, open: () => T): T {
  try {
    return open();
  } catch (e) {
    const reason = e instanceof Error ? e.message : String(e);
    if (/in use/i.test(reason)) throw e;
    const hint = /permission denied|EACCES/i.test(reason)
      ? "ports below 1024 need privileges: use a PORT of 1024 or more (behind a reverse proxy)"
      : "HOST must be an address of this machine, such as 0.0.0.0 or 127.0.0.1";
    throw new ConfigError(`cannot listen on HOST ${config.host}, PORT ${config.port} (${reason}): ${hint}`);
  }
}

async function serve(init: boolean) {
  // Stop signals are ours from the first line: one that came between writing the pid file and
  // registering these (the logging in between took milliseconds) killed the process with the
  // default action, exit 143, and left the pid file behind (test/e2e/start-signals.test.ts).
  let stopping = false;
  let log: Logger | null = null;
  /** What exists by now, stopped; replaced as the start goes on. */
  let stopRunning: () => Promise<void> = async () => {};
  let forgetPid = () => {};
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log?.info(`${signal} received, shutting down`);
    await stopRunning();
    forgetPid();
    process.exit(0);
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));

  const config = loadConfig();
  const logger = createLogger(config.logLevel);
  log = logger;
  const created = init ? initDataDir(config).createdKey : null;
  const sqlite = openingDatabases(config, () => openSqlite(config.databasePath));
  stopRunning = async () => closeNow(sqlite);
  if (!lockDataDir(config.dataDir)) {
    const pid = runningServerPid(config.dataDir);
    throw new ConfigError(`another Botloom server${pid ? ` (pid ${pid})` : ""} is running on DATA_DIR ${config.dataDir}: stop it first, or give this one a DATA_DIR of its own`);
  }
  // After the database: a read-only DATA_DIR is named as such by the database's own open above.
  checkFolders(config);
  // Going back to an older executable without restoring the pre-upgrade backup (docs/operations.md
  // "Upgrade"): the older server started and ran on the newer schema.
  if (schemaNewerThanThis(sqlite)) {
    throw new ConfigError(
      `the database ${config.databasePath} was upgraded by a newer version of Botloom than this one (${VERSION.version}): run that version, or restore the backup made before the upgrade (botloom restore FILE)`,
    );
  }
  // A first start or an upgrade migrates before listening: health's `database` means migrated, and
  // the app below finds the file current either way.
  if (!migrationsCurrent(sqlite)) {
    const { databaseOver } = await import("./db/client");
    if (stopping) return;
    openingDatabases(config, () => databaseOver(sqlite));
  }
  for (const line of looseModeWarnings([
    { label: "DATA_DIR", path: config.dataDir },
    { label: "BOTS_DIR", path: config.botsDir },
    { label: "database", path: config.databasePath },
    { label: "backups folder", path: config.backupsDir },
  ])) logger.warn(line);
  const webhookWarning = webhookBaseWarning(config);
  if (webhookWarning) logger.warn(webhookWarning);
  // Listening comes right after the database: the health probe is answered from here on, every
  // other request waits for the app (src/listener.ts). Templates count as loaded once the context
  // below has checked them.
  const listener = listening(config, () => listen({ host: config.host, port: config.port, health: () => healthStatus(sqlite, false) }));
  // While the app loads a stop ends what exists by then: held requests are closed, not answered.
  stopRunning = async () => {
    await listener.server.stop(true);
    closeNow(sqlite);
  };
  writePidFile(config.dataDir);
  forgetPid = () => removePidFile(config.dataDir);
  const adminUrl = `http://${reachableHost(config.host, "localhost")}:${listener.port}/admin/login`;
  logger.info(`Botloom ${VERSION.version} listening on ${config.host}:${listener.port}`);
  if (created) {
    // Printed once, on the run that created it; the key stays in data/admin.key (0600).
    console.log(`\nAdmin login: ${adminUrl}\nAdmin key:   ${created}\n(stored in ${config.dataDir}/admin.key)\n`);
  } else if (!config.adminKey) {
    logger.warn(
      config.production
        ? "No admin key configured: the admin area is not available. Run `serve --init` or set ADMIN_KEY."
        : "No admin key configured: admin login answers 503 until one exists. Run `serve --init` or set ADMIN_KEY.",
    );
  }

  // Bots that were running when the server last stopped come back (docs/bots.md#running-bots) and backups are
  // scheduled once the first requests are answered: done at once, the resume's database work and
  // croner's first date computation delayed the first answer by several milliseconds
  // (bench/cold-start.ts). The webhook intake waits for the resume to begin, so an update arriving
  // right after a restart, or held while the app loaded, still finds its bot starting: this is set
  // before the app answers its first request.
  const resume = Promise.withResolvers<void>();
  let ctx: AppContext;
  let server: RunningServer;
  let scheduleBackups: typeof import("./modules/backups/schedule").scheduleBackups;
  try {
    const app = await loadApp();
    scheduleBackups = app.scheduleBackups;
    if (stopping) return;
    ctx = openingDatabases(config, () => app.buildContext(config, { db: app.databaseOver(sqlite, { migrated: true }), log: logger, logsOffThread: true }));
    ctx.state.resumeBegun = resume.promise;
    await turn();
    if (stopping) return;
    server = await app.startServer(ctx, { listener });
  } catch (e) {
    // The start fails as it did before it listened (main's one line, exit code), but the listener
    // exists now: close the connections held for the app, and leave no pid file naming a process
    // that is gone (a reused pid would make `restore` refuse).
    if (!stopping) {
      await stopRunning();
      forgetPid();
    }
    throw e;
  }
  let schedule: BackupSchedule | null = null;
  let trashPurge: { stop(): void } | null = null;
  let checkpointer: Checkpointer | null = null;
  const background = setTimeout(() => {
    checkpointer = checkpointOffThread(sqlite, config.databasePath);
    void ctx.bots.resumeAll();
    void ctx.campaigns.resumeAll();
    resume.resolve();
    ctx.backups.removeLeftovers();
    schedule = scheduleBackups(config.backupSchedule, ctx.backups, ctx.log);
    trashPurge = ctx.projects.scheduleTrashPurge();
  }, BACKGROUND_DELAY_MS);
  stopRunning = async () => {
    clearTimeout(background);
    await checkpointer?.stop();
    resume.resolve();
    schedule?.stop();
    trashPurge?.stop();
    await server.stop();
  };
}

async function main(argv: string[]) {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: false,
    options: { init: { type: "boolean" }, user: { type: "string" }, scope: { type: "string" }, name: { type: "string" }, help: { type: "boolean", short: "h" } },
  });
  const [command = "serve", sub] = positionals;
  if (values.help) return console.log(USAGE);
  switch (command) {
    case "serve":
      return serve(values.init === true);
    case "init": // older spelling; same as `serve --init`
      return serve(true);
    case "version":
      return console.log(VERSION.version);
    case "backup": {
      const config = loadConfig();
      // Opening a missing database would create an empty one and "back up" that instead.
      if (!existsSync(config.databasePath)) fail(`botloom: no database at ${config.databasePath} (run where the server runs, or set DATA_DIR)`);
      if (sub && existsSync(sub)) fail(`botloom: ${sub} already exists`);
      const [{ openDatabase, closeDatabase }, { BackupService }] = await Promise.all([import("./db/client"), import("./modules/backups/service")]);
      const db = openDatabase(config.databasePath);
      try {
        const backups = new BackupService(config, () => db.$client, createLogger(config.logLevel));
        if (sub) {
          const m = await backups.writeTo(sub);
          return console.log(`Backup written to ${sub} (platform database and ${m.projects.length} project database(s))`);
        }
        const b = await backups.create();
        return console.log(`Backup written to ${config.backupsDir}/${b.name} (${b.size} bytes, ${b.projects} project database(s))`);
      } finally {
        closeDatabase(db);
      }
    }
    case "restore": {
      if (!sub) fail(`restore needs a backup file\n${USAGE}`, 2);
      const config = loadConfig();
      const { restoreBackup, RestoreError } = await import("./modules/backups/restore");
      try {
        const r = await restoreBackup(config, sub);
        const aside = r.replacedDir ? `; the replaced databases are kept in ${r.replacedDir}` : "";
        const kind = r.plainDatabase ? "a plain platform database (no project databases in it)" : `the platform database and ${r.projects} project database(s)`;
        return console.log(`Restored ${kind} from ${sub}${aside}. Start the server again.`);
      } catch (e) {
        if (e instanceof RestoreError) fail(`botloom: ${e.message}`);
        throw e;
      }
    }
    case "pat": {
      if (sub !== "create") fail(USAGE, 2);
      // strict: false turns a bare `--user` into `true`; only a plain decimal id counts.
      const rawUser = typeof values.user === "string" && /^\d{1,16}$/.test(values.user) ? values.user : "";
      const user = Number(rawUser);
      if (!Number.isSafeInteger(user) || user <= 0) fail("--user must be a positive messenger user id", 2);
      if (values.scope !== undefined && values.scope !== "bot_manager") fail("--scope may only be bot_manager", 2);
      const [{ buildContext }, { closeDatabase }] = await Promise.all([import("./bootstrap"), import("./db/client")]);
      const ctx = buildContext(loadConfig());
      ctx.auth.ensureUser(user);
      const pat = ctx.auth.createPat(user, typeof values.name === "string" ? values.name : "cli", values.scope ? ["bot_manager"] : []);
      closeDatabase(ctx.db);
      return console.log(pat.token);
    }
    default:
      fail(`Unknown command "${command}"\n${USAGE}`, 2);
  }
}

main(process.argv.slice(2)).catch((e) => {
  if (e instanceof ConfigError) fail(`botloom: ${e.message}`, 2);
  fail(`botloom: ${e instanceof Error ? e.message : String(e)}`);
});
