import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { projectCollaborators, projects, users } from "../../src/db/schema";
import { loginAs, patFor } from "../support/app";
import { addToken, botApiEnv, COLLAB, createProject, expectNoSecrets, MANAGER, OWNER, STRANGER, type BotApiEnv } from "./support";

let env: BotApiEnv;
const botTokensSeen: string[] = [];

beforeAll(async () => {
  env = await botApiEnv();
});
afterAll(() => env.close());

const ownerOf = (id: number) => env.t.ctx.db.select({ ownerId: projects.ownerId }).from(projects).where(eq(projects.id, id)).get()?.ownerId;

describe("credential kinds and actor rules", () => {
  test("session cookie, ordinary PAT, bot_manager PAT with messenger_id or telegram_id", async () => {
    const pid = createProject(env, OWNER, "Mine");
    for (const opts of [{ cookie: env.cookie }, { bearer: env.pat }]) {
      const r = await env.call("GET", `/api/bot/projects/${pid}`, opts);
      expect(r.status).toBe(200);
    }
    expect((await env.call("GET", `/api/bot/projects/${pid}?messenger_id=${OWNER}`, { bearer: env.managerPat })).status).toBe(200);
    expect((await env.call("GET", `/api/bot/projects/${pid}?telegram_id=${OWNER}`, { bearer: env.managerPat })).status).toBe(200);
    expect((await env.call("GET", `/api/bot/projects/${pid}?telegram_id=${OWNER}&messenger_id=${OWNER}`, { bearer: env.managerPat })).status).toBe(200);
  });

  test("400 without messenger_id for bot_manager, 400 for differing aliases, 403 for a foreign messenger_id with an ordinary PAT or session, 401 without credentials", async () => {
    const pid = createProject(env, OWNER, "Mine2");
    const missing = await env.call("GET", `/api/bot/projects`, { bearer: env.managerPat });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toBe("VALIDATION_FAILED");
    expect((await env.call("GET", `/api/bot/projects?messenger_id=${OWNER}&telegram_id=${STRANGER}`, { bearer: env.managerPat })).status).toBe(400);
    expect((await env.call("GET", `/api/bot/projects?messenger_id=abc`, { bearer: env.managerPat })).status).toBe(400);
    const foreign = await env.call("GET", `/api/bot/projects?messenger_id=${STRANGER}`, { bearer: env.pat });
    expect(foreign.status).toBe(403);
    expect(foreign.body.error).toBe("FORBIDDEN");
    expect((await env.call("GET", `/api/bot/projects?telegram_id=${STRANGER}`, { cookie: env.cookie })).status).toBe(403);
    expect((await env.call("GET", `/api/bot/projects?messenger_id=${OWNER}`, { bearer: env.pat })).status).toBe(200);
    expect((await env.call("GET", `/api/bot/projects`)).status).toBe(401);
    expect((await env.call("GET", `/api/bot/projects/${pid}`)).status).toBe(401);
    expect((await env.call("POST", `/api/bot/projects`, { json: {} })).status).toBe(401);
    expect((await env.call("POST", `/api/bot/projects/import`, { json: { sheets: [] } })).status).toBe(401);
    // The bot_manager PAT acts for the named user: someone else's project is 403.
    expect((await env.call("GET", `/api/bot/projects/${pid}?messenger_id=${STRANGER}`, { bearer: env.managerPat })).status).toBe(403);
  });
});

