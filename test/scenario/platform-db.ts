// A platform database for bots under test: migrated by the platform's own code, with the rows the
// bot tables point to (a user, a project, a token).
import { Database } from "bun:sqlite";
import { join } from "node:path";
import { closeDatabase, openDatabase } from "../../src/db/client";

export interface PlatformDb {
  path: string;
  projectId: number;
  tokenId: number;
  /** a fresh read-only-ish connection for assertions (the bot writes through its own) */
  query<T>(sql: string, ...params: (string | number)[]): T[];
  close(): void;
}

export function createPlatformDb(dir: string, data: unknown = { sheets: [] }): PlatformDb {
  const path = join(dir, "botloom.db");
  const db = openDatabase(path);
  const raw = db.$client;
  raw.query("INSERT INTO users (id, first_name) VALUES (?, ?)").run(1001, "Owner");
  const project = raw
    .query<{ id: number }, [number, string, string]>("INSERT INTO projects (owner_id, name, data) VALUES (?, ?, ?) RETURNING id")
    .get(1001, "Test project", JSON.stringify(data))!;
  const token = raw
    .query<{ id: number }, [number, string, string]>("INSERT INTO bot_tokens (project_id, token, name) VALUES (?, ?, ?) RETURNING id")
    .get(project.id, "123:placeholder", "Test bot")!;
  closeDatabase(db);
  const reader = new Database(path);
  reader.exec("PRAGMA busy_timeout = 5000");
  return {
    path,
    projectId: project.id,
    tokenId: token.id,
    query: <T>(sql: string, ...params: (string | number)[]) => reader.query(sql).all(...params) as T[],
    close: () => reader.close(),
  };
}

/** The env a platform-started bot gets for this database. */
export const dbEnv = (p: PlatformDb) => ({
  DATABASE_PATH: p.path,
  PROJECT_ID: String(p.projectId),
  TOKEN_ID: String(p.tokenId),
});
