// Backups (docs/operations.md): archives of the platform and project databases, retention, the
// schedule, upload to an object store, and the admin API that lists, creates and downloads them.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { mkdirSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { adminLogin, createTestApp, loginAs, setUp, type TestApp } from "../support/app";
import { startS3Server, type S3TestServer } from "../support/s3-server";
import { ENCRYPTION_KEY } from "../media/helpers";
import { loadConfig } from "../../src/config";
import { nextScheduledRun, scheduleBackups } from "../../src/modules/backups/schedule";
import { BACKUP_NAME, UPLOAD_PREFIX } from "../../src/modules/backups/service";
import { restoreBackup } from "../../src/modules/backups/restore";
import { projectBotUsers } from "../../src/db/project-schema";

/** A project database as bots keep it: its own SQLite file in DATA_DIR/projects. */
function projectDb(t: TestApp, name: string, rows: number) {
  mkdirSync(t.ctx.config.projectsDir, { recursive: true });
  const db = new Database(join(t.ctx.config.projectsDir, name));
  db.exec("PRAGMA journal_mode = WAL; CREATE TABLE IF NOT EXISTS bot_users (id INTEGER PRIMARY KEY, name TEXT)");
  for (let i = 0; i < rows; i++) db.query("INSERT INTO bot_users (name) VALUES (?)").run(`u${i}`);
  return db;
}

async function archiveEntries(path: string) {
  return new Bun.Archive(new Uint8Array(await Bun.file(path).arrayBuffer())).files();
}

describe("backup archives", () => {
  let t: TestApp;
  beforeAll(() => {
    t = createTestApp({ fileDb: true, env: { BACKUP_KEEP: "3" } });
  });
  afterAll(() => t.cleanup());

  test("hold the manifest, the platform database and every project database, private to the server", async () => {
    t.ctx.auth.ensureUser(4242);
    const p = projectDb(t, "12.db", 5);
    const b = await t.ctx.backups.create();
    p.close();
    expect(b.name).toMatch(BACKUP_NAME);
    expect(b.projects).toBe(1);
    const path = join(t.ctx.config.backupsDir, b.name);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(t.ctx.config.backupsDir).mode & 0o777).toBe(0o700);
    const files = await archiveEntries(path);
    expect([...files.keys()].sort()).toEqual(["botloom.db", "manifest.json", "projects/12.db"]);
    const manifest = JSON.parse(await files.get("manifest.json")!.text());
    expect(manifest).toMatchObject({ format: "botloom-backup", formatVersion: 1, projects: ["12.db"] });
    // No staging folder or partial archive is left behind.
    expect(readdirSync(t.ctx.config.backupsDir).filter((n) => !BACKUP_NAME.test(n))).toEqual([]);
  });

  test("keep only the newest BACKUP_KEEP archives and never touch other files", async () => {
    writeFileSync(join(t.ctx.config.backupsDir, "before-upgrade-20260101-000000.db"), "x");
    writeFileSync(join(t.ctx.config.backupsDir, "notes.txt"), "mine");
    const made: string[] = [];
    for (let i = 0; i < 4; i++) made.push((await t.ctx.backups.create()).name);
    // Several within one second get suffixes and still sort newest first.
    expect(new Set(made).size).toBe(4);
    const listed = t.ctx.backups.list().map((b) => b.name);
    expect(listed).toEqual(made.slice(-3).reverse());
    const all = readdirSync(t.ctx.config.backupsDir);
    expect(all).toContain("before-upgrade-20260101-000000.db");
    expect(all).toContain("notes.txt");
  });

  test("cover the product's own project databases: a restore brings their bot users back", async () => {
    const project = t.ctx.projects.create(4242, { name: "Backed up", data: { sheets: [] } }).id;
    const now = new Date().toISOString();
    const file = t.ctx.projectFiles.open(project);
    for (const userId of ["1", "2", "3"]) file.insert(projectBotUsers).values({ tokenId: 1, userId, firstName: `U${userId}`, firstSeenAt: now, lastSeenAt: now }).run();
    const b = await t.ctx.backups.create();
    expect(b.projects).toBeGreaterThanOrEqual(1);
    // After the backup: one user more, then the restore (offline: this app's files are closed first).
    file.insert(projectBotUsers).values({ tokenId: 1, userId: "4", firstSeenAt: now, lastSeenAt: now }).run();
    const config = t.ctx.config;
    t.ctx.db.$client.close();
    file.$client.close();
    const r = await restoreBackup(config, join(config.backupsDir, b.name));
    expect(r.plainDatabase).toBe(false);
    const restored = new Database(join(config.projectsDir, `${project}.db`), { readonly: true });
    expect(restored.query("select user_id from bot_users order by user_id").all()).toEqual([{ user_id: "1" }, { user_id: "2" }, { user_id: "3" }]);
    restored.close();
    expect(statSync(join(config.projectsDir, `${project}.db`)).mode & 0o777).toBe(0o600);
    // The rest of this describe works on a fresh app.
    t.cleanup();
    t = createTestApp({ fileDb: true, env: { BACKUP_KEEP: "3" } });
  });

  test("concurrent requests queue instead of racing for a name", async () => {
    const results = await Promise.all([t.ctx.backups.create(), t.ctx.backups.create(), t.ctx.backups.create()]);
    expect(new Set(results.map((r) => r.name)).size).toBe(3);
  });
});

