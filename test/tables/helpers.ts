// A project with a scenario tables file, made the way a bot makes it (bot_table's DDL, WAL).
import { Database } from "bun:sqlite";
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { scenarioTablesPath } from "../../src/db/project-db";
import { createTestApp, loginAs, setUp, type TestApp } from "../support/app";

export const OWNER = 7101;
export const STRANGER = 7102;

/** bot_table's own table: an id, created_at, then the columns the scenario wrote (no type). */
export const ORDERS_DDL = "CREATE TABLE orders (id INTEGER PRIMARY KEY AUTOINCREMENT, created_at TEXT NOT NULL DEFAULT (datetime('now')), name, note)";

export function tablesFile(t: TestApp, projectId: number): Database {
  const path = scenarioTablesPath(t.ctx.projectFiles.pathOf(projectId));
  mkdirSync(dirname(path), { recursive: true });
  const d = new Database(path, { create: true, strict: true });
  d.exec("PRAGMA journal_mode = WAL");
  d.exec("PRAGMA busy_timeout = 5000");
  return d;
}

export async function tablesApp() {
  const t = createTestApp();
  await setUp(t);
  const owner = await loginAs(t, OWNER);
  const stranger = await loginAs(t, STRANGER);
  const project = t.ctx.projects.create(OWNER, { name: "Shop" }).id;
  const file = tablesFile(t, project);
  return { t, owner, stranger, project, file, base: `/api/projects/${project}/tables` };
}
