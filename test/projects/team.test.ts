import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { folderName, readEnvValue, renderEnv, writeBotFolder } from "../../src/bots/folders";
import { botTokens, projectCollaborators, projects } from "../../src/db/schema";
import type { EventMap } from "../../src/events";
import { addCollaborator, COLLAB, newProject, OWNER, scenario, STRANGER, team, type Team } from "./helpers";

let s: Team;
afterEach(() => s?.t.cleanup());

const addToken = (s: Team, projectId: number, token = `${projectId}00000:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA`) =>
  s.t.ctx.db.insert(botTokens).values({ projectId, token, name: "bot" }).returning({ id: botTokens.id }).get().id;

describe("collaborators (team list)", () => {
  test("owner first, then invited users, no duplicates; names and photos from users", async () => {
    s = await team();
    const id = await newProject(s.t, s.owner);
    addCollaborator(s.t, id, COLLAB);
    addCollaborator(s.t, id, OWNER); // an odd row: the owner invited to his own project
    addCollaborator(s.t, id, 5555); // never logged in: no users row
    s.t.ctx.auth.upsertUser({ id: COLLAB, photoUrl: "/uploads/p.jpg" });
    const r = await s.t.call("GET", `/api/projects/${id}/collaborators`, { cookie: s.collab });
    expect(r.status).toBe(200);
    expect(r.body).toEqual([
      { userId: OWNER, name: "Olga Owner", photoUrl: null },
      { userId: COLLAB, name: "Carl", photoUrl: "/uploads/p.jpg" },
      { userId: 5555, name: "5555", photoUrl: null },
    ]);
  });

  test("400 bad projectId, 403 stranger, 404 missing", async () => {
    s = await team();
    const id = await newProject(s.t, s.owner);
    expect((await s.t.call("GET", "/api/projects/abc/collaborators", { cookie: s.owner })).body).toMatchObject({ error: "VALIDATION_FAILED", message: "projectId must be a positive integer" });
    expect((await s.t.call("GET", `/api/projects/${id}/collaborators`, { cookie: s.stranger })).status).toBe(403);
    expect((await s.t.call("GET", "/api/projects/404/collaborators", { cookie: s.owner })).status).toBe(404);
  });
});

