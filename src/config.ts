// The one place that reads the environment (docs/configuration.md). Everything else receives a Config.
import { accessSync, constants, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { randomBytes } from "./lib/random";
import { dirname, join, resolve } from "node:path";
import { z } from "zod";
import { Cron } from "./lib/cron";
import { PRIVATE_DIR_MODE, tightenFreshFolders } from "./lib/file-modes";
import { parseEgressAllow } from "./lib/shared-runtime";
import { normalizeAddress } from "./lib/client-address";

const LOG_LEVELS = ["silent", "error", "warn", "info", "debug", "trace"] as const;

const envSchema = z.object({
  // Decimal digits only: Number() read " " as 0 (a random port) and "0x50" as 80.
  PORT: z
    .string()
    .default("5000")
    .refine((v) => /^\d{1,5}$/.test(v) && Number(v) <= 65535, "PORT must be a port number from 0 to 65535")
    .transform(Number),
  HOST: z.string().min(1).default("0.0.0.0"),
  // A misspelt "production" (prod, Production) silently gave cookies without Secure.
  NODE_ENV: z.enum(["production", "development", "test"], "NODE_ENV must be production, development or test").optional(),
  DATA_DIR: z.string().min(1).default("./data"),
  BOTS_DIR: z.string().min(1).default("./bots"),
  UPLOADS_DIR: z.string().min(1).default("./uploads"),
  STORAGE_LOCAL_BASE: z.string().min(1).optional(),
  ADMIN_KEY: z.string().min(16, "ADMIN_KEY must be at least 16 characters (a short key can be guessed)").optional(),
  SESSION_SECRET: z.string().min(16, "SESSION_SECRET must be at least 16 characters").optional(),
  STORAGE_ENCRYPTION_KEY: z.string().min(32, "STORAGE_ENCRYPTION_KEY must be at least 32 characters").optional(),
  MESSENGER_API_ROOT: z.url().default("https://api.telegram.org"),
  WEBHOOK_BASE_URL: z.url().optional(),
  UPDATE_CHECK_URL: z.url().default("https://raw.githubusercontent.com/botloom/botloom/main/assets/version.json"),
  LOG_LEVEL: z.enum(LOG_LEVELS).default("info"),
  // Abuse limits (docs/security.md#who-can-do-what); every one is per user or per client address.
  LOGIN_ATTEMPTS_PER_MINUTE: z.coerce.number().int().min(1).default(30),
  ADMIN_LOGIN_FREE_FAILURES: z.coerce.number().int().min(1).default(5),
  PAT_CREATIONS_PER_HOUR: z.coerce.number().int().min(1).default(20),
  MAX_PATS_PER_USER: z.coerce.number().int().min(1).default(50),
  MAX_PROJECTS_PER_USER: z.coerce.number().int().min(1).default(1000),
  // Deleted projects stay restorable this many days (docs/configuration.md), then are purged.
  PROJECT_TRASH_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
  // Daily at 03:00 server time; `off` disables scheduled backups (the hub and the CLI still make them).
  BACKUP_SCHEDULE: z
    .string()
    .default("0 3 * * *")
    .refine((v) => v === "off" || isCronPattern(v), "BACKUP_SCHEDULE must be a cron expression such as \"0 3 * * *\", or off"),
  BACKUP_KEEP: z.coerce.number().int().min(1).max(1000).default(7),
  BACKUP_UPLOAD: z.enum(["on", "off"]).default("off"),
  // How bots run (docs/bots.md#running-bots): shared runner processes, or one process per bot.
  BOT_ISOLATION: z.enum(["runner", "process"]).default("runner"),
  BOT_RUNNERS: z.coerce.number().int().min(1).max(256).optional(),
  BOT_RUNNER_CAPACITY: z.coerce.number().int().min(1).default(100),
  BOT_RUNNER_BLOCK_SECONDS: z.coerce.number().min(0.5).max(600).default(5),
  BOT_RUNNER_MEMORY_MB: z.coerce.number().int().min(64).default(1024),
  // Bots count their analytics rollups (docs/analytics.md); off only to measure what counting costs.
  BOT_ANALYTICS: z.enum(["on", "off"]).default("on"),
  // Where bots and background work run (docs/operations.md "Runners and stalls"): every core but the
  // event loop's one ("auto", on two cores or more) or every core ("all").
  BACKGROUND_CPUS: z.enum(["auto", "all"]).default("auto"),
  // Reverse proxies whose X-Forwarded-For names the client (docs/configuration.md): exact addresses.
  TRUSTED_PROXIES: z
    .string()
    .default("")
    .superRefine((v, c) => {
      const invalid = v.split(",").map((x) => x.trim()).filter((x) => x !== "" && normalizeAddress(x) === null);
      if (invalid.length > 0) c.addIssue({ code: "custom", message: `TRUSTED_PROXIES entries must be IP addresses (no names, ports or networks): not ${invalid.map((x) => JSON.stringify(x)).join(", ")}` });
    }),
  // Internal services scenarios may reach despite the egress policy (docs/security.md "Egress policy").
  EGRESS_ALLOW: z
    .string()
    .default("")
    .superRefine((v, c) => {
      const { invalid } = parseEgressAllow(v);
      if (invalid.length > 0) c.addIssue({ code: "custom", message: `EGRESS_ALLOW entries must be host[:port], *.domain[:port], IP[:port], [IPv6][:port] or a network (10.0.0.0/8): not ${invalid.map((x) => JSON.stringify(x)).join(", ")}` });
    }),
});

function isCronPattern(v: string): boolean {
  try {
    new Cron(v, { paused: true }).stop();
    return true;
  } catch {
    return false;
  }
}

/** Abuse limits; see docs/security.md#who-can-do-what. */
export interface Limits {
  /** dev-login and messenger-login attempts per client address and minute */
  loginAttemptsPerMinute: number;
  /** wrong admin keys per client address before each further attempt waits (1 s, 2 s, 4 s, ...); 4× this many locks the address for 15 minutes */
  adminLoginFreeFailures: number;
  /** personal access tokens a user may create per hour */
  patCreationsPerHour: number;
  /** personal access tokens a user may hold */
  maxPatsPerUser: number;
  /** projects a user may own */
  maxProjectsPerUser: number;
}

export type LogLevel = (typeof LOG_LEVELS)[number];

/** How bots run; see docs/bots.md#running-bots. */
export interface BotRuntimeConfig {
  /** "runner": many bots of one owner share a runner process; "process": one process per bot */
  isolation: "runner" | "process";
  /** runner processes an owner's bots may spread over (default: the number of CPU cores) */
  runnersPerOwner: number;
  /** bots a runner takes before the owner's next runner is started (up to runnersPerOwner) */
  runnerCapacity: number;
  /** a runner whose event loop is blocked this long is killed and its bots started elsewhere */
  runnerBlockMs: number;
  /** a runner using more memory than this (RSS) is recycled the same way */
  runnerMemoryMb: number;
  /** bots count their analytics rollups as they run (docs/analytics.md) */
  analytics: boolean;
}

export interface Config {
  port: number;
  host: string;
  production: boolean;
  dataDir: string;
  botsDir: string;
  uploadsDir: string;
  /** Folder every `local` storage config's rootPath must lie in (default: UPLOADS_DIR's parent). */
  storageLocalBase: string;
  /** STORAGE_LOCAL_BASE was set: `serve` then requires an existing writable folder (the default comes with UPLOADS_DIR). */
  storageLocalBaseSet: boolean;
  databasePath: string;
  /** Where backup archives are written: DATA_DIR/backups. */
  backupsDir: string;
  /** Per-project SQLite files (bot users, variables, stats): DATA_DIR/projects. */
  projectsDir: string;
  /** Days a deleted project stays in its owner's trash before it is purged for good. */
  projectTrashDays: number;
  /** Cron expression of scheduled backups, or null when BACKUP_SCHEDULE=off. */
  backupSchedule: string | null;
  /** How many backup archives to keep (older ones are deleted after each new one). */
  backupKeep: number;
  /** Copy each new backup to the active object-store config. */
  backupUpload: boolean;
  /** The admin key, or null when none is configured (no admin area in production, 503 on login otherwise). */
  adminKey: string | null;
  sessionSecret: string;
  storageEncryptionKey: string | null;
  messengerApiRoot: string;
  webhookBaseUrl: string | null;
  /** Hosts besides a request's own that name this server: WEBHOOK_BASE_URL's, behind a proxy that rewrites Host (src/http/same-origin.ts) */
  ownHosts: readonly string[];
  updateCheckUrl: string;
  logLevel: LogLevel;
  limits: Limits;
  bots: BotRuntimeConfig;
  /**
   * The operator's egress allow list (EGRESS_ALLOW, comma-separated): internal services that
   * http_request and the editor's test request may reach; empty: public addresses only.
   */
  egressAllow: string;
  /** TRUSTED_PROXIES: the addresses (normalized) whose X-Forwarded-For names the client of the per-address limits */
  trustedProxies: ReadonlySet<string>;
  /** "auto": bots, previews and background threads keep off the event loop's core; "all": every core (docs/operations.md "Runners and stalls") */
  backgroundCpus: "auto" | "all";
  /** Environment handed to child processes (bots): PATH and locale only, never our secrets. */
  childEnv: Record<string, string>;
}

export class ConfigError extends Error {}

/** DATA_DIR that is a file, lies under one, or sits on a read-only file system: one clear line. */
function writeInDataDir(dataDir: string, write: () => void) {
  try {
    write();
  } catch (e) {
    throw new ConfigError(`DATA_DIR ${dataDir} is not a writable folder (${e instanceof Error ? e.message : String(e)})`);
  }
}

function emptyToUndefined(env: Record<string, string | undefined>) {
  const out: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(env)) out[k] = v === "" ? undefined : v;
  return out;
}

