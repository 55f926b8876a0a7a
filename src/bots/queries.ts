// What the bot runtime reads and writes in the platform database (tokens, launches, logs, the
// rows a bot program is built from) and in a project's own file (media file ids). The runtime
// imports no feature module, so these statements are its own.
import { and, asc, desc, eq, isNull, lt, lte, max, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import type { ProjectDb } from "../db/project-db";
import { statements } from "../db/prepared";
import { projectMediaFileIds } from "../db/project-schema";
import { botLaunches, botLogs, botTokens, mediaFiles, projects, projectTrash, tokenEnvVars } from "../db/schema";

const tokenId = sql.placeholder("tokenId");
const projectId = sql.placeholder("projectId");

export const runtimeStatements = statements((db: Db) => ({
  token: () => db.select().from(botTokens).where(eq(botTokens.id, tokenId)).prepare(),
  tokenExists: () => db.select({ id: botTokens.id }).from(botTokens).where(eq(botTokens.id, tokenId)).prepare(),
  project: () => db.select().from(projects).where(eq(projects.id, projectId)).prepare(),
  /** A project in the trash (docs/api.md "Trash") runs no bot. */
  trashed: () => db.select({ id: projectTrash.projectId }).from(projectTrash).where(eq(projectTrash.projectId, projectId)).prepare(),
  envVars: () => db.select().from(tokenEnvVars).where(eq(tokenEnvVars.tokenId, tokenId)).orderBy(asc(tokenEnvVars.key)).prepare(),
  /** Where a project's media live, oldest first: the object key and its storage config (null = built-in folder). */
  mediaLocations: () => db
    .select({ key: mediaFiles.objectKey, configId: mediaFiles.storageConfigId })
    .from(mediaFiles)
    .where(eq(mediaFiles.projectId, projectId))
    .orderBy(asc(mediaFiles.id))
    .prepare(),
  tokensOfProject: () => db.select({ id: botTokens.id }).from(botTokens).where(eq(botTokens.projectId, projectId)).prepare(),
  erroredTokens: () => db.select({ id: botTokens.id }).from(botTokens).where(eq(botTokens.status, "error")).prepare(),
  /** Tokens whose bot was running when the server last stopped. */
  wantedRunning: () => db.select({ id: botTokens.id, mode: botTokens.launchMode }).from(botTokens).where(eq(botTokens.desiredState, "running")).orderBy(botTokens.id).prepare(),
  desiredState: () => db.select({ desired: botTokens.desiredState }).from(botTokens).where(eq(botTokens.id, tokenId)).prepare(),
}));

export const fileIdStatements = statements((db: ProjectDb) => ({
  ofToken: () => db.select().from(projectMediaFileIds).where(eq(projectMediaFileIds.tokenId, tokenId)).prepare(),
}));

// --- launch history (bots/launches.ts) --------------------------------------------------------

export const launchStatements = statements((db: Db) => ({
  open: () => db
    .insert(botLaunches)
    .values({ projectId, tokenId, status: "running", pid: sql.placeholder("pid"), startedAt: sql.placeholder("startedAt") })
    .returning({ id: botLaunches.id })
    .prepare(),
  close: () => db
    .update(botLaunches)
    .set({ status: sql`${sql.placeholder("status")}`, stoppedAt: sql`${sql.placeholder("stoppedAt")}`, errorMessage: sql`${sql.placeholder("errorMessage")}` })
    .where(eq(botLaunches.id, sql.placeholder("id")))
    .prepare(),
  closeDangling: () => db
    .update(botLaunches)
    .set({ status: "stopped", stoppedAt: sql`${sql.placeholder("stoppedAt")}`, errorMessage: "server stopped unexpectedly" })
    .where(and(eq(botLaunches.status, "running"), isNull(botLaunches.stoppedAt), lte(botLaunches.id, sql.placeholder("upToId"))))
    .prepare(),
  lastId: () => db.select({ id: max(botLaunches.id) }).from(botLaunches).prepare(),
}));

export function setTokenState(db: Db, id: number, set: { status: string; updatedAt: string; desiredState?: "running" | "stopped" }) {
  db.update(botTokens).set(set).where(eq(botTokens.id, id)).run();
}

// --- bot logs (bots/log-writer.ts) ------------------------------------------------------------

/** `retain`: how many of a token's newest log entries `trim` keeps. */
export const logStatements = (retain: number) =>
  statements((db: Db) => ({
    insert: () => db
      .insert(botLogs)
      .values({ projectId, tokenId, level: sql.placeholder("level"), message: sql.placeholder("message"), createdAt: sql.placeholder("createdAt") })
      .prepare(),
    trim: () => {
      const oldestKept = db.select({ id: botLogs.id }).from(botLogs).where(eq(botLogs.tokenId, tokenId)).orderBy(desc(botLogs.id)).limit(1).offset(retain - 1);
      return db.delete(botLogs).where(and(eq(botLogs.tokenId, tokenId), lt(botLogs.id, sql`(${oldestKept})`))).prepare();
    },
  }));