describe("BACKUP_SCHEDULE and BACKUP_KEEP", () => {
  const env = (extra: Record<string, string>) => ({ DATA_DIR: "/tmp/botloom-schedule-test", SESSION_SECRET: "s".repeat(20), ...extra });

  test("defaults: daily at 03:00 local time, keep 7, no upload", () => {
    const c = loadConfig(env({}));
    expect(c.backupSchedule).toBe("0 3 * * *");
    expect(c.backupKeep).toBe(7);
    expect(c.backupUpload).toBe(false);
    const next = nextScheduledRun(c.backupSchedule)!;
    expect([next.getHours(), next.getMinutes(), next.getSeconds()]).toEqual([3, 0, 0]);
  });

  test("off disables; a bad expression or count stops the start with the variable named", () => {
    expect(loadConfig(env({ BACKUP_SCHEDULE: "off" })).backupSchedule).toBeNull();
    expect(nextScheduledRun(null)).toBeNull();
    expect(() => loadConfig(env({ BACKUP_SCHEDULE: "every night" }))).toThrow(/BACKUP_SCHEDULE/);
    expect(() => loadConfig(env({ BACKUP_SCHEDULE: "99 * * * *" }))).toThrow(/BACKUP_SCHEDULE/);
    expect(() => loadConfig(env({ BACKUP_KEEP: "0" }))).toThrow(/BACKUP_KEEP/);
    expect(() => loadConfig(env({ BACKUP_KEEP: "many" }))).toThrow(/BACKUP_KEEP/);
    expect(() => loadConfig(env({ BACKUP_UPLOAD: "yes" }))).toThrow(/BACKUP_UPLOAD/);
  });

  test("a schedule runs backups on its own and stops when told", async () => {
    const t = createTestApp({ fileDb: true });
    try {
      // Every second (croner's six-field form): the test waits for the first run, bounded.
      const schedule = scheduleBackups("* * * * * *", t.ctx.backups, t.ctx.log);
      expect(schedule.nextRun()).toBeInstanceOf(Date);
      const deadline = Date.now() + 10_000;
      while (t.ctx.backups.list().length === 0 && Date.now() < deadline) await Bun.sleep(100);
      schedule.stop();
      expect(t.ctx.backups.list().length).toBeGreaterThan(0);
      expect(schedule.nextRun()).toBeNull();
    } finally {
      t.cleanup();
    }
  }, 20_000);
});