describe("admin ids (rule 7)", () => {
  test("read from the database; write normalises; remove by id or del_admin_<id>", async () => {
    s = await team();
    const id = await newProject(s.t, s.owner);
    addCollaborator(s.t, id, COLLAB);
    expect((await s.t.call("GET", `/api/projects/${id}/admin-ids`, { cookie: s.owner })).body).toEqual({ adminIds: "", items: [], count: 0 });
    const put = await s.t.call("PUT", `/api/projects/${id}/admin-ids`, { cookie: s.collab, json: { adminIds: "111, 222,,111 ,333" } });
    expect(put.body).toEqual({ success: true, adminIds: "111,222,333" });
    expect((await s.t.call("GET", `/api/projects/${id}/admin-ids`, { cookie: s.owner })).body).toEqual({
      adminIds: "111,222,333",
      items: [{ id: "111" }, { id: "222" }, { id: "333" }],
      count: 3,
    });
    expect((await s.t.call("GET", `/api/projects/${id}`, { cookie: s.owner })).body.adminIds).toBe("111,222,333");
    expect((await s.t.call("POST", `/api/projects/${id}/admin-ids/remove`, { cookie: s.owner, json: { adminId: "del_admin_222" } })).body).toEqual({ success: true, adminIds: "111,333" });
    expect((await s.t.call("POST", `/api/projects/${id}/admin-ids/remove`, { cookie: s.owner, json: { adminId: "111" } })).body).toEqual({ success: true, adminIds: "333" });
    expect((await s.t.call("POST", `/api/projects/${id}/admin-ids/remove`, { cookie: s.owner, json: { adminId: 999 } })).body).toEqual({ success: true, adminIds: "333" });
    expect((await s.t.call("POST", `/api/projects/${id}/admin-ids/remove`, { cookie: s.owner, json: { adminId: 333 } })).body).toEqual({ success: true, adminIds: "" });
    expect((await s.t.call("GET", `/api/projects/${id}`, { cookie: s.owner })).body.adminIds).toBeNull();
  });

  test("empty database field → ADMIN_IDS of the bot folder's .env; writes update that file", async () => {
    s = await team();
    const id = await newProject(s.t, s.owner);
    const other = await newProject(s.t, s.owner);
    const t1 = addToken(s, id);
    const t2 = addToken(s, id, "99999:BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB");
    const botsDir = s.t.ctx.config.botsDir;
    const dir1 = join(botsDir, `shop_bot_${id}_${t1}`);
    const dir2 = join(botsDir, `shop_bot_${id}_${t2}`);
    const foreign = join(botsDir, `x_${other}_${t1}`); // same token id, other project: untouched
    for (const d of [dir1, dir2, foreign]) mkdirSync(d, { recursive: true });
    writeFileSync(join(dir1, ".env"), 'BOT_TOKEN="secret"\nADMIN_IDS="10, 20"\nPORT=1\n');
    writeFileSync(join(foreign, ".env"), "ADMIN_IDS=1\n");

    expect((await s.t.call("GET", `/api/projects/${id}/admin-ids`, { cookie: s.owner })).body).toEqual({ adminIds: "10,20", items: [{ id: "10" }, { id: "20" }], count: 2 });

    // written in the one .env format of src/bots/folders.ts (renderEnv: KEY="value")
    await s.t.call("PUT", `/api/projects/${id}/admin-ids`, { cookie: s.owner, json: { adminIds: "30,40" } });
    expect(readFileSync(join(dir1, ".env"), "utf8")).toBe('BOT_TOKEN="secret"\nADMIN_IDS="30,40"\nPORT=1\n');
    expect(readFileSync(join(dir2, ".env"), "utf8")).toBe('ADMIN_IDS="30,40"\n');
    expect(statSync(join(dir2, ".env")).mode & 0o777).toBe(0o600);
    expect(readFileSync(join(foreign, ".env"), "utf8")).toBe("ADMIN_IDS=1\n");

    // remove works on the .env fallback list too (a hand-written unquoted line, with `export`)
    s.t.ctx.db.update(projects).set({ adminIds: null }).run();
    writeFileSync(join(dir1, ".env"), "export ADMIN_IDS=7,8\n");
    expect((await s.t.call("POST", `/api/projects/${id}/admin-ids/remove`, { cookie: s.owner, json: { adminId: "del_admin_7" } })).body).toEqual({ success: true, adminIds: "8" });
    expect(readFileSync(join(dir1, ".env"), "utf8")).toBe('ADMIN_IDS="8"\n');
    // PUT /api/projects/{id} with adminIds writes the folders as well
    await s.t.call("PUT", `/api/projects/${id}`, { cookie: s.owner, json: { adminIds: "1,2" } });
    expect(readFileSync(join(dir2, ".env"), "utf8")).toBe('ADMIN_IDS="1,2"\n');
    expect(existsSync(join(botsDir, `other_${id}_999`))).toBe(false);
  });

  test("a folder written by the bot runtime (writeBotFolder) round-trips: read, rewrite, the other values intact", async () => {
    s = await team();
    const id = await newProject(s.t, s.owner);
    const tokenId = addToken(s, id);
    const vars = { BOT_TOKEN: "1:abc", ADMIN_IDS: "5,6", GREETING: 'Hi "there" # not a comment' };
    const dir = writeBotFolder(s.t.ctx.config.botsDir, folderName("Shop", id, tokenId), "// code", vars);
    const env = join(dir, ".env");
    expect((await s.t.call("GET", `/api/projects/${id}/admin-ids`, { cookie: s.owner })).body.adminIds).toBe("5,6");
    await s.t.call("PUT", `/api/projects/${id}/admin-ids`, { cookie: s.owner, json: { adminIds: "7" } });
    expect(readFileSync(env, "utf8")).toBe(renderEnv({ ...vars, ADMIN_IDS: "7" }));
    for (const [k, v] of Object.entries({ ...vars, ADMIN_IDS: "7" })) expect(readEnvValue(env, k)).toBe(v);
    // an emptied list is an empty value, and reading falls back to nothing
    await s.t.call("PUT", `/api/projects/${id}/admin-ids`, { cookie: s.owner, json: { adminIds: "" } });
    expect(readEnvValue(env, "ADMIN_IDS")).toBe("");
    expect((await s.t.call("GET", `/api/projects/${id}/admin-ids`, { cookie: s.owner })).body).toEqual({ adminIds: "", items: [], count: 0 });
  });

  test("a symlinked bot folder is never written through", async () => {
    s = await team();
    const id = await newProject(s.t, s.owner);
    const tokenId = addToken(s, id);
    const outside = mkdtempSync(join(tmpdir(), "botloom-outside-"));
    mkdirSync(s.t.ctx.config.botsDir, { recursive: true });
    symlinkSync(outside, join(s.t.ctx.config.botsDir, `link_${id}_${tokenId}`));
    expect((await s.t.call("PUT", `/api/projects/${id}/admin-ids`, { cookie: s.owner, json: { adminIds: "1" } })).status).toBe(200);
    expect(existsSync(join(outside, ".env"))).toBe(false);
    rmSync(outside, { recursive: true, force: true });
  });

  test("400 bad bodies, 403 stranger, 404 missing, 400 bad id", async () => {
    s = await team();
    const id = await newProject(s.t, s.owner);
    for (const json of [{}, { adminIds: 5 }, { adminIds: "1,x" }, { adminIds: "1", extra: 1 }]) {
      expect((await s.t.call("PUT", `/api/projects/${id}/admin-ids`, { cookie: s.owner, json })).status).toBe(400);
    }
    for (const json of [{}, { adminId: "del_admin_" }, { adminId: "abc" }, { adminId: -1 }, { adminId: null }]) {
      expect((await s.t.call("POST", `/api/projects/${id}/admin-ids/remove`, { cookie: s.owner, json })).status).toBe(400);
    }
    expect((await s.t.call("GET", `/api/projects/${id}/admin-ids`, { cookie: s.stranger })).status).toBe(403);
    expect((await s.t.call("PUT", `/api/projects/${id}/admin-ids`, { cookie: s.stranger, json: { adminIds: "1" } })).status).toBe(403);
    expect((await s.t.call("POST", `/api/projects/${id}/admin-ids/remove`, { cookie: s.stranger, json: { adminId: "1" } })).status).toBe(403);
    expect((await s.t.call("GET", "/api/projects/999/admin-ids", { cookie: s.owner })).status).toBe(404);
    expect((await s.t.call("GET", "/api/projects/x/admin-ids", { cookie: s.owner })).status).toBe(400);
    expect((await s.t.call("GET", `/api/projects/${id}/admin-ids`, { cookie: s.owner })).body.adminIds).toBe("");
  });
});