function readSecretFile(path: string): string | null {
  if (!existsSync(path)) return null;
  const v = readFileSync(path, "utf8").trim();
  return v.length > 0 ? v : null;
}

function readAdminKeyFile(path: string): string | null {
  const key = readSecretFile(path);
  if (key !== null && key.length < 16) throw new ConfigError(`invalid configuration: ADMIN_KEY from ${path} must be at least 16 characters (a short key can be guessed)`);
  return key;
}

/**
 * Parses the environment. Folder creation and the generated session secret are side effects on
 * DATA_DIR, done here so that every entry point (server, CLI, tests) sees the same values.
 */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = envSchema.safeParse(emptyToUndefined(env));
  if (!parsed.success) {
    const msg = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
    throw new ConfigError(`invalid configuration: ${msg}`);
  }
  const e = parsed.data;
  const dataDir = resolve(e.DATA_DIR);
  // before anything is written into them: a fresh clone's folders become private, so its first
  // start has nothing to warn about (src/lib/file-modes.ts)
  // (UPLOADS_DIR holds public media and keeps its modes: the installer gives it 0750)
  tightenFreshFolders([dataDir, resolve(e.BOTS_DIR)]);
  const adminKeyFile = join(dataDir, "admin.key");
  let sessionSecret = e.SESSION_SECRET ?? null;
  if (!sessionSecret) {
    const file = join(dataDir, "session.secret");
    sessionSecret = readSecretFile(file);
    if (!sessionSecret) {
      sessionSecret = randomBytes(32).toString("hex");
      writeInDataDir(dataDir, () => {
        mkdirSync(dataDir, { recursive: true, mode: PRIVATE_DIR_MODE });
        writeFileSync(file, sessionSecret + "\n", { mode: 0o600 });
      });
    }
  }
  const childEnv: Record<string, string> = {};
  for (const k of ["PATH", "LANG", "LC_ALL", "TZ", "HOME", "TMPDIR"]) if (env[k]) childEnv[k] = env[k]!;
  return {
    port: e.PORT,
    host: e.HOST,
    production: e.NODE_ENV === "production",
    dataDir,
    botsDir: resolve(e.BOTS_DIR),
    uploadsDir: resolve(e.UPLOADS_DIR),
    storageLocalBase: resolve(e.STORAGE_LOCAL_BASE ?? dirname(resolve(e.UPLOADS_DIR))),
    storageLocalBaseSet: e.STORAGE_LOCAL_BASE !== undefined,
    databasePath: join(dataDir, "botloom.db"),
    backupsDir: join(dataDir, "backups"),
    projectsDir: join(dataDir, "projects"),
    projectTrashDays: e.PROJECT_TRASH_DAYS,
    backupSchedule: e.BACKUP_SCHEDULE === "off" ? null : e.BACKUP_SCHEDULE,
    backupKeep: e.BACKUP_KEEP,
    backupUpload: e.BACKUP_UPLOAD === "on",
    adminKey: e.ADMIN_KEY ?? readAdminKeyFile(adminKeyFile),
    sessionSecret,
    storageEncryptionKey: e.STORAGE_ENCRYPTION_KEY ?? null,
    messengerApiRoot: e.MESSENGER_API_ROOT.replace(/\/+$/, ""),
    webhookBaseUrl: e.WEBHOOK_BASE_URL ? e.WEBHOOK_BASE_URL.replace(/\/+$/, "") : null,
    ownHosts: e.WEBHOOK_BASE_URL ? [new URL(e.WEBHOOK_BASE_URL).host] : [],
    updateCheckUrl: e.UPDATE_CHECK_URL,
    logLevel: e.LOG_LEVEL,
    limits: {
      loginAttemptsPerMinute: e.LOGIN_ATTEMPTS_PER_MINUTE,
      adminLoginFreeFailures: e.ADMIN_LOGIN_FREE_FAILURES,
      patCreationsPerHour: e.PAT_CREATIONS_PER_HOUR,
      maxPatsPerUser: e.MAX_PATS_PER_USER,
      maxProjectsPerUser: e.MAX_PROJECTS_PER_USER,
    },
    bots: {
      isolation: e.BOT_ISOLATION,
      runnersPerOwner: e.BOT_RUNNERS ?? Math.max(1, navigator.hardwareConcurrency || 1),
      runnerCapacity: e.BOT_RUNNER_CAPACITY,
      runnerBlockMs: Math.round(e.BOT_RUNNER_BLOCK_SECONDS * 1000),
      runnerMemoryMb: e.BOT_RUNNER_MEMORY_MB,
      analytics: e.BOT_ANALYTICS === "on",
    },
    egressAllow: e.EGRESS_ALLOW.split(",").map((x) => x.trim()).filter(Boolean).join(","),
    trustedProxies: new Set(e.TRUSTED_PROXIES.split(",").map((x) => normalizeAddress(x.trim())).filter((x): x is string => x !== null)),
    backgroundCpus: e.BACKGROUND_CPUS,
    childEnv,
  };
}