describe("upload to the active object-store config (BACKUP_UPLOAD=on)", () => {
  let s3: S3TestServer;
  beforeAll(async () => {
    s3 = await startS3Server({ buckets: ["backups-private", "backups-public"] });
  });
  afterAll(async () => s3.stop());

  async function appWithStore(bucket: string, config: Record<string, unknown>) {
    const t = createTestApp({ fileDb: true, env: { STORAGE_ENCRYPTION_KEY: ENCRYPTION_KEY, BACKUP_UPLOAD: "on" } });
    // Storage configs are for platform operators (docs/api.md): user 77 is one.
    await setUp(t, { operators: [77] });
    const cookie = await loginAs(t, 77);
    const created = await t.call("POST", "/api/storage-configs", {
      cookie,
      json: { name: "Bucket", backend: "objstore", config: { bucket, endpoint: s3.endpoint, ...config }, objectAccessKeyId: s3.accessKeyId, objectSecretAccessKey: s3.secretAccessKey },
    });
    expect(created.status).toBe(201);
    expect((await t.call("PATCH", `/api/storage-configs/${created.body.id}`, { cookie, json: { isActive: true } })).status).toBe(200);
    return { t, id: created.body.id as string };
  }

  test("a new backup is copied to the bucket, byte for byte", async () => {
    const { t, id } = await appWithStore("backups-private", {});
    try {
      const b = await t.ctx.backups.create();
      expect(b.uploadedTo).toBe(id);
      const stored = await t.ctx.storage.backendFor(id)!.read(`${UPLOAD_PREFIX}${b.name}`);
      expect(stored).not.toBeNull();
      const bytes = new Uint8Array(await new Response(stored!.body).arrayBuffer());
      expect(Buffer.from(bytes).equals(Buffer.from(await Bun.file(join(t.ctx.config.backupsDir, b.name)).arrayBuffer()))).toBe(true);
    } finally {
      t.cleanup();
    }
  }, 30_000);

  // The upload read the whole archive into memory and sent it as one body: an archive of any size
  // cost the server its size again. Now it goes up from the file in parts of 8 MiB.
  test("a large archive goes up from the file in parts, byte for byte", async () => {
    const { t, id } = await appWithStore("backups-private", {});
    try {
      mkdirSync(t.ctx.config.projectsDir, { recursive: true });
      const noise = new Database(join(t.ctx.config.projectsDir, "20.db"));
      // 12 MB that gzip cannot shrink: the archive needs two parts.
      noise.exec("CREATE TABLE noise (b BLOB); INSERT INTO noise SELECT randomblob(1000) FROM (WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 12000) SELECT x FROM c)");
      noise.close();
      // only this backup's uploads: an earlier test's backup of the same second has the same name in this bucket
      const before = s3.created.length;
      const b = await t.ctx.backups.create();
      expect(b.uploadedTo).toBe(id);
      expect(b.size).toBeGreaterThan(8 * 1024 * 1024);
      const key = `${UPLOAD_PREFIX}${b.name}`;
      expect(s3.created.slice(before).filter((c) => c.key === key)).toEqual([{ key, how: "ObjectCreated:Post" }]);
      const stored = await t.ctx.storage.backendFor(id)!.read(key);
      const bytes = new Uint8Array(await new Response(stored!.body).arrayBuffer());
      expect(Buffer.from(bytes).equals(Buffer.from(await Bun.file(join(t.ctx.config.backupsDir, b.name)).arrayBuffer()))).toBe(true);
    } finally {
      t.cleanup();
    }
  }, 60_000);

  test("a config with a public URL base is a public bucket: the backup stays local", async () => {
    const { t, id } = await appWithStore("backups-public", { publicUrlBase: "https://cdn.example.invalid/media" });
    try {
      const b = await t.ctx.backups.create();
      expect(b.uploadedTo).toBeNull();
      expect(await t.ctx.storage.backendFor(id)!.read(`${UPLOAD_PREFIX}${b.name}`)).toBeNull();
      expect(t.logs.some((l) => l.includes("public URL base"))).toBe(true);
      expect(t.ctx.backups.list().map((x) => x.name)).toContain(b.name);
    } finally {
      t.cleanup();
    }
  }, 30_000);
});