describe("projects", () => {
  test("list: owned and shared projects as {id, name, description}; archived ones hidden", async () => {
    const u = 611;
    const cookie = await loginAs(env.t, u);
    expect((await env.call("GET", `/api/bot/projects`, { cookie })).body).toEqual({ items: [], count: 0 });
    const own = createProject(env, u, "Own");
    const shared = createProject(env, OWNER, "Shared");
    env.t.ctx.db.insert(projectCollaborators).values({ projectId: shared, userId: u, invitedBy: OWNER }).run();
    const archived = createProject(env, u, "Old");
    env.t.ctx.projects.setArchived(archived, u, true);
    createProject(env, OWNER, "Not mine");
    const r = await env.call("GET", `/api/bot/projects?telegram_id=${u}`, { bearer: env.managerPat });
    expect(r.status).toBe(200);
    expect(r.body.count).toBe(2);
    expect(r.body.items.map((i: any) => i.id).sort()).toEqual([own, shared].sort());
    for (const item of r.body.items) expect(Object.keys(item).sort()).toEqual(["description", "id", "name"]);
  });

  test("create: default name «Новый проект», given name, and never a 400 for the body", async () => {
    const a = await env.call("POST", `/api/bot/projects`, { cookie: env.cookie, json: {} });
    expect(a.status).toBe(200);
    expect(a.body).toEqual({ id: expect.any(Number), name: "Новый проект" });
    const b = await env.call("POST", `/api/bot/projects?telegram_id=${OWNER}`, { bearer: env.managerPat, json: { name: "  Мой бот  " } });
    expect(b.body).toEqual({ id: expect.any(Number), name: "Мой бот" });
    expect(ownerOf(b.body.id)).toBe(OWNER);
    for (const opts of [{}, { json: { name: 5 } }, { json: { name: "   " } }, { json: [1, 2] }, { body: "{broken", headers: { "content-type": "application/json" } }]) {
      const r = await env.call("POST", `/api/bot/projects`, { bearer: env.pat, ...opts });
      expect(r.status).toBe(200);
      expect(r.body.name).toBe("Новый проект");
    }
    const long = await env.call("POST", `/api/bot/projects`, { bearer: env.pat, json: { name: "x".repeat(500) } });
    expect(long.body.name.length).toBe(200);
    // the bot_manager acts for the messenger user, who becomes the owner (row created if new)
    const c = await env.call("POST", `/api/bot/projects?messenger_id=777001`, { bearer: env.managerPat, json: { name: "For 777001" } });
    expect(ownerOf(c.body.id)).toBe(777001);
    expect(env.t.ctx.db.select().from(users).where(eq(users.id, 777001)).get()).toBeTruthy();
  });

  test("get: {id, name, description} without data; identifier forms; 400/403/404", async () => {
    const pid = createProject(env, OWNER, "Detail");
    for (const id of [String(pid), `project_${pid}`]) {
      const r = await env.call("GET", `/api/bot/projects/${id}`, { cookie: env.cookie });
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ id: pid, name: "Detail", description: "" });
    }
    for (const bad of ["abc", "project_", "project_abc", "proj_1", "0", "-3", "1e2", "token_1", "import"]) {
      const r = await env.call("GET", `/api/bot/projects/${bad}`, { cookie: env.cookie });
      expect(r.status).toBe(400);
      expect(r.body.error).toBe("VALIDATION_FAILED");
    }
    expect((await env.call("GET", `/api/bot/projects/987654`, { cookie: env.cookie })).status).toBe(404);
    const stranger = await loginAs(env.t, STRANGER);
    const r = await env.call("GET", `/api/bot/projects/${pid}`, { cookie: stranger });
    expect(r.status).toBe(403);
    expect(r.body.error).toBe("FORBIDDEN");
  });

  test("rename: {id, name}; validation 400; 403; 404", async () => {
    const pid = createProject(env, OWNER, "Before");
    const r = await env.call("PATCH", `/api/bot/projects/project_${pid}?telegram_id=${OWNER}`, { bearer: env.managerPat, json: { name: " After " } });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ id: pid, name: "After" });
    expect((await env.call("GET", `/api/bot/projects/${pid}`, { cookie: env.cookie })).body.name).toBe("After");
    for (const json of [{}, { name: "" }, { name: "   " }, { name: 5 }, { name: "x".repeat(201) }]) {
      const bad = await env.call("PATCH", `/api/bot/projects/${pid}`, { cookie: env.cookie, json });
      expect(bad.status).toBe(400);
      expect(bad.body.error).toBe("VALIDATION_FAILED");
    }
    expect((await env.call("PATCH", `/api/bot/projects/${pid}`, { cookie: env.cookie, body: "{", headers: { "content-type": "application/json" } })).status).toBe(400);
    expect((await env.call("PATCH", `/api/bot/projects/${pid}`, { bearer: patFor(env.t, STRANGER), json: { name: "x" } })).status).toBe(403);
    expect((await env.call("PATCH", `/api/bot/projects/876543`, { cookie: env.cookie, json: { name: "x" } })).status).toBe(404);
    expect((await env.call("PATCH", `/api/bot/projects/x`, { cookie: env.cookie, json: { name: "x" } })).status).toBe(400);
  });

  test("delete: the owner or a collaborator; the project's bots are stopped; strangers 403; then 404", async () => {
    const byOwner = createProject(env, OWNER, "Del1");
    const { bot } = await addToken(env, byOwner);
    botTokensSeen.push(bot.token);
    const r = await env.call("DELETE", `/api/bot/projects/${byOwner}`, { cookie: env.cookie });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ success: true });
    expect(env.bots.stoppedProjects).toContain(byOwner);
    expect((await env.call("GET", `/api/bot/projects/${byOwner}`, { cookie: env.cookie })).status).toBe(404);
    expect((await env.call("DELETE", `/api/bot/projects/${byOwner}`, { cookie: env.cookie })).status).toBe(404);

    const byCollab = createProject(env, OWNER, "Del2");
    env.t.ctx.db.insert(projectCollaborators).values({ projectId: byCollab, userId: COLLAB, invitedBy: OWNER }).run();
    expect((await env.call("DELETE", `/api/bot/projects/${byCollab}`, { bearer: patFor(env.t, STRANGER) })).status).toBe(403);
    const c = await env.call("DELETE", `/api/bot/projects/project_${byCollab}?messenger_id=${COLLAB}`, { bearer: env.managerPat });
    expect(c.status).toBe(200);
    // docs/api.md "Trash": a collaborator's delete lands in the owner's trash, which only the owner restores.
    expect(env.t.ctx.projects.trash.list(OWNER).map((i) => i.id)).toContain(byCollab);
    await env.t.ctx.projects.purgeExpiredTrash(Date.now() + (env.t.ctx.config.projectTrashDays + 1) * 86_400_000);
    expect(ownerOf(byCollab)).toBeUndefined();
    expect((await env.call("DELETE", `/api/bot/projects/abc`, { cookie: env.cookie })).status).toBe(400);
  });
});