/** Telegram's own Bot API, whose servers call a bot's webhook only over https on these ports (docs/configuration.md). */
const TELEGRAM_API_HOST = "api.telegram.org";
const TELEGRAM_WEBHOOK_PORTS = ["443", "80", "88", "8443"];

/**
 * What the configuration allows but Telegram's cloud will not do: an http:// WEBHOOK_BASE_URL (or
 * an https one on another port) is right for a local Bot API server or a test double, and silently
 * useless with api.telegram.org, whose setWebhook refuses it. One line to log at start, or null.
 */
export function webhookBaseWarning(config: Pick<Config, "webhookBaseUrl" | "messengerApiRoot">): string | null {
  if (!config.webhookBaseUrl || new URL(config.messengerApiRoot).hostname !== TELEGRAM_API_HOST) return null;
  const url = new URL(config.webhookBaseUrl);
  const port = url.port || (url.protocol === "https:" ? "443" : "80");
  if (url.protocol === "https:" && TELEGRAM_WEBHOOK_PORTS.includes(port)) return null;
  const base = `${url.protocol}//${url.host}`;
  const what = url.protocol === "https:" ? `uses port ${port}` : "is not https";
  return `WEBHOOK_BASE_URL ${base} ${what}: Telegram (MESSENGER_API_ROOT ${config.messengerApiRoot}) calls webhooks only at https:// addresses on ports ${TELEGRAM_WEBHOOK_PORTS.join(", ")}, so it refuses their webhook and bots in webhook mode do not start; use an https address (a reverse proxy: docs/operations.md), or polling`;
}

