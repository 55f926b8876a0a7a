// `serve` purges the trash (docs/api.md "Trash"): a project deleted more than PROJECT_TRASH_DAYS
// ago is gone for good soon after the start; one deleted since stays restorable. A real server
// process over a data folder prepared by a test app.
import { afterAll, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { createTestApp, setUp, ADMIN_KEY } from "../support/app";
import { startProcessServer, until, type ProcessServer } from "../support/process";

const OWNER = 6101;
const t = createTestApp({ fileDb: true });
let server: ProcessServer | null = null;

afterAll(async () => {
  await server?.stop();
  t.cleanup();
});

test("serve purges what is past PROJECT_TRASH_DAYS at start and keeps the rest", async () => {
  await setUp(t);
  const old = t.ctx.projects.create(OWNER, { name: "Old" }).id;
  const fresh = t.ctx.projects.create(OWNER, { name: "Fresh" }).id;
  const kept = t.ctx.projects.create(OWNER, { name: "Kept" }).id;
  await t.ctx.projects.delete(old, OWNER);
  await t.ctx.projects.delete(fresh, OWNER);
  t.ctx.projectFiles.open(old); // a project file the purge must remove
  t.ctx.db.$client.prepare("update project_trash set deleted_at = ? where project_id = ?").run(new Date(Date.now() - 8 * 86_400_000).toISOString(), old);
  const oldFile = t.ctx.projectFiles.pathOf(old);
  t.ctx.projectFiles.closeAll();
  t.ctx.db.$client.close();
  expect(existsSync(oldFile)).toBe(true);

  const { config } = t.ctx;
  server = await startProcessServer([process.execPath, resolve(import.meta.dir, "../../src/main.ts"), "serve"], {
    cwd: t.dir,
    env: { DATA_DIR: config.dataDir, BOTS_DIR: config.botsDir, UPLOADS_DIR: config.uploadsDir, ADMIN_KEY, SESSION_SECRET: "test-session-secret-0123456789", PROJECT_TRASH_DAYS: "7", LOG_LEVEL: "info" },
    timeoutMs: 30_000,
  });
  const ids = () => {
    const db = new Database(config.databasePath, { readonly: true });
    try {
      return (db.query("select id from projects order by id").all() as { id: number }[]).map((r) => r.id);
    } finally {
      db.close();
    }
  };
  await until(() => !ids().includes(old), "the old project to be purged", 15_000);
  expect(ids()).toEqual([fresh, kept]);
  expect(existsSync(oldFile)).toBe(false);
  await until(() => server!.output().includes("trash: purged 1 project(s)"), "the purge's log line", 5_000);
}, 60_000);