test("deleting a project removes its downloaded avatars", async () => {
  const pid = createProject(env, OWNER, "Avatars");
  const { bot, tokenId } = await addToken(env, pid, { hasPhoto: true });
  botTokensSeen.push(bot.token);
  const photo = await env.call("GET", `/api/bot/tokens/${tokenId}/photo`, { cookie: env.cookie });
  const file = join(env.t.ctx.config.uploadsDir, photo.body.photoUrl.slice("/uploads/".length));
  expect(existsSync(file)).toBe(true);
  expect((await env.call("DELETE", `/api/bot/projects/${pid}`, { cookie: env.cookie })).status).toBe(200);
  expect(existsSync(file)).toBe(true); // kept while the project can be restored
  await env.t.ctx.projects.purgeExpiredTrash(Date.now() + (env.t.ctx.config.projectTrashDays + 1) * 86_400_000);
  expect(existsSync(file)).toBe(false);
});

describe("data replace (PUT /data)", () => {
  const doc = { sheets: [{ id: "s1", name: "One", nodes: [{ id: "a", type: "start", position: { x: 0, y: 0 }, data: {} }, { id: "b", type: "message", position: { x: 1, y: 1 }, data: { messageText: "hi" } }], edges: [] }, { id: "s2", name: "Two", nodes: [{ id: "c", type: "message", position: { x: 0, y: 0 }, data: {} }], edges: [] }] };

  test("{sheets}, {json_data} as object and as JSON string; tokens stay", async () => {
    const pid = createProject(env, OWNER, "Data");
    const { bot } = await addToken(env, pid);
    botTokensSeen.push(bot.token);
    const a = await env.call("PUT", `/api/bot/projects/${pid}/data`, { cookie: env.cookie, json: doc });
    expect(a.status).toBe(200);
    expect(a.body).toEqual({ id: pid, name: "Data", sheetsCount: 2, nodesCount: 3 });
    expect(env.t.ctx.projects.getFull(pid, OWNER).data).toEqual(doc);

    const one = { sheets: [doc.sheets[0]] };
    const b = await env.call("PUT", `/api/bot/projects/project_${pid}/data?telegram_id=${OWNER}`, { bearer: env.managerPat, json: { json_data: one } });
    expect(b.body).toMatchObject({ sheetsCount: 1, nodesCount: 2 });
    const c = await env.call("PUT", `/api/bot/projects/${pid}/data`, { bearer: env.pat, json: { json_data: JSON.stringify(doc) } });
    expect(c.body).toMatchObject({ sheetsCount: 2, nodesCount: 3 });
    const legacy = await env.call("PUT", `/api/bot/projects/${pid}/data`, { bearer: env.pat, body: JSON.stringify({ nodes: [{ id: "n", type: "start", data: {} }], connections: [] }), headers: { "content-type": "text/plain" } });
    expect(legacy.body).toMatchObject({ sheetsCount: 1, nodesCount: 1 });

    const tokens = await env.call("GET", `/api/bot/projects/${pid}/tokens`, { cookie: env.cookie });
    expect(tokens.body.count).toBe(1);
  });

  test("400 for a missing body or a wrong structure; 403; 404", async () => {
    const pid = createProject(env, OWNER, "Data2");
    const bodies: (string | undefined)[] = [undefined, "", "[]", "7", "{oops", JSON.stringify({ foo: 1 }), JSON.stringify({ sheets: 3 }), JSON.stringify({ json_data: "not json" }), JSON.stringify({ json_data: null }), JSON.stringify({ sheets: [{ id: "s", nodes: [{ type: "start" }] }] })];
    for (const body of bodies) {
      const r = await env.call("PUT", `/api/bot/projects/${pid}/data`, { cookie: env.cookie, body, headers: { "content-type": "application/json" } });
      expect(r.status).toBe(400);
      expect(r.body.error).toBe("VALIDATION_FAILED");
    }
    expect((await env.call("PUT", `/api/bot/projects/${pid}/data`, { bearer: patFor(env.t, STRANGER), json: doc })).status).toBe(403);
    expect((await env.call("PUT", `/api/bot/projects/999111/data`, { cookie: env.cookie, json: doc })).status).toBe(404);
    expect((await env.call("PUT", `/api/bot/projects/p1/data`, { cookie: env.cookie, json: doc })).status).toBe(400);
  });
});

test("no response body and no log line carries a bot token", () => {
  expectNoSecrets(env, botTokensSeen);
  expect(MANAGER).toBeGreaterThan(0);
});
