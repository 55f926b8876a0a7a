// What /api/health reports. Kept apart from the route so that the listener can answer the probe
// while the app's modules are still loading (src/listener.ts): this file imports nothing heavy.
import type { Database } from "bun:sqlite";

export interface HealthStatus {
  database: boolean;
  templates: boolean;
  ready: boolean;
}

/** Whether the database answers. Cheap enough for a health probe; never throws. */
function databaseUp(sqlite: Database) {
  try {
    sqlite.query("SELECT 1").get();
    return true;
  } catch {
    return false;
  }
}

export function healthStatus(sqlite: Database, templatesLoaded: boolean): HealthStatus {
  const database = databaseUp(sqlite);
  return { database, templates: templatesLoaded, ready: database };
}
