// Per-project database files: rows an older install kept in the platform database move in place
// into DATA_DIR/projects/<id>.db at start; the endpoints read them there; a second start moves
// nothing; deleting a token or a project removes its rows or its file.
import { afterEach, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readEnvValue } from "../../src/bots/folders";
import { closeDatabase, openDatabase } from "../../src/db/client";
import { ProjectDatabases } from "../../src/db/project-db";
import { moveBotRowsToProjectFiles } from "../../src/db/project-migrate";
import { projectBotState, projectBotUsers, projectContent, projectMediaFileIds } from "../../src/db/project-schema";
import { createTestApp, loginAs, setUp, type TestApp } from "../support/app";

const OWNER = 501;
let t: TestApp | undefined;
let dir: string | undefined;
afterEach(() => {
  t?.cleanup();
  t = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

/** A platform database as an older version left it: bot rows of two projects in shared tables. */
function legacyDatabase(path: string) {
  const db = openDatabase(path);
  const raw = db.$client;
  raw.query("INSERT INTO users (id, first_name) VALUES (?, 'Owner')").run(OWNER);
  const ids: { project: number; token: number }[] = [];
  for (const name of ["A", "B"]) {
    const project = raw.query<{ id: number }, [number, string]>("INSERT INTO projects (owner_id, name, data) VALUES (?, ?, '{\"sheets\":[]}') RETURNING id").get(OWNER, name)!.id;
    const token = raw.query<{ id: number }, [number, string]>("INSERT INTO bot_tokens (project_id, token, name) VALUES (?, ?, 'b') RETURNING id").get(project, `${project}00:TOKEN${name}`)!.id;
    ids.push({ project, token });
    for (const user of ["1", "2", "3"]) {
      raw
        .query("INSERT INTO bot_users (project_id, token_id, user_id, first_name, first_seen_at, last_seen_at, interaction_count, variables) VALUES (?, ?, ?, ?, ?, ?, 4, ?)")
        .run(project, token, `${name}${user}`, `User ${name}${user}`, new Date().toISOString(), new Date().toISOString(), JSON.stringify({ v: user }));
    }
    raw.query("INSERT INTO bot_state (token_id, chat_id, variables, waiting) VALUES (?, ?, ?, NULL)").run(token, `${name}1`, '{"step":2}');
    raw
      .query("INSERT INTO media_files (project_id, object_key, kind, file_name, mime_type, size, messenger_file_id) VALUES (?, ?, 'photo', 'a.jpg', 'image/jpeg', 1, ?)")
      .run(project, `${project}/photo/a.jpg`, JSON.stringify({ [`t${token}`]: `FILEID_${name}`, t999: "other bot", junk: 1 }));
  }
  closeDatabase(db);
  return ids;
}

describe("moving an older install's bot rows into project files", () => {
  test("at start: rows land in each project's own file, the platform tables are emptied, the endpoints read the files", async () => {
    dir = mkdtempSync(join(tmpdir(), "botloom-move-"));
    const dbPath = join(dir, "legacy.db");
    const [a, b] = legacyDatabase(dbPath);
    t = createTestApp({ dbPath });
    await setUp(t);
    const files = t.ctx.projectFiles;
    for (const [p, name] of [[a, "A"], [b, "B"]] as const) {
      expect(existsSync(files.pathOf(p.project))).toBe(true);
      const own = files.existing(p.project)!;
      expect(own.select().from(projectBotUsers).all().map((u) => [u.tokenId, u.userId, u.interactionCount, u.variables])).toEqual([
        [p.token, `${name}1`, 4, '{"v":"1"}'],
        [p.token, `${name}2`, 4, '{"v":"2"}'],
        [p.token, `${name}3`, 4, '{"v":"3"}'],
      ]);
      expect(own.select().from(projectBotState).all().map((s) => [s.chatId, s.variables])).toEqual([[`${name}1`, '{"step":2}']]);
      // the other bot's id travels too (keyed by its token); the malformed entry does not
      expect(own.select().from(projectMediaFileIds).all().map((m) => [m.tokenId, m.mediaUrl, m.fileId]).sort()).toEqual(
        [[p.token, `/uploads/${p.project}/photo/a.jpg`, `FILEID_${name}`], [999, `/uploads/${p.project}/photo/a.jpg`, "other bot"]].sort(),
      );
    }
    const raw = t.ctx.db.$client;
    expect(raw.query("SELECT count(*) AS n FROM bot_users").get()).toEqual({ n: 0 });
    expect(raw.query("SELECT count(*) AS n FROM bot_state").get()).toEqual({ n: 0 });
    expect(raw.query("SELECT count(*) AS n FROM media_files WHERE messenger_file_id IS NOT NULL").get()).toEqual({ n: 0 });
    expect(t.logs.some((l) => l.includes("Moved the bot data of 2 project(s)"))).toBe(true);

    const cookie = await loginAs(t, OWNER);
    const users = await t.call("GET", `/api/bot/tokens/${a.token}/users`, { cookie });
    expect(users.status).toBe(200);
    expect(users.body.count).toBe(3);
    expect(users.body.items.map((u: { userId: string }) => u.userId).sort()).toEqual(["A1", "A2", "A3"]);
    const stats = await t.call("GET", `/api/bot/tokens/${b.token}/status`, { cookie });
    expect(stats.body.userStats).toMatchObject({ total: 3, active_24h: 3, active_7d: 3 });
    // the moved file id is what "generate" bakes into the first token's program
    const code = await t.call("POST", `/api/projects/${a.project}/generate`, { cookie, json: {} });
    expect(code.status).toBe(200);
    expect(code.body.code).toContain(`"/uploads/${a.project}/photo/a.jpg": "FILEID_A"`);

    // a second start moves nothing and keeps the rows
    expect(moveBotRowsToProjectFiles(t.ctx.db, files)).toEqual({ projects: 0, users: 0, states: 0, fileIds: 0 });
    expect(files.existing(a.project)!.select().from(projectBotUsers).all().length).toBe(3);

    // deleting a token forgets its rows; deleting the project removes its file
    expect((await t.call("DELETE", `/api/bot/tokens/${b.token}`, { cookie })).status).toBe(200);
    expect(files.existing(b.project)!.select().from(projectBotUsers).all()).toEqual([]);
    expect((await t.call("DELETE", `/api/projects/${a.project}`, { cookie })).status).toBe(200);
    // The trash keeps the file for a restore (docs/api.md "Trash"); the purge removes it.
    expect(existsSync(files.pathOf(a.project))).toBe(true);
    await t.ctx.projects.purge(a.project);
    expect(existsSync(files.pathOf(a.project))).toBe(false);
    expect(existsSync(files.pathOf(a.project) + "-wal")).toBe(false);
  });

  test("an interrupted move (rows already in the file) runs again without duplicates", () => {
    dir = mkdtempSync(join(tmpdir(), "botloom-move-"));
    const dbPath = join(dir, "legacy.db");
    const [a] = legacyDatabase(dbPath);
    const files = new ProjectDatabases(join(dir, "data"));
    // The file got the rows, then the process died before the platform rows were deleted.
    const db = openDatabase(dbPath);
    moveBotRowsToProjectFiles(db, files);
    db.$client.query("INSERT INTO bot_users (project_id, token_id, user_id, first_seen_at, last_seen_at) VALUES (?, ?, 'A1', 'x', 'x')").run(a.project, a.token);
    expect(moveBotRowsToProjectFiles(db, files)).toMatchObject({ projects: 1, users: 1 });
    expect(files.existing(a.project)!.select().from(projectBotUsers).all().length).toBe(3);
    files.closeAll();
    closeDatabase(db);
  });

  test("a saved scenario is mirrored into the project's file for contentCache bots (once the file exists)", async () => {
    t = createTestApp();
    await setUp(t);
    const cookie = await loginAs(t, OWNER);
    const id = (await t.call("POST", "/api/projects", { cookie, json: { name: "Mirror" } })).body.id as number;
    const data = (text: string) => ({ sheets: [{ id: "s", name: "S", nodes: [{ id: "a", type: "start", data: { messageText: text } }] }] });
    expect((await t.call("PUT", `/api/projects/${id}`, { cookie, json: { data: data("v1") } })).status).toBe(200);
    // No bot ever ran: no file is created just for the mirror.
    expect(existsSync(t.ctx.projectFiles.pathOf(id))).toBe(false);
    t.ctx.projectFiles.open(id);
    expect((await t.call("PUT", `/api/projects/${id}`, { cookie, json: { data: data("v2") } })).status).toBe(200);
    const [row] = t.ctx.projectFiles.existing(id)!.select().from(projectContent).all();
    expect(JSON.parse(row!.data).sheets[0].nodes[0].data.messageText).toBe("v2");
    expect(row!.updatedAt).toBe(t.ctx.projects.contentOf(id)!.updatedAt);
  });

  test("bot folders of an older version are repointed at start: their project's file and media folder, never the platform database", () => {
    dir = mkdtempSync(join(tmpdir(), "botloom-move-"));
    const dataDir = join(dir, "data");
    const botsDir = join(dir, "bots");
    const old = join(botsDir, "shop_7_3");
    mkdirSync(old, { recursive: true });
    writeFileSync(join(old, ".env"), `BOT_TOKEN="7:AAA"\nDATABASE_PATH=${JSON.stringify(join(dataDir, "botloom.db"))}\nUPLOADS_DIR="/srv/uploads"\nAPI_KEY="k"\n`, { mode: 0o600 });
    const current = join(botsDir, "other_8_4");
    mkdirSync(current, { recursive: true });
    const currentEnv = `BOT_TOKEN="8:BBB"\nDATABASE_PATH=${JSON.stringify(join(dataDir, "projects", "8.db"))}\n`;
    writeFileSync(join(current, ".env"), currentEnv, { mode: 0o600 });
    t = createTestApp({ env: { DATA_DIR: dataDir, BOTS_DIR: botsDir } });
    const env = readFileSync(join(old, ".env"), "utf8");
    expect(env).not.toContain("botloom.db");
    expect(env).not.toContain("UPLOADS_DIR");
    expect(readEnvValue(join(old, ".env"), "DATABASE_PATH")).toBe(join(dataDir, "projects", "7.db"));
    expect(readEnvValue(join(old, ".env"), "MEDIA_DIR")).toBe(join(t.ctx.config.uploadsDir, "7"));
    expect(readEnvValue(join(old, ".env"), "API_KEY")).toBe("k");
    expect(statSync(join(old, ".env")).mode & 0o777).toBe(0o600);
    expect(readFileSync(join(current, ".env"), "utf8")).toBe(currentEnv);
    expect(t.logs.some((l) => l.includes("Bot folders of an older version"))).toBe(true);
  });

  test("a new file comes ready (tables, WAL); a file a bot made first is kept and completed", () => {
    dir = mkdtempSync(join(tmpdir(), "botloom-files-"));
    const files = new ProjectDatabases(dir);
    files.open(1);
    const fresh = new Database(files.pathOf(1), { readonly: true });
    expect(fresh.query("PRAGMA journal_mode").get()).toEqual({ journal_mode: "wal" });
    expect(fresh.query("PRAGMA integrity_check").get()).toEqual({ integrity_check: "ok" });
    expect(fresh.query("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all().map((r: any) => r.name)).toEqual(["analytics_active", "analytics_backfill", "analytics_edge_days", "analytics_edge_reach", "analytics_hours", "analytics_node_days", "analytics_node_reach", "analytics_tallies", "analytics_user_days", "bot_chats", "bot_message_details", "bot_messages", "bot_payments", "bot_people", "bot_state", "bot_users", "bot_waits", "campaign_album_messages", "campaign_recipients", "campaign_time_zones", "campaigns", "media_file_ids", "project_content", "send_pace", "sqlite_sequence"]);
    fresh.close();
    // A bot started first (or an older one) created its file with only some of the tables.
    mkdirSync(join(dir, "projects"), { recursive: true });
    const bot = new Database(files.pathOf(2), { create: true });
    bot.exec("PRAGMA journal_mode = WAL");
    bot.exec("CREATE TABLE bot_state (token_id INTEGER NOT NULL, chat_id TEXT NOT NULL, variables TEXT NOT NULL DEFAULT '{}', waiting TEXT, updated_at TEXT NOT NULL, PRIMARY KEY (token_id, chat_id))");
    bot.exec("INSERT INTO bot_state VALUES (1, '42', '{}', NULL, 'x')");
    const own = files.open(2);
    expect(own.select().from(projectBotState).all().map((r) => r.chatId)).toEqual(["42"]);
    expect(own.select().from(projectBotUsers).all()).toEqual([]);
    bot.close();
    files.closeAll();
  });

  test("project ids are checked before they become file names", () => {
    const files = new ProjectDatabases("/tmp/nowhere");
    for (const bad of [0, -1, 1.5, Number.NaN]) expect(() => files.pathOf(bad)).toThrow(/not a project id/);
    expect(files.pathOf(12)).toBe("/tmp/nowhere/projects/12.db");
  });

  test("a deleted token's pending waits go with its other rows; another token's stay", () => {
    dir = mkdtempSync(join(tmpdir(), "botloom-files-"));
    const files = new ProjectDatabases(dir);
    files.open(1);
    const d = new Database(files.pathOf(1));
    d.exec("INSERT INTO bot_waits (token_id, chat_id, node, due_at) VALUES (5, '1', 'a', 1), (5, '2', 'a', 2), (6, '1', 'a', 3)");
    d.exec("INSERT INTO analytics_hours (token_id, hour, messages_in) VALUES (5, '2026-03-10T10', 4), (6, '2026-03-10T10', 2)");
    d.exec("INSERT INTO analytics_edge_reach (token_id, day, from_node, to_node, prev_day, users) VALUES (5, '2026-03-10', 'a', 'b', '', 1)");
    d.exec("INSERT INTO send_pace (token_id, next_at, per_second) VALUES (5, 1, 25), (6, 2, 25)");
    d.close();
    files.forgetToken(1, 5);
    const left = new Database(files.pathOf(1), { readonly: true });
    expect(left.query("SELECT token_id, chat_id FROM bot_waits").all()).toEqual([{ token_id: 6, chat_id: "1" }]);
    expect(left.query("SELECT token_id, messages_in FROM analytics_hours").all()).toEqual([{ token_id: 6, messages_in: 2 }]);
    expect(left.query("SELECT count(*) AS n FROM analytics_edge_reach").get()).toEqual({ n: 0 });
    expect(left.query("SELECT token_id FROM send_pace").all()).toEqual([{ token_id: 6 }]);
    left.close();
    files.closeAll();
  });
});
