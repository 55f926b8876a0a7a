// A platform with one project for bots under test: the platform database (migrated by the
// platform's own code, with a user, a project and a token) and the project's own database file,
// which is the only database a bot gets (DATABASE_PATH).
import { Database } from "bun:sqlite";
import { join } from "node:path";
import { closeDatabase, openDatabase } from "../../src/db/client";
import { ProjectDatabases } from "../../src/db/project-db";

export interface PlatformDb {
  /** the project's database file (what the bot gets) */
  path: string;
  /** the platform's database (a bot never gets it) */
  platformPath: string;
  projectId: number;
  tokenId: number;
  /** the platform's handle on the project files (content mirror, as after a save) */
  files: ProjectDatabases;
  /** a fresh connection to the project's file for assertions (the bot writes through its own) */
  query<T>(sql: string, ...params: (string | number)[]): T[];
  close(): void;
}

export function createPlatformDb(dir: string, data: unknown = { sheets: [] }): PlatformDb {
  const platformPath = join(dir, "botloom.db");
  const db = openDatabase(platformPath);
  const raw = db.$client;
  raw.query("INSERT INTO users (id, first_name) VALUES (?, ?)").run(1001, "Owner");
  const project = raw
    .query<{ id: number; updated_at: string }, [number, string, string]>("INSERT INTO projects (owner_id, name, data) VALUES (?, ?, ?) RETURNING id, updated_at")
    .get(1001, "Test project", JSON.stringify(data))!;
  const token = raw
    .query<{ id: number }, [number, string, string]>("INSERT INTO bot_tokens (project_id, token, name) VALUES (?, ?, ?) RETURNING id")
    .get(project.id, "123:placeholder", "Test bot")!;
  closeDatabase(db);
  const files = new ProjectDatabases(dir);
  files.writeContent(project.id, JSON.stringify(data), project.updated_at, true);
  const path = files.pathOf(project.id);
  const reader = new Database(path);
  reader.exec("PRAGMA busy_timeout = 5000");
  return {
    path,
    platformPath,
    projectId: project.id,
    tokenId: token.id,
    files,
    query: <T>(sql: string, ...params: (string | number)[]) => reader.query(sql).all(...params) as T[],
    close: () => {
      reader.close();
      files.closeAll();
    },
  };
}

/** The env a platform-started bot gets for this project. */
export const dbEnv = (p: PlatformDb) => ({
  DATABASE_PATH: p.path,
  PROJECT_ID: String(p.projectId),
  TOKEN_ID: String(p.tokenId),
});

/** Records these users of the project's bot (bot_users), named U0, U1, … in this order. */
export function recordBotUsers(p: PlatformDb, ids: number[]) {
  const db = new Database(p.path);
  const now = new Date().toISOString();
  const insert = db.query("INSERT INTO bot_users (token_id, user_id, first_name, first_seen_at, last_seen_at) VALUES (?, ?, ?, ?, ?)");
  db.transaction(() => {
    for (const [i, id] of ids.entries()) insert.run(p.tokenId, String(id), `U${i}`, now, now);
  })();
  db.close();
}
