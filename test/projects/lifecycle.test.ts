import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { sql } from "drizzle-orm";
import {
  botLaunches,
  botLogs,
  botTokens,
  mediaFiles,
  projectArchives,
  projectCollaborators,
  projectOrder,
  projects,
  projectVersions,
  tokenEnvVars,
} from "../../src/db/schema";
import type { EventMap } from "../../src/events";
import { projectBotState, projectBotUsers } from "../../src/db/project-schema";
import { addCollaborator, COLLAB, FakeBots, newProject, OWNER, STRANGER, team, type Team } from "./helpers";

let s: Team;
afterEach(() => s?.t.cleanup());

function seedEverything(s: Team, projectId: number) {
  const db = s.t.ctx.db;
  const tokenId = db.insert(botTokens).values({ projectId, token: "12345:ABCDEFGHIJKLMNOPQRSTUVWXYZ", name: "b" }).returning({ id: botTokens.id }).get().id;
  db.insert(tokenEnvVars).values({ tokenId, key: "API_KEY", value: "v" }).run();
  // the project's own database file: bot users and chat state
  const own = s.t.ctx.projectFiles.open(projectId);
  own.insert(projectBotUsers).values({ tokenId, userId: "77", firstSeenAt: "2026-01-01", lastSeenAt: "2026-01-01" }).run();
  own.insert(projectBotState).values({ tokenId, chatId: "77", updatedAt: "2026-01-01" }).run();
  db.insert(mediaFiles).values({ projectId, objectKey: `${projectId}/photo/a.jpg`, kind: "photo", fileName: "a.jpg", mimeType: "image/jpeg", size: 1 }).run();
  db.insert(botLaunches).values({ projectId, tokenId, status: "stopped" }).run();
  db.insert(botLogs).values({ projectId, tokenId, level: "stdout", message: "hi" }).run();
  db.insert(projectArchives).values({ projectId, userId: COLLAB }).run();
  db.insert(projectOrder).values({ projectId, userId: COLLAB, sortOrder: 3 }).run();
  // files outside the database: the media object (built-in folder) and the cached avatars
  const up = s.t.ctx.config.uploadsDir;
  for (const rel of [`${projectId}/photo/a.jpg`, `${projectId}/bot_photos/b.jpg`, `${projectId}/user_photos/u.jpg`]) {
    mkdirSync(dirname(join(up, rel)), { recursive: true });
    writeFileSync(join(up, rel), "bytes");
  }
}

const filesOf = (s: Team, projectId: number) =>
  ["photo/a.jpg", "bot_photos/b.jpg", "user_photos/u.jpg"].filter((rel) => existsSync(join(s.t.ctx.config.uploadsDir, String(projectId), rel)));

const TABLES = { projects, botTokens, tokenEnvVars, mediaFiles, botLaunches, botLogs, projectArchives, projectOrder, projectVersions, projectCollaborators };
function counts(s: Team) {
  const out: Record<string, number> = {};
  for (const [name, table] of Object.entries(TABLES)) out[name] = s.t.ctx.db.select({ n: sql<number>`count(*)` }).from(table).get()!.n;
  return out;
}

