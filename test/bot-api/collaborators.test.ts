import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { users } from "../../src/db/schema";
import { loginAs, patFor } from "../support/app";
import { botApiEnv, COLLAB, createProject, OWNER, STRANGER, type BotApiEnv } from "./support";

let env: BotApiEnv;
let pid: number;

beforeAll(async () => {
  env = await botApiEnv();
  pid = createProject(env, OWNER, "Team");
});
afterAll(() => env.close());

const list = (opts: { cookie?: string; bearer?: string } = { cookie: undefined }) => env.call("GET", `/api/bot/projects/${pid}/collaborators`, opts);

describe("collaborators", () => {
  test("empty list, add (user row created), list shape", async () => {
    expect((await list({ cookie: env.cookie })).body).toEqual({ items: [], count: 0 });
    const NEWCOMER = 880001;
    const r = await env.call("POST", `/api/bot/projects/${pid}/collaborators?telegram_id=${OWNER}`, { bearer: env.managerPat, json: { user_id: NEWCOMER } });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ success: true });
    expect(env.t.ctx.db.select().from(users).where(eq(users.id, NEWCOMER)).get()).toBeTruthy();
    const l = await list({ cookie: env.cookie });
    expect(l.body).toEqual({ items: [{ projectId: pid, userId: NEWCOMER, invitedBy: OWNER }], count: 1 });
  });

  test("adding an existing collaborator or the owner is a no-op success", async () => {
    expect((await env.call("POST", `/api/bot/projects/${pid}/collaborators`, { cookie: env.cookie, json: { user_id: COLLAB } })).status).toBe(200);
    expect((await env.call("POST", `/api/bot/projects/project_${pid}/collaborators`, { bearer: env.pat, json: { user_id: String(COLLAB) } })).status).toBe(200);
    expect((await env.call("POST", `/api/bot/projects/${pid}/collaborators`, { cookie: env.cookie, json: { user_id: OWNER } })).status).toBe(200);
    const l = await list({ cookie: env.cookie });
    expect(l.body.count).toBe(2);
    expect(l.body.items.filter((i: any) => i.userId === COLLAB).length).toBe(1);
    expect(l.body.items.some((i: any) => i.userId === OWNER)).toBe(false);
  });

  test("the added collaborator gains access and can see the team", async () => {
    const collab = await loginAs(env.t, COLLAB);
    expect((await env.call("GET", `/api/bot/projects/${pid}`, { cookie: collab })).status).toBe(200);
    expect((await list({ cookie: collab })).body.count).toBe(2);
    const mine = await env.call("GET", `/api/bot/projects`, { cookie: collab });
    expect(mine.body.items.map((i: any) => i.id)).toContain(pid);
  });

  test("bad user_id values are 400", async () => {
    for (const json of [{}, { user_id: 0 }, { user_id: -5 }, { user_id: 1.5 }, { user_id: "abc" }, { user_id: "" }, { user_id: null }, { user_id: 1e20 }, { userId: 5 }]) {
      const r = await env.call("POST", `/api/bot/projects/${pid}/collaborators`, { cookie: env.cookie, json });
      expect(r.status).toBe(400);
      expect(r.body.error).toBe("VALIDATION_FAILED");
    }
  });

  test("remove: 200, then 404; the owner is not a collaborator (404); bad ids 400; access lost", async () => {
    const r = await env.call("DELETE", `/api/bot/projects/${pid}/collaborators/${COLLAB}`, { cookie: env.cookie });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ success: true });
    expect((await env.call("DELETE", `/api/bot/projects/${pid}/collaborators/${COLLAB}`, { cookie: env.cookie })).status).toBe(404);
    expect((await env.call("DELETE", `/api/bot/projects/${pid}/collaborators/${OWNER}`, { cookie: env.cookie })).status).toBe(404);
    for (const bad of ["abc", "0", "-1", "user_x"]) {
      expect((await env.call("DELETE", `/api/bot/projects/${pid}/collaborators/${bad}`, { cookie: env.cookie })).status).toBe(400);
    }
    const collab = await loginAs(env.t, COLLAB);
    expect((await env.call("GET", `/api/bot/projects/${pid}`, { cookie: collab })).status).toBe(403);
  });

  test("a collaborator may manage the team too (any member); strangers 403; unknown project 404; 401", async () => {
    await env.call("POST", `/api/bot/projects/${pid}/collaborators`, { cookie: env.cookie, json: { user_id: COLLAB } });
    const collabPat = patFor(env.t, COLLAB);
    expect((await env.call("POST", `/api/bot/projects/${pid}/collaborators`, { bearer: collabPat, json: { user_id: 880002 } })).status).toBe(200);
    expect((await env.call("DELETE", `/api/bot/projects/${pid}/collaborators/880002`, { bearer: collabPat })).status).toBe(200);

    const stranger = patFor(env.t, STRANGER);
    expect((await list({ bearer: stranger })).status).toBe(403);
    expect((await env.call("POST", `/api/bot/projects/${pid}/collaborators`, { bearer: stranger, json: { user_id: STRANGER } })).status).toBe(403);
    expect((await env.call("DELETE", `/api/bot/projects/${pid}/collaborators/${COLLAB}`, { bearer: stranger })).status).toBe(403);
    expect((await env.call("GET", `/api/bot/projects/565656/collaborators`, { cookie: env.cookie })).status).toBe(404);
    expect((await env.call("POST", `/api/bot/projects/565656/collaborators`, { cookie: env.cookie, json: { user_id: 5 } })).status).toBe(404);
    expect((await env.call("GET", `/api/bot/projects/zz/collaborators`, { cookie: env.cookie })).status).toBe(400);
    expect((await list({})).status).toBe(401);
    expect((await list({ bearer: env.managerPat })).status).toBe(400);
  });

  test("the invited user hears about it on the live events channel", async () => {
    const seen: number[][] = [];
    const off = env.t.ctx.events.on("projects-changed", (e) => seen.push(e.recipients));
    await env.call("POST", `/api/bot/projects/${pid}/collaborators`, { cookie: env.cookie, json: { user_id: 880003 } });
    off();
    expect(seen).toEqual([[880003]]);
  });
});
