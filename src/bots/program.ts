// What a bot process is made of: the generated program and its environment (docs/bots.md#running-bots).
import { join } from "node:path";
import type { Config } from "../config";
import type { Db } from "../db/client";
import type { ProjectDatabases } from "../db/project-db";
import { hmacHex } from "../lib/crypto";
import { mediaUrlOf } from "../lib/media-url";
import { compileBotTables, generateBot, type BotTables, type GenerateOptions } from "../scenario";
import { BotError, ScenarioError } from "../errors";
import { fileIdStatements, runtimeStatements } from "./queries";
import { scenarioLimitProblem } from "../lib/json-limits";

export const WEBHOOK_PORT_BASE = 9000;

/** Names the platform sets; a token env variable cannot override them. */
const RESERVED = new Set(["BOT_TOKEN", "MESSENGER_API_ROOT", "ADMIN_IDS", "PROJECT_ID", "TOKEN_ID", "DATABASE_PATH", "LAUNCH_MODE", "PORT", "WEBHOOK_SECRET", "UPLOADS_DIR", "MEDIA_DIR", "PLATFORM_URL", "BOTLOOM_SUPERVISED", "BUN_BE_BUN", "PATH", "HOME", "NODE_OPTIONS"]);
/** Variables that steer the runtime or the loader (e.g. `BUN_OPTIONS=--eval ...` runs other code). */
const RUNTIME_PREFIX = /^(BUN_|NODE_|LD_|DYLD_|BOTLOOM_)/;

/** A key a token env variable may not have: set by the platform, or read by Bun/the loader from the process environment. */
export const isReservedEnvKey = (key: string) => RESERVED.has(key) || RUNTIME_PREFIX.test(key);

/** docs/api.md#webhook-intake: the webhook secret_token is derived from the token's identity with the session secret. */
export function webhookSecret(sessionSecret: string, projectId: number, tokenId: number): string {
  return hmacHex(sessionSecret, `webhook:${projectId}:${tokenId}`);
}

/** The project's own media folder: its uploads live under `<UPLOADS_DIR>/<projectId>/`. */
export const projectMediaDir = (uploadsDir: string, projectId: number) => join(uploadsDir, String(projectId));

export const webhookPort = (tokenId: number) => WEBHOOK_PORT_BASE + tokenId;

export interface BotProgram {
  tokenId: number;
  projectId: number;
  projectName: string;
  /** the project's owner: a shared runner hosts the bots of one owner only */
  ownerId: number;
  token: string;
  launchMode: "polling" | "webhook";
  port: number | null;
  /** what runs: a generated program (its own process) or the bot as data for a shared runner */
  run: { code: string } | { tables: BotTables };
  env: Record<string, string>;
  warnings: string[];
  /** the update kinds the scenario needs (undefined: Telegram's default), given to setWebhook in webhook mode */
  allowedUpdates: string[] | undefined;
}

/**
 * Media a token's bot already sent once: the media's public URL → the messenger file id the bot
 * got back (docs/api.md#project-rules rule 6). File ids belong to one bot; the bot records them in its
 * project's database (media_file_ids), and only media the project still has are offered.
 */
export function mediaCacheOf(db: Db, files: ProjectDatabases, projectId: number, tokenId: number | undefined): Record<string, string> {
  const cache: Record<string, string> = {};
  if (tokenId === undefined) return cache;
  const own = files.existing(projectId);
  if (!own) return cache;
  const ids = new Map(fileIdStatements(own).ofToken.all({ tokenId }).map((r) => [r.mediaUrl, r.fileId]));
  if (ids.size === 0) return cache;
  for (const m of runtimeStatements(db).mediaLocations.all({ projectId })) {
    const url = mediaUrlOf(m.configId, m.key);
    const fileId = ids.get(url);
    if (fileId) cache[url] = fileId;
  }
  return cache;
}

/**
 * The program and environment of a token's bot. The environment names the project's own database
 * file and media folder, never the platform's database: a bot sees its own token, its own variables
 * and its own project's files.
 */