describe("delete (rule 3)", () => {
  test("delete stops the bots and trashes (nothing removed); the purge stops them again, runs the hooks, then every dependent row goes", async () => {
    const journal: string[] = [];
    s = await team({ bots: new FakeBots(journal) });
    const id = await newProject(s.t, s.owner);
    const keep = await newProject(s.t, s.owner);
    addCollaborator(s.t, id, COLLAB);
    addCollaborator(s.t, keep, COLLAB);
    seedEverything(s, id);
    seedEverything(s, keep);
    const before = counts(s);
    s.t.ctx.projectDeleteHooks.push(async (projectId) => {
      const stillThere = s.t.ctx.db.select().from(projects).all().some((p) => p.id === projectId);
      journal.push(`hook:${projectId}:${stillThere ? "row present" : "row gone"}`);
    });
    s.t.ctx.projectDeleteHooks.push(async () => {
      journal.push("failing hook");
      throw new Error("disk on fire");
    });
    const events: EventMap["projects-changed"][] = [];
    s.t.ctx.events.on("projects-changed", (e) => events.push(e));

    const r = await s.t.call("DELETE", `/api/projects/${id}`, { cookie: s.owner });
    expect(r.status).toBe(200);
    expect(typeof r.body.message).toBe("string");
    // docs/api.md "Trash": hidden and stopped, but every row and file is kept for a restore.
    expect(journal).toEqual([`stop:${id}`]);
    expect(counts(s)).toEqual(before);
    expect(filesOf(s, id)).toEqual(["photo/a.jpg", "bot_photos/b.jpg", "user_photos/u.jpg"]);
    expect((await s.t.call("GET", `/api/projects/${id}`, { cookie: s.owner })).status).toBe(404);
    // Not yet due: nothing purged.
    expect(await s.t.ctx.projects.purgeExpiredTrash()).toBe(0);
    expect(await s.t.ctx.projects.purgeExpiredTrash(Date.now() + (s.t.ctx.config.projectTrashDays + 1) * 86_400_000)).toBe(1);
    expect(journal).toEqual([`stop:${id}`, `stop:${id}`, `hook:${id}:row present`, "failing hook"]);
    expect(s.t.logs.some((l) => l.startsWith("warn") && l.includes("delete hook failed"))).toBe(true);
    expect(events).toEqual([{ kind: "deleted", projectId: id, recipients: [OWNER, COLLAB] }]);

    const after = counts(s);
    for (const name of Object.keys(TABLES)) {
      // the kept project still has exactly its own rows; the deleted one has none
      expect([name, after[name]]).toEqual([name, before[name] / 2]);
    }
    expect(filesOf(s, id)).toEqual([]);
    // the deleted project's database file goes with it; the kept one still has its rows
    expect(existsSync(s.t.ctx.projectFiles.pathOf(id))).toBe(false);
    expect(s.t.ctx.projectFiles.existing(keep)!.select().from(projectBotUsers).all().map((u) => u.userId)).toEqual(["77"]);
    expect(filesOf(s, keep)).toEqual(["photo/a.jpg", "bot_photos/b.jpg", "user_photos/u.jpg"]);
    expect((await s.t.call("GET", `/api/projects/${id}`, { cookie: s.owner })).status).toBe(404);
    expect((await s.t.call("GET", `/api/projects/${keep}`, { cookie: s.owner })).status).toBe(200);
  });

  test("collaborator 403, stranger 403, missing 404, bad id 400; nothing is stopped then", async () => {
    const journal: string[] = [];
    s = await team({ bots: new FakeBots(journal) });
    const id = await newProject(s.t, s.owner);
    addCollaborator(s.t, id, COLLAB);
    const c = await s.t.call("DELETE", `/api/projects/${id}`, { cookie: s.collab });
    expect([c.status, c.body.error]).toEqual([403, "FORBIDDEN"]);
    expect((await s.t.call("DELETE", `/api/projects/${id}`, { cookie: s.stranger })).status).toBe(403);
    expect((await s.t.call("DELETE", "/api/projects/999", { cookie: s.owner })).status).toBe(404);
    expect((await s.t.call("DELETE", "/api/projects/abc", { cookie: s.owner })).status).toBe(400);
    expect(journal).toEqual([]);
    expect((await s.t.call("GET", `/api/projects/${id}`, { cookie: s.owner })).status).toBe(200);
  });

  test("the service lets a collaborator delete when asked (bot API)", async () => {
    const journal: string[] = [];
    s = await team({ bots: new FakeBots(journal) });
    const id = await newProject(s.t, s.owner);
    addCollaborator(s.t, id, COLLAB);
    await s.t.ctx.projects.delete(id, COLLAB, { allowCollaborator: true });
    expect(journal).toEqual([`stop:${id}`]);
    await expect(s.t.ctx.projects.delete(id, COLLAB, { allowCollaborator: true })).rejects.toMatchObject({ status: 404 });
  });

  test("a failing bot stop aborts the delete (500) and keeps the project", async () => {
    const bots = new FakeBots([]);
    bots.stopProject = async () => {
      throw new Error("runtime down");
    };
    s = await team({ bots });
    const id = await newProject(s.t, s.owner);
    expect((await s.t.call("DELETE", `/api/projects/${id}`, { cookie: s.owner })).status).toBe(500);
    expect((await s.t.call("GET", `/api/projects/${id}`, { cookie: s.owner })).status).toBe(200);
  });
});