/** Why `path` cannot be (or become) a folder this process writes in, or null when it can. */
function unwritableFolder(path: string): string | null {
  // A folder not made yet is made by `--init`, the first bot or the first upload: then its nearest
  // existing parent must let it be made.
  let existing = path;
  while (!existsSync(existing) && dirname(existing) !== existing) existing = dirname(existing);
  try {
    if (!statSync(existing).isDirectory()) return existing === path ? "it is a file" : `${existing} is a file`;
    accessSync(existing, constants.W_OK | constants.X_OK);
    return null;
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
}

/** Why `path` is not a folder that exists and this process writes in, or null when it is. */
function notExistingWritableFolder(path: string): string | null {
  if (!existsSync(path)) return "it does not exist";
  return unwritableFolder(path);
}

/**
 * `serve`: BOTS_DIR and UPLOADS_DIR must be folders the server can write in. Found out later, a bad
 * one made a server that answered but could not start a bot or keep an upload, or failed with a
 * line that blamed the database. A STORAGE_LOCAL_BASE that was set must exist already: it was
 * checked only when a local storage config was saved, and a typo made every such config refused
 * ("must be a folder inside ...") long after the start. Its default, UPLOADS_DIR's parent, is not
 * checked apart: it lies on UPLOADS_DIR's path (checked above), and on a first run it may not exist
 * yet, nor be the server's to write in (install.sh's /opt/botloom is root's).
 */
export function checkFolders(config: Pick<Config, "botsDir" | "uploadsDir" | "storageLocalBase" | "storageLocalBaseSet">) {
  for (const [name, path] of [["BOTS_DIR", config.botsDir], ["UPLOADS_DIR", config.uploadsDir]] as const) {
    const reason = unwritableFolder(path);
    if (reason) throw new ConfigError(`${name} ${path} is not a writable folder (${reason})`);
  }
  const reason = config.storageLocalBaseSet ? notExistingWritableFolder(config.storageLocalBase) : null;
  if (reason) throw new ConfigError(`STORAGE_LOCAL_BASE ${config.storageLocalBase} is not an existing writable folder (${reason})`);
}

function makeFolder(name: string, path: string, mode?: number) {
  try {
    mkdirSync(path, { recursive: true, mode });
  } catch (e) {
    throw new ConfigError(`${name} ${path} is not a writable folder (${e instanceof Error ? e.message : String(e)})`);
  }
}

/** `serve --init`: create the folders and, when no key is configured, a random admin key in DATA_DIR. */
export function initDataDir(config: Config): { createdKey: string | null } {
  // The database and bot folders hold bot tokens: only the server's account may enter them.
  writeInDataDir(config.dataDir, () => mkdirSync(config.dataDir, { recursive: true, mode: PRIVATE_DIR_MODE }));
  makeFolder("BOTS_DIR", config.botsDir, PRIVATE_DIR_MODE);
  makeFolder("UPLOADS_DIR", config.uploadsDir);
  if (config.adminKey) return { createdKey: null };
  const key = randomBytes(24).toString("base64url");
  writeInDataDir(config.dataDir, () => writeFileSync(join(config.dataDir, "admin.key"), key + "\n", { mode: 0o600 }));
  config.adminKey = key;
  return { createdKey: key };
}