describe("admin API /admin/api/backups", () => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = createTestApp({ fileDb: true });
    await setUp(t);
    admin = await adminLogin(t);
  });
  afterAll(() => t.cleanup());

  test("lists, creates now and downloads an archive", async () => {
    const empty = await t.call("GET", "/admin/api/backups", { cookie: admin });
    expect(empty.status).toBe(200);
    expect(empty.body).toMatchObject({ items: [], count: 0, schedule: "0 3 * * *", keep: 7, upload: false });
    expect(typeof empty.body.nextRun).toBe("string");

    const made = await t.call("POST", "/admin/api/backups", { cookie: admin });
    expect(made.status).toBe(201);
    expect(made.body.name).toMatch(BACKUP_NAME);
    expect(made.body.size).toBeGreaterThan(0);

    const list = await t.call("GET", "/admin/api/backups", { cookie: admin });
    expect(list.body.items).toEqual([{ name: made.body.name, size: made.body.size, createdAt: expect.any(String) }]);

    const res = await t.app.handle(new Request(`http://localhost/admin/api/backups/${made.body.name}`, { headers: { cookie: admin } }));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/gzip");
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename="${made.body.name}"`);
    const files = await new Bun.Archive(new Uint8Array(await res.arrayBuffer())).files();
    expect(files.has("botloom.db")).toBe(true);
  });

  test("making one takes no body: any body is refused before a backup starts", async () => {
    const before = t.ctx.backups.list().length;
    for (const body of ["{}", "null", "{\"x\":1}", "not json"]) {
      const r = await t.call("POST", "/admin/api/backups", { cookie: admin, body, headers: { "content-type": "application/json" } });
      expect([body, r.status, r.body?.error]).toEqual([body, 400, "VALIDATION_FAILED"]);
    }
    expect(t.ctx.backups.list().length).toBe(before);
  });

  test("only archive names are served: traversal, other files and unknown names are refused", async () => {
    writeFileSync(join(t.ctx.config.dataDir, "secret.tar.gz"), "x");
    for (const name of ["..%2Fsecret.tar.gz", "..%2F..%2Fdata%2Fbotloom.db", "notes.txt", "botloom-1.tar.gz", "%2e%2e"]) {
      const r = await t.call("GET", `/admin/api/backups/${name}`, { cookie: admin });
      expect([400, 404]).toContain(r.status);
      expect(r.body?.error).toMatch(/VALIDATION_FAILED|NOT_FOUND/);
    }
    const unknown = await t.call("GET", "/admin/api/backups/botloom-20000101-000000.tar.gz", { cookie: admin });
    expect(unknown.status).toBe(404);
  });

  test("user sessions and PATs are no admin credentials", async () => {
    const user = await loginAs(t, 55);
    for (const [method, path] of [["GET", "/admin/api/backups"], ["POST", "/admin/api/backups"]] as const) {
      expect((await t.call(method, path, { cookie: user })).status).toBe(401);
      expect((await t.call(method, path)).body.error).toBe("ADMIN_UNAUTHORIZED");
    }
  });

  test("the backup API is in the OpenAPI document; the rest of the admin area is not", async () => {
    const doc = await t.call("GET", "/api/openapi.json");
    expect(doc.status).toBe(200);
    const paths = Object.keys(doc.body.paths);
    expect(paths).toContain("/admin/api/backups");
    expect(paths).toContain("/admin/api/backups/{name}");
    expect(paths.filter((p) => p.startsWith("/admin") && !p.startsWith("/admin/api/backups"))).toEqual([]);
  });
});
