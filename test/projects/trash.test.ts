// docs/api.md "Trash" and "Leaving a project": every deletion is recoverable by the owner for
// PROJECT_TRASH_DAYS; a collaborator may leave a project they were added to.
import { afterEach, describe, expect, test } from "bun:test";
import { botTokens } from "../../src/db/schema";
import { loadConfig, ConfigError } from "../../src/config";
import type { EventMap } from "../../src/events";
import { patFor } from "../support/app";
import { addCollaborator, COLLAB, FakeBots, newProject, OWNER, STRANGER, team, type Team } from "./helpers";

let s: Team;
afterEach(() => s?.t.cleanup());

const DAY = 86_400_000;

const listIds = async (cookie: string) => ((await s.t.call("GET", "/api/projects/list", { cookie })).body as { id: number }[]).map((p) => p.id);
const trashOf = async (cookie: string) => (await s.t.call("GET", "/api/projects/trash", { cookie })).body;

describe("the trash", () => {
  test("the owner's delete trashes: bots stopped, hidden everywhere, listed in the owner's trash with its purge date", async () => {
    const bots = new FakeBots();
    s = await team({ bots, env: { PROJECT_TRASH_DAYS: "7" } });
    const id = await newProject(s.t, s.owner, { name: "Shop" });
    addCollaborator(s.t, id, COLLAB);
    const events: EventMap["projects-changed"][] = [];
    s.t.ctx.events.on("projects-changed", (e) => events.push(e));

    expect((await s.t.call("DELETE", `/api/projects/${id}`, { cookie: s.owner })).status).toBe(200);
    expect(bots.journal).toEqual([`stop:${id}`]);
    expect(events).toEqual([{ kind: "deleted", projectId: id, recipients: [OWNER, COLLAB] }]);
    for (const cookie of [s.owner, s.collab]) {
      expect(await listIds(cookie)).not.toContain(id);
      expect((await s.t.call("GET", `/api/projects/${id}`, { cookie })).status).toBe(404);
      expect((await s.t.call("GET", `/api/bot/projects/${id}`, { cookie })).status).toBe(404);
      expect((await s.t.call("POST", `/api/projects/${id}/bot/start`, { cookie, json: {} })).status).toBe(404);
    }
    // A second delete finds nothing.
    expect((await s.t.call("DELETE", `/api/projects/${id}`, { cookie: s.owner })).status).toBe(404);

    const trash = await trashOf(s.owner);
    expect(trash.retentionDays).toBe(7);
    expect(trash.count).toBe(1);
    const item = trash.items[0];
    expect(item).toMatchObject({ id, name: "Shop", deletedBy: { userId: OWNER, name: "Olga Owner" } });
    expect(Date.parse(item.purgeAt) - Date.parse(item.deletedAt)).toBe(7 * DAY);
    // The collaborator's trash holds only their own projects: none.
    expect(await trashOf(s.collab)).toEqual({ items: [], count: 0, retentionDays: 7 });
  });

  test("a collaborator's delete (bot API) lands in the owner's trash; only the owner restores, and the bots stay stopped", async () => {
    const bots = new FakeBots();
    s = await team({ bots });
    const id = await newProject(s.t, s.owner, { name: "Shared" });
    addCollaborator(s.t, id, COLLAB);
    const tokenId = s.t.ctx.db.insert(botTokens).values({ projectId: id, token: "12345:ABCDEFGHIJKLMNOPQRSTUVWXYZ", name: "b" }).returning({ id: botTokens.id }).get().id;

    expect((await s.t.call("DELETE", `/api/bot/projects/${id}`, { cookie: s.collab })).status).toBe(200);
    const item = (await trashOf(s.owner)).items[0];
    expect(item.deletedBy).toEqual({ userId: COLLAB, name: "Carl" });

    for (const cookie of [s.collab, s.stranger]) {
      const r = await s.t.call("POST", `/api/projects/trash/${id}/restore`, { cookie });
      expect([r.status, r.body.error]).toEqual([404, "NOT_FOUND"]);
    }
    expect((await s.t.call("POST", `/api/projects/trash/${id}/restore`, { bearer: patFor(s.t, COLLAB) })).status).toBe(404);
    const r = await s.t.call("POST", `/api/projects/trash/${id}/restore`, { cookie: s.owner });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ id, name: "Shared", ownerId: OWNER });
    // Back for the whole team, with its token; nothing was started.
    expect(await listIds(s.owner)).toContain(id);
    expect(await listIds(s.collab)).toContain(id);
    expect((await s.t.call("GET", `/api/projects/${id}`, { cookie: s.collab })).status).toBe(200);
    expect(s.t.ctx.db.select().from(botTokens).all().map((t) => t.id)).toEqual([tokenId]);
    expect(bots.journal.filter((j) => j.startsWith("start:"))).toEqual([]);
    expect((await trashOf(s.owner)).items).toEqual([]);
    // Restored once: a second restore finds nothing.
    expect((await s.t.call("POST", `/api/projects/trash/${id}/restore`, { cookie: s.owner })).status).toBe(404);
  });

  test("restore refuses ids that are not in the trash and bad ids", async () => {
    s = await team();
    const live = await newProject(s.t, s.owner);
    expect((await s.t.call("POST", `/api/projects/trash/${live}/restore`, { cookie: s.owner })).status).toBe(404);
    expect((await s.t.call("POST", `/api/projects/trash/987654/restore`, { cookie: s.owner })).status).toBe(404);
    for (const bad of ["abc", "0", "-1", "1.5", "1e3"]) {
      const r = await s.t.call("POST", `/api/projects/trash/${bad}/restore`, { cookie: s.owner });
      expect([bad, r.status]).toEqual([bad, 400]);
    }
    expect((await s.t.call("GET", "/api/projects/trash")).status).toBe(401);
    expect((await s.t.call("POST", `/api/projects/trash/${live}/restore`)).status).toBe(401);
  });

  test("trashed projects still count toward the per-user cap until purged; the owner may delete them for good", async () => {
    s = await team({ env: { MAX_PROJECTS_PER_USER: "1" } });
    const first = await newProject(s.t, s.owner);
    addCollaborator(s.t, first, COLLAB);
    expect((await s.t.call("DELETE", `/api/projects/${first}`, { cookie: s.owner })).status).toBe(200);
    // Otherwise a user could fill the disk with projects created and trashed over and over.
    const refused = await s.t.call("POST", "/api/projects", { cookie: s.owner, json: { name: "Second" } });
    expect([refused.status, refused.body.error]).toEqual([409, "CONFLICT"]);
    // Delete forever: the owner's alone; to anyone else the trashed project does not exist.
    for (const cookie of [s.collab, s.stranger]) expect((await s.t.call("DELETE", `/api/projects/trash/${first}`, { cookie })).status).toBe(404);
    expect((await s.t.call("DELETE", `/api/projects/trash/${first}`, { cookie: s.owner })).status).toBe(200);
    expect(s.t.ctx.db.$client.query("select count(*) as n from projects").get()).toEqual({ n: 0 });
    expect((await s.t.call("POST", `/api/projects/trash/${first}/restore`, { cookie: s.owner })).status).toBe(404);
    expect((await s.t.call("DELETE", `/api/projects/trash/${first}`, { cookie: s.owner })).status).toBe(404);
    expect((await s.t.call("POST", "/api/projects", { cookie: s.owner, json: { name: "Second" } })).status).toBe(201);
  });

  test("delete forever refuses live projects and bad ids", async () => {
    s = await team();
    const live = await newProject(s.t, s.owner);
    expect((await s.t.call("DELETE", `/api/projects/trash/${live}`, { cookie: s.owner })).status).toBe(404);
    expect(await listIds(s.owner)).toContain(live);
    for (const bad of ["abc", "0", "-1"]) expect((await s.t.call("DELETE", `/api/projects/trash/${bad}`, { cookie: s.owner })).status).toBe(400);
    expect((await s.t.call("DELETE", `/api/projects/trash/${live}`)).status).toBe(401);
  });

  test("a restore that lands while the purge stops the bots wins: nothing is purged", async () => {
    s = await team();
    const id = await newProject(s.t, s.owner);
    expect((await s.t.call("DELETE", `/api/projects/${id}`, { cookie: s.owner })).status).toBe(200);
    const bots = s.t.ctx.bots;
    const stopProject = bots.stopProject.bind(bots);
    // The restore runs after the bots are stopped and before the purge looks again.
    bots.stopProject = async (projectId, whileStopped) => stopProject(projectId, async () => {
      expect((await s.t.call("POST", `/api/projects/trash/${id}/restore`, { cookie: s.owner })).status).toBe(200);
      await whileStopped?.();
    });
    expect(await s.t.ctx.projects.purge(id)).toBe(false);
    expect(await listIds(s.owner)).toContain(id);
  });

  test("the purge takes only what is past PROJECT_TRASH_DAYS; then it is gone for good", async () => {
    const bots = new FakeBots();
    s = await team({ bots, env: { PROJECT_TRASH_DAYS: "3" } });
    const old = await newProject(s.t, s.owner, { name: "Old" });
    const fresh = await newProject(s.t, s.owner, { name: "Fresh" });
    expect((await s.t.call("DELETE", `/api/projects/${old}`, { cookie: s.owner })).status).toBe(200);
    expect((await s.t.call("DELETE", `/api/projects/${fresh}`, { cookie: s.owner })).status).toBe(200);
    s.t.ctx.db.$client.prepare("update project_trash set deleted_at = ? where project_id = ?").run(new Date(Date.now() - 4 * DAY).toISOString(), old);
    expect(await s.t.ctx.projects.purgeExpiredTrash()).toBe(1);
    expect((await trashOf(s.owner)).items.map((i: { id: number }) => i.id)).toEqual([fresh]);
    expect(s.t.ctx.db.$client.query("select id from projects order by id").all()).toEqual([{ id: fresh }]);
    expect((await s.t.call("POST", `/api/projects/trash/${old}/restore`, { cookie: s.owner })).status).toBe(404);
    // Two days on, the fresh one is still inside its three days.
    expect(await s.t.ctx.projects.purgeExpiredTrash(Date.now() + 2 * DAY)).toBe(0);
    expect(await s.t.ctx.projects.purgeExpiredTrash(Date.now() + 3 * DAY + 60_000)).toBe(1);
    expect(s.t.ctx.db.$client.query("select count(*) as n from projects").get()).toEqual({ n: 0 });
  });

  test("PROJECT_TRASH_DAYS: default 30, at least 1; nonsense is a configuration error", () => {
    expect(loadConfig({ DATA_DIR: "/tmp/botloom-trash-config", SESSION_SECRET: "x".repeat(32) }).projectTrashDays).toBe(30);
    for (const bad of ["0", "-1", "abc", "1.5", "99999"]) {
      expect(() => loadConfig({ DATA_DIR: "/tmp/botloom-trash-config", SESSION_SECRET: "x".repeat(32), PROJECT_TRASH_DAYS: bad })).toThrow(ConfigError);
    }
  });
});