describe("reorder (rule 10)", () => {
  const order = async (cookie: string) => (await s.t.call("GET", "/api/projects/list", { cookie })).body.map((p: any) => [p.name, p.sortOrder]);

  test("assigns positions in the order given; per user; reordered event to the caller; not captured by /:id", async () => {
    s = await team();
    const a = await newProject(s.t, s.owner, { name: "a" });
    const b = await newProject(s.t, s.owner, { name: "b" });
    const c = await newProject(s.t, s.owner, { name: "c" });
    addCollaborator(s.t, a, COLLAB);
    addCollaborator(s.t, c, COLLAB);
    const events: EventMap["projects-changed"][] = [];
    s.t.ctx.events.on("projects-changed", (e) => events.push(e));

    const r = await s.t.call("PUT", "/api/projects/reorder", { cookie: s.owner, json: { projectIds: [c, a, b] } });
    expect([r.status, r.body]).toEqual([200, { success: true }]);
    expect(await order(s.owner)).toEqual([["c", 0], ["a", 1], ["b", 2]]);
    expect(await order(s.collab)).toEqual([["a", 0], ["c", 2]]);
    expect(events).toEqual([{ kind: "reordered", projectId: c, recipients: [OWNER] }]);
    // a partial list moves only those
    await s.t.call("PUT", "/api/projects/reorder", { cookie: s.collab, json: { projectIds: [c, a] } });
    expect(await order(s.collab)).toEqual([["c", 0], ["a", 1]]);
    expect(await order(s.owner)).toEqual([["c", 0], ["a", 1], ["b", 2]]);
    // "reorder" is never taken for a project id
    expect((await s.t.call("GET", "/api/projects/reorder", { cookie: s.owner })).status).toBe(400);
  });

  test("one inaccessible or missing id → 403 and nothing changes", async () => {
    s = await team();
    const a = await newProject(s.t, s.owner, { name: "a" });
    const b = await newProject(s.t, s.owner, { name: "b" });
    const foreign = await newProject(s.t, s.stranger, { name: "f" });
    const events: EventMap["projects-changed"][] = [];
    s.t.ctx.events.on("projects-changed", (e) => events.push(e));
    const before = await order(s.owner);
    for (const ids of [[b, a, foreign], [b, a, 99999]]) {
      const r = await s.t.call("PUT", "/api/projects/reorder", { cookie: s.owner, json: { projectIds: ids } });
      expect([r.status, r.body.error]).toEqual([403, "FORBIDDEN"]);
      expect(await order(s.owner)).toEqual(before);
    }
    expect(s.t.ctx.db.select().from(projectOrder).all()).toEqual([]);
    expect(events).toEqual([]);
    void STRANGER;
  });

  test("400 for empty or invalid lists", async () => {
    s = await team();
    const a = await newProject(s.t, s.owner, { name: "a" });
    const bad: unknown[] = [{}, { projectIds: [] }, { projectIds: [0] }, { projectIds: [-1] }, { projectIds: [1.5] }, { projectIds: ["1"] }, { projectIds: [a, a] }, { projectIds: a }, { projectIds: null }, { projectIds: [a], x: 1 }, []];
    for (const json of bad) {
      const r = await s.t.call("PUT", "/api/projects/reorder", { cookie: s.owner, json });
      expect([JSON.stringify(json), r.status, r.body.error]).toEqual([JSON.stringify(json), 400, "VALIDATION_FAILED"]);
    }
    expect((await s.t.call("PUT", "/api/projects/reorder", { cookie: s.owner, body: "[", headers: { "content-type": "application/json" } })).status).toBe(400);
  });
});