describe("duplicate (rule 4)", () => {
  test("201 ProjectListItem owned by the caller; no botToken, no collaborators; default name", async () => {
    s = await team();
    const id = await newProject(s.t, s.owner, { name: "Shop", description: "d", data: scenario([2, 1]), userDatabaseEnabled: 0 });
    addCollaborator(s.t, id, COLLAB);
    s.t.ctx.db.update(projects).set({ botToken: "123456:LEGACYTOKENLEGACYTOKEN", adminIds: "5" }).run();
    const events: EventMap["projects-changed"][] = [];
    s.t.ctx.events.on("projects-changed", (e) => events.push(e));

    const r = await s.t.call("POST", `/api/projects/${id}/duplicate`, { cookie: s.collab });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ ownerId: COLLAB, name: "Shop (копия)", description: "d", userDatabaseEnabled: 0, nodeCount: 3, sheetsCount: 2, adminIds: "5", isArchivedForMe: false });
    expect(r.body.id).not.toBe(id);
    expect(r.body).not.toHaveProperty("data");
    expect(r.body).not.toHaveProperty("botToken");
    const copy = (await s.t.call("GET", `/api/projects/${r.body.id}`, { cookie: s.collab })).body;
    expect(copy.botToken).toBeNull();
    expect(copy.data).toEqual(scenario([2, 1]));
    expect(s.t.ctx.db.select().from(projectCollaborators).all().filter((c) => c.projectId === r.body.id)).toEqual([]);
    expect((await s.t.call("GET", `/api/projects/${r.body.id}`, { cookie: s.owner })).status).toBe(404);
    expect(events).toEqual([{ kind: "created", projectId: r.body.id, recipients: [COLLAB] }]);

    const named = await s.t.call("POST", `/api/projects/${id}/duplicate`, { cookie: s.owner, json: { name: "Copy two" } });
    expect([named.status, named.body.name, named.body.ownerId]).toEqual([201, "Copy two", OWNER]);
  });

  test("400 bad name or id, 403 stranger, 404 missing", async () => {
    s = await team();
    const id = await newProject(s.t, s.owner);
    expect((await s.t.call("POST", `/api/projects/${id}/duplicate`, { cookie: s.owner, json: { name: "" } })).status).toBe(400);
    expect((await s.t.call("POST", `/api/projects/${id}/duplicate`, { cookie: s.owner, json: { name: 5 } })).status).toBe(400);
    expect((await s.t.call("POST", "/api/projects/x/duplicate", { cookie: s.owner })).status).toBe(400);
    expect((await s.t.call("POST", `/api/projects/${id}/duplicate`, { cookie: s.stranger })).status).toBe(403);
    expect((await s.t.call("POST", "/api/projects/999/duplicate", { cookie: s.owner })).status).toBe(404);
    expect((await s.t.call("GET", "/api/projects/list", { cookie: s.stranger })).body).toEqual([]);
    expect(s.t.ctx.db.select().from(projects).all()).toHaveLength(1);
    void STRANGER;
  });
});