describe("leaving a project", () => {
  test("a collaborator leaves: it leaves their list, the team changes, nothing else does", async () => {
    s = await team();
    const id = await newProject(s.t, s.owner);
    addCollaborator(s.t, id, COLLAB);
    expect((await s.t.call("POST", `/api/projects/${id}/archive`, { cookie: s.collab })).status).toBe(200);
    const events: EventMap["projects-changed"][] = [];
    s.t.ctx.events.on("projects-changed", (e) => events.push(e));

    const r = await s.t.call("POST", `/api/projects/${id}/leave`, { cookie: s.collab });
    expect([r.status, r.body]).toEqual([200, { success: true }]);
    expect(events).toEqual([
      { kind: "deleted", projectId: id, recipients: [COLLAB] },
      { kind: "updated", projectId: id, recipients: [OWNER] },
    ]);
    expect((await s.t.call("GET", `/api/projects/${id}`, { cookie: s.collab })).status).toBe(404);
    expect((await s.t.call("GET", "/api/projects/list?archived=true", { cookie: s.collab })).body).toEqual([]);
    expect(s.t.ctx.db.$client.query("select count(*) as n from project_archives").get()).toEqual({ n: 0 });
    const members = await s.t.call("GET", `/api/projects/${id}/collaborators`, { cookie: s.owner });
    expect(members.body.map((m: { userId: number }) => m.userId)).toEqual([OWNER]);
    // Left once: a second time they are no member.
    expect((await s.t.call("POST", `/api/projects/${id}/leave`, { cookie: s.collab })).status).toBe(403);
  });

  test("the owner cannot leave (409); strangers 403; missing 404; bad ids 400; nobody 401", async () => {
    s = await team();
    const id = await newProject(s.t, s.owner);
    const owner = await s.t.call("POST", `/api/projects/${id}/leave`, { cookie: s.owner });
    expect([owner.status, owner.body.error]).toEqual([409, "CONFLICT"]);
    expect((await s.t.call("POST", `/api/projects/${id}/leave`, { cookie: s.stranger })).status).toBe(403);
    expect((await s.t.call("POST", `/api/projects/987654/leave`, { cookie: s.collab })).status).toBe(404);
    expect((await s.t.call("POST", `/api/projects/abc/leave`, { cookie: s.collab })).status).toBe(400);
    expect((await s.t.call("POST", `/api/projects/${id}/leave`)).status).toBe(401);
    expect(await listIds(s.owner)).toContain(id);
  });
});
