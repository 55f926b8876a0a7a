// What a bot process is made of: the generated program and its environment (DESIGN.md §6).
import { asc, eq } from "drizzle-orm";
import type { Config } from "../config";
import type { Db } from "../db/client";
import { botTokens, mediaFiles, projects, tokenEnvVars } from "../db/schema";
import { badRequest, notFound } from "../http/errors";
import { hmacHex } from "../lib/crypto";
import { generateBot, ScenarioError } from "../scenario";
import { urlOf } from "../modules/media/service";

export const WEBHOOK_PORT_BASE = 9000;

/** Names the platform sets; a token env variable cannot override them. */
const RESERVED = new Set(["BOT_TOKEN", "MESSENGER_API_ROOT", "ADMIN_IDS", "PROJECT_ID", "TOKEN_ID", "DATABASE_PATH", "LAUNCH_MODE", "PORT", "WEBHOOK_SECRET", "UPLOADS_DIR", "PLATFORM_URL", "BOTLOOM_SUPERVISED", "BUN_BE_BUN", "PATH", "HOME", "NODE_OPTIONS"]);
/** Variables that steer the runtime or the loader (e.g. `BUN_OPTIONS=--eval ...` runs other code). */
const RUNTIME_PREFIX = /^(BUN_|NODE_|LD_|DYLD_|BOTLOOM_)/;

/** A key a token env variable may not have: set by the platform, or read by Bun/the loader from the process environment. */
export const isReservedEnvKey = (key: string) => RESERVED.has(key) || RUNTIME_PREFIX.test(key);

/** DESIGN.md §4: the webhook secret_token is derived from the token's identity with the session secret. */
export function webhookSecret(sessionSecret: string, projectId: number, tokenId: number): string {
  return hmacHex(sessionSecret, `webhook:${projectId}:${tokenId}`);
}

export const webhookPort = (tokenId: number) => WEBHOOK_PORT_BASE + tokenId;

export interface BotProgram {
  tokenId: number;
  projectId: number;
  projectName: string;
  token: string;
  launchMode: "polling" | "webhook";
  port: number | null;
  code: string;
  env: Record<string, string>;
  warnings: string[];
}

/**
 * Media a token's bot already sent once: the record's public URL → the messenger file id the bot
 * got back (API.md projects rule 6). File ids belong to one bot, so `media_files.messenger_file_id`
 * holds a JSON object keyed `t<tokenId>`; the bot itself writes its entry after an upload.
 */
export function mediaCacheOf(db: Db, projectId: number, tokenId: number | undefined): Record<string, string> {
  const cache: Record<string, string> = {};
  if (tokenId === undefined) return cache;
  const rows = db
    .select({ key: mediaFiles.objectKey, ids: mediaFiles.messengerFileId, configId: mediaFiles.storageConfigId })
    .from(mediaFiles)
    .where(eq(mediaFiles.projectId, projectId))
    .orderBy(asc(mediaFiles.id))
    .all();
  for (const m of rows) {
    if (!m.ids) continue;
    let ids: Record<string, unknown>;
    try {
      ids = JSON.parse(m.ids);
    } catch {
      continue;
    }
    const fileId = ids?.[`t${tokenId}`];
    if (typeof fileId === "string" && fileId) cache[urlOf(m.configId, m.key)] = fileId;
  }
  return cache;
}

export function buildBotProgram(config: Config, db: Db, tokenId: number, platformUrl: string | null = null): BotProgram {
  const token = db.select().from(botTokens).where(eq(botTokens.id, tokenId)).get();
  if (!token) throw notFound("Token not found");
  const project = db.select().from(projects).where(eq(projects.id, token.projectId)).get();
  if (!project) throw notFound("Project not found");
  let port: number | null = null;
  if (token.launchMode === "webhook") {
    if (!config.webhookBaseUrl) throw badRequest("Webhook mode needs WEBHOOK_BASE_URL (the server's public https URL); set it or switch the token to polling");
    port = webhookPort(tokenId);
    if (port > 65535) throw badRequest(`Webhook mode is unavailable for token ${tokenId}: its port ${port} would exceed 65535; use polling`);
  }
  let code: string;
  let warnings: string[] = [];
  try {
    const out = generateBot(JSON.parse(project.data), {
      projectName: project.name,
      userDatabaseEnabled: project.userDatabaseEnabled === 1,
      flags: { catchAllHandlers: token.catchAllHandlers === 1, protectContent: token.protectContent === 1, contentCache: token.contentCache === 1 },
      mediaCache: mediaCacheOf(db, project.id, tokenId),
      // A running bot reports each step it takes ("[chat N] node …"): the Studio's Logs tab is where
      // its owner watches what it does.
      enableLogging: true,
    });
    code = out.code;
    warnings = out.warnings.map((w) => (w.nodeId ? `${w.nodeId}: ${w.message}` : w.message));
  } catch (e) {
    if (e instanceof ScenarioError) throw badRequest(`The scenario cannot run: ${e.message}`, { issues: e.issues });
    throw e;
  }
  const env: Record<string, string> = {};
  for (const v of db.select().from(tokenEnvVars).where(eq(tokenEnvVars.tokenId, tokenId)).orderBy(asc(tokenEnvVars.key)).all()) {
    if (!isReservedEnvKey(v.key)) env[v.key] = v.value;
  }
  Object.assign(env, {
    BOT_TOKEN: token.token,
    MESSENGER_API_ROOT: config.messengerApiRoot,
    ADMIN_IDS: project.adminIds ?? "",
    PROJECT_ID: String(project.id),
    TOKEN_ID: String(tokenId),
    DATABASE_PATH: config.databasePath,
    UPLOADS_DIR: config.uploadsDir,
    LAUNCH_MODE: token.launchMode,
  });
  // Media kept in an object store is fetched through the platform's own /uploads route.
  if (platformUrl) env.PLATFORM_URL = platformUrl;
  if (port !== null) {
    env.PORT = String(port);
    env.WEBHOOK_SECRET = webhookSecret(config.sessionSecret, project.id, tokenId);
  }
  return { tokenId, projectId: project.id, projectName: project.name, token: token.token, launchMode: token.launchMode, port, code, env, warnings };
}