export function buildBotProgram(config: Config, db: Db, files: ProjectDatabases, tokenId: number, platformUrl: string | null = null): BotProgram {
  const q = runtimeStatements(db);
  const token = q.token.get({ tokenId });
  if (!token) throw new BotError("NOT_FOUND", "Token not found");
  const project = q.project.get({ projectId: token.projectId });
  if (!project) throw new BotError("NOT_FOUND", "Project not found");
  // A project in the trash (docs/api.md "Trash") runs no bot: a start queued behind its delete, or a
  // resume, finds it gone.
  if (q.trashed.get({ projectId: project.id })) throw new BotError("NOT_FOUND", "Project not found");
  let port: number | null = null;
  if (token.launchMode === "webhook") {
    if (!config.webhookBaseUrl) throw new BotError("INVALID", "Webhook mode needs WEBHOOK_BASE_URL (the server's public https URL); set it or switch the token to polling");
    port = webhookPort(tokenId);
    if (port > 65535) throw new BotError("INVALID", `Webhook mode is unavailable for token ${tokenId}: its port ${port} would exceed 65535; use polling`);
  }
  let run: BotProgram["run"];
  let warnings: string[] = [];
  let allowedUpdates: string[] | undefined;
  try {
    const doc = JSON.parse(project.data);
    // A row stored before the scenario limits must not overflow the generator's walks.
    const tooBig = scenarioLimitProblem(doc, "The stored scenario");
    if (tooBig) throw new BotError("INVALID", `The scenario cannot run: ${tooBig} (save a smaller document)`);
    const opts: GenerateOptions = {
      projectName: project.name,
      userDatabaseEnabled: project.userDatabaseEnabled === 1,
      flags: { catchAllHandlers: token.catchAllHandlers === 1, protectContent: token.protectContent === 1, contentCache: token.contentCache === 1 },
      mediaCache: mediaCacheOf(db, files, project.id, tokenId),
      // A running bot reports each step it takes ("[chat N] node …") and what it sends: the
      // Studio's Logs tab is where its owner watches what it does.
      enableLogging: true,
    };
    const out = config.bots.isolation === "process" ? generateBot(doc, opts) : compileBotTables(doc, opts);
    run = "code" in out ? { code: out.code } : { tables: out.tables };
    warnings = out.warnings.map((w) => (w.nodeId ? `${w.nodeId}: ${w.message}` : w.message));
    allowedUpdates = out.allowedUpdates;
  } catch (e) {
    if (e instanceof ScenarioError) throw new BotError("INVALID", `The scenario cannot run: ${e.message}`, { issues: e.issues });
    throw e;
  }
  // The file exists with its tables before the bot opens it, holding the content contentCache reads.
  files.writeContent(project.id, project.data, project.updatedAt, true);
  const env: Record<string, string> = {};
  const secretKeys: string[] = [];
  for (const v of q.envVars.all({ tokenId })) {
    if (isReservedEnvKey(v.key)) continue;
    env[v.key] = v.value;
    if (v.isSecret === 1) secretKeys.push(v.key);
  }
  // The scenario reads these (and only these) environment variables as {KEY}.
  const scenarioKeys = Object.keys(env);
  Object.assign(env, {
    BOTLOOM_ENV_KEYS: scenarioKeys.join(","),
    // Their values are masked in everything the bot prints, like the bot token.
    BOTLOOM_SECRET_KEYS: secretKeys.join(","),
    BOT_TOKEN: token.token,
    MESSENGER_API_ROOT: config.messengerApiRoot,
    ADMIN_IDS: project.adminIds ?? "",
    PROJECT_ID: String(project.id),
    TOKEN_ID: String(tokenId),
    DATABASE_PATH: files.pathOf(project.id),
    MEDIA_DIR: projectMediaDir(config.uploadsDir, project.id),
    LAUNCH_MODE: token.launchMode,
    // The message store (docs/dialogs.md): days kept (0: none), and a line per batch for live events.
    BOTLOOM_MESSAGE_RETENTION_DAYS: String(token.messageRetentionDays),
    BOTLOOM_EVENTS: "1",
    // analytics rollups (docs/analytics.md): "0" only where the operator turned counting off
    BOTLOOM_ANALYTICS: config.bots.analytics ? "1" : "0",
    // the operator's egress allow list: the bot applies the platform's policy to http_request
    BOTLOOM_EGRESS_ALLOW: config.egressAllow,
  });
  // Media kept in an object store is fetched through the platform's own /uploads route.
  if (platformUrl) env.PLATFORM_URL = platformUrl;
  if (port !== null) {
    env.PORT = String(port);
    env.WEBHOOK_SECRET = webhookSecret(config.sessionSecret, project.id, tokenId);
  }
  return { tokenId, projectId: project.id, projectName: project.name, ownerId: project.ownerId, token: token.token, launchMode: token.launchMode, port, run, env, warnings, allowedUpdates };
}
