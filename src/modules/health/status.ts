// What /api/health reports. Kept apart from the route so that the listener can answer the probe
// while the app's modules are still loading (src/listener.ts): this file imports nothing heavy.
import type { Database } from "bun:sqlite";
import { databaseAnswers } from "../../db/sqlite";

export interface HealthStatus {
  database: boolean;
  templates: boolean;
  ready: boolean;
}

export function healthStatus(sqlite: Database, templatesLoaded: boolean): HealthStatus {
  const database = databaseAnswers(sqlite);
  return { database, templates: templatesLoaded, ready: database };
}

/** The app's own answer: its database connection and what it loaded at start. */
export function appHealth(ctx: { db: { $client: Database }; state: { templatesLoaded: boolean } }): HealthStatus {
  return healthStatus(ctx.db.$client, ctx.state.templatesLoaded);
}
