import { afterEach, describe, expect, test } from "bun:test";
import { projects } from "../../src/db/schema";
import { patFor } from "../support/app";
import { addCollaborator, COLLAB, newProject, OWNER, scenario, STRANGER, team, type Team } from "./helpers";

let s: Team;
afterEach(() => s?.t.cleanup());

const FULL_KEYS = ["adminIds", "botToken", "createdAt", "data", "description", "id", "isArchivedForMe", "name", "ownerId", "sessionId", "sortOrder", "updatedAt", "userDatabaseEnabled"];
const ITEM_KEYS = ["adminIds", "createdAt", "description", "id", "isArchivedForMe", "name", "nodeCount", "ownerId", "sheetsCount", "sortOrder", "updatedAt", "userDatabaseEnabled"];

describe("credentials", () => {
  test("every projects endpoint answers 401 without a session or PAT, and with a bad one", async () => {
    s = await team();
    const id = await newProject(s.t, s.owner);
    const calls: [string, string, unknown?][] = [
      ["GET", "/api/projects"],
      ["GET", "/api/projects/list"],
      ["POST", "/api/projects", { name: "x" }],
      ["GET", `/api/projects/${id}`],
      ["PUT", `/api/projects/${id}`, { name: "x" }],
      ["DELETE", `/api/projects/${id}`],
      ["GET", `/api/projects/${id}/collaborators`],
      ["GET", `/api/projects/${id}/admin-ids`],
      ["PUT", `/api/projects/${id}/admin-ids`, { adminIds: "1" }],
      ["POST", `/api/projects/${id}/admin-ids/remove`, { adminId: "1" }],
      ["POST", `/api/projects/${id}/archive`],
      ["POST", `/api/projects/${id}/unarchive`],
      ["POST", `/api/projects/${id}/duplicate`, {}],
      ["POST", `/api/projects/${id}/export`],
      ["POST", `/api/projects/${id}/generate`, {}],
      ["GET", `/api/projects/${id}/launches/all`],
      ["GET", `/api/projects/${id}/logs/all`],
      ["PUT", "/api/projects/reorder", { projectIds: [id] }],
      ["GET", `/api/projects/${id}/versions`],
      ["GET", `/api/projects/${id}/versions/1`],
      ["POST", `/api/projects/${id}/versions/1/restore`],
    ];
    for (const [method, path, json] of calls) {
      const none = await s.t.call(method, path, { json });
      expect([method, path, none.status, none.body?.error]).toEqual([method, path, 401, "UNAUTHORIZED"]);
      const bad = await s.t.call(method, path, { json, bearer: "mcp_notarealtoken0123456789" });
      expect([method, path, bad.status]).toEqual([method, path, 401]);
      const badCookie = await s.t.call(method, path, { json, cookie: "connect.sid=forged.value" });
      expect([method, path, badCookie.status]).toEqual([method, path, 401]);
    }
    // nothing was changed by the refused calls
    expect((await s.t.call("GET", `/api/projects/${id}`, { cookie: s.owner })).body.name).toBe("Project");
  });

  test("a Bearer PAT works like the session", async () => {
    s = await team();
    const pat = patFor(s.t, OWNER);
    const created = await s.t.call("POST", "/api/projects", { bearer: pat, json: { name: "Via PAT" } });
    expect(created.status).toBe(201);
    expect(created.body.ownerId).toBe(OWNER);
    const list = await s.t.call("GET", "/api/projects/list", { cookie: s.owner });
    expect(list.body.map((p: any) => p.name)).toEqual(["Via PAT"]);
  });
});

describe("create", () => {
  test("201 full Project; owner from the session, body ownerId ignored; default data", async () => {
    s = await team();
    const r = await s.t.call("POST", "/api/projects", { cookie: s.owner, json: { name: "  Shop bot ", ownerId: 42, description: "d" } });
    expect(r.status).toBe(201);
    expect(Object.keys(r.body).sort()).toEqual(FULL_KEYS);
    expect(r.body).toMatchObject({
      ownerId: OWNER,
      name: "Shop bot",
      description: "d",
      data: { sheets: [{ id: "sheet-1", name: "Main", nodes: [], edges: [] }] },
      botToken: null,
      sessionId: null,
      userDatabaseEnabled: 1,
      adminIds: null,
      isArchivedForMe: false,
    });
    expect(r.body.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  test("given data is stored as given; the legacy flat form becomes one sheet", async () => {
    s = await team();
    const doc = { version: 2, activeSheetId: "a", sheets: [{ id: "a", name: "A", nodes: [{ id: "n1", type: "start", position: { x: 0, y: 0 }, data: { custom: 1 } }], connections: [] }], extra: { keep: true } };
    const a = await s.t.call("POST", "/api/projects", { cookie: s.owner, json: { name: "A", data: doc, userDatabaseEnabled: 0, sortOrder: 7 } });
    expect(a.status).toBe(201);
    expect(a.body.data).toEqual(doc);
    expect(a.body.userDatabaseEnabled).toBe(0);
    expect(a.body.sortOrder).toBe(7);

    const flat = { nodes: [{ id: "x", type: "message", data: {} }], connections: [{ id: "e", source: "x", target: "x" }] };
    const b = await s.t.call("POST", "/api/projects", { cookie: s.owner, json: { name: "B", data: flat } });
    expect(b.status).toBe(201);
    expect(b.body.data).toEqual({ sheets: [{ id: "sheet-1", name: "Main", nodes: flat.nodes, connections: flat.connections }] });
  });

  test("400 for invalid bodies, and nothing is created", async () => {
    s = await team();
    const bad: unknown[] = [
      {},
      { name: "" },
      { name: "   " },
      { name: 5 },
      { name: "x".repeat(201) },
      { name: "x", description: 3 },
      { name: "x", userDatabaseEnabled: 2 },
      { name: "x", sortOrder: 1.5 },
      { name: "x", sortOrder: 1e12 },
      { name: "x", description: "d".repeat(5001) },
      { name: "x", data: "text" },
      { name: "x", data: [] },
      { name: "x", data: 12 },
      { name: "x", data: { sheets: {} } },
      { name: "x", data: { other: 1 } },
      { name: "x", data: { sheets: [5] } },
      { name: "x", data: { sheets: [{ id: "s", nodes: {} }] } },
      { name: "x", data: { sheets: [{ id: "s", nodes: [{ type: "message" }] }] } },
      { name: "x", data: { sheets: [{ id: "s", nodes: [{ id: "a" }] }] } },
      { name: "x", data: { sheets: [{ id: "s", nodes: [{ id: "a", type: "m" }] }, { id: "t", nodes: [{ id: "a", type: "m" }] }] } },
      [],
      "name",
    ];
    for (const json of bad) {
      const r = await s.t.call("POST", "/api/projects", { cookie: s.owner, json });
      expect([JSON.stringify(json).slice(0, 80), r.status, r.body?.error]).toEqual([JSON.stringify(json).slice(0, 80), 400, "VALIDATION_FAILED"]);
    }
    const malformed = await s.t.call("POST", "/api/projects", { cookie: s.owner, body: "{name:", headers: { "content-type": "application/json" } });
    expect(malformed.status).toBe(400);
    const dup = await s.t.call("POST", "/api/projects", { cookie: s.owner, json: { name: "x", data: { sheets: [{ id: "s", nodes: [{ id: "a", type: "m" }, { id: "a", type: "m" }] }] } } });
    expect(dup.body.message).toContain('Duplicate node id "a"');
    expect(dup.body.issues[0].message).toContain('Duplicate node id "a"');
    expect((await s.t.call("GET", "/api/projects/list", { cookie: s.owner })).body).toEqual([]);
  });

  test("new projects go to the end of the creator's list", async () => {
    s = await team();
    await newProject(s.t, s.owner, { name: "first" });
    await newProject(s.t, s.owner, { name: "second" });
    await newProject(s.t, s.owner, { name: "third" });
    const list = (await s.t.call("GET", "/api/projects/list", { cookie: s.owner })).body;
    expect(list.map((p: any) => [p.name, p.sortOrder])).toEqual([["first", 0], ["second", 1], ["third", 2]]);
  });
});

describe("read", () => {
  test("GET /{id}: owner and collaborator 200, stranger and missing 404, bad id 400", async () => {
    s = await team();
    const id = await newProject(s.t, s.owner);
    addCollaborator(s.t, id, COLLAB);
    expect((await s.t.call("GET", `/api/projects/${id}`, { cookie: s.owner })).status).toBe(200);
    const c = await s.t.call("GET", `/api/projects/${id}`, { cookie: s.collab });
    expect(c.status).toBe(200);
    expect(c.body.ownerId).toBe(OWNER);
    const st = await s.t.call("GET", `/api/projects/${id}`, { cookie: s.stranger });
    expect([st.status, st.body.error]).toEqual([404, "NOT_FOUND"]);
    expect((await s.t.call("GET", "/api/projects/9999", { cookie: s.owner })).status).toBe(404);
    for (const bad of ["abc", "0", "-1", "1.5", "99999999999999999999", "1e3"]) {
      const r = await s.t.call("GET", `/api/projects/${bad}`, { cookie: s.owner });
      expect([bad, r.status, r.body.error]).toEqual([bad, 400, "VALIDATION_FAILED"]);
    }
  });

  test("lists: own and collaborated projects; list items are safe and count nodes over all sheets", async () => {
    s = await team();
    const mine = await newProject(s.t, s.owner, { name: "mine", data: scenario([3, 2, 0]) });
    const shared = await newProject(s.t, s.stranger, { name: "shared" });
    await newProject(s.t, s.stranger, { name: "not mine" });
    addCollaborator(s.t, shared, OWNER, STRANGER);
    // a legacy value in the secret-ish columns must never reach list items
    s.t.ctx.db.update(projects).set({ botToken: "123456:SECRET", sessionId: "sess" }).run();

    const list = await s.t.call("GET", "/api/projects/list", { cookie: s.owner });
    expect(list.status).toBe(200);
    expect(list.body.map((p: any) => p.name).sort()).toEqual(["mine", "shared"]);
    for (const item of list.body) expect(Object.keys(item).sort()).toEqual(ITEM_KEYS);
    expect(list.text).not.toContain("SECRET");
    const m = list.body.find((p: any) => p.id === mine);
    expect([m.nodeCount, m.sheetsCount]).toEqual([5, 3]);

    const full = await s.t.call("GET", "/api/projects", { cookie: s.owner });
    expect(full.status).toBe(200);
    expect(full.body.map((p: any) => p.name).sort()).toEqual(["mine", "shared"]);
    for (const p of full.body) expect(Object.keys(p).sort()).toEqual(FULL_KEYS);
    expect(full.body.find((p: any) => p.id === mine).data.sheets).toHaveLength(3);

    expect((await s.t.call("GET", "/api/projects/list?archived=maybe", { cookie: s.owner })).status).toBe(400);
  });

  test("archive is per user: the collaborator's view and the owner's view are independent", async () => {
    s = await team();
    const a = await newProject(s.t, s.owner, { name: "a" });
    const b = await newProject(s.t, s.owner, { name: "b" });
    addCollaborator(s.t, a, COLLAB);
    addCollaborator(s.t, b, COLLAB);

    const r = await s.t.call("POST", `/api/projects/${a}/archive`, { cookie: s.collab });
    expect([r.status, r.body]).toEqual([200, { success: true }]);
    const names = async (cookie: string, archived?: string) =>
      (await s.t.call("GET", `/api/projects/list${archived ? `?archived=${archived}` : ""}`, { cookie })).body.map((p: any) => `${p.name}:${p.isArchivedForMe}`);
    expect(await names(s.collab)).toEqual(["b:false"]);
    expect(await names(s.collab, "true")).toEqual(["a:true"]);
    expect(await names(s.owner)).toEqual(["a:false", "b:false"]);
    expect(await names(s.owner, "true")).toEqual([]);
    expect((await s.t.call("GET", `/api/projects/${a}`, { cookie: s.collab })).body.isArchivedForMe).toBe(true);
    expect((await s.t.call("GET", `/api/projects/${a}`, { cookie: s.owner })).body.isArchivedForMe).toBe(false);
    const full = (await s.t.call("GET", "/api/projects?archived=true", { cookie: s.collab })).body;
    expect(full.map((p: any) => p.id)).toEqual([a]);

    // archiving twice is fine; unarchive brings it back
    expect((await s.t.call("POST", `/api/projects/${a}/archive`, { cookie: s.collab })).status).toBe(200);
    expect((await s.t.call("POST", `/api/projects/${a}/unarchive`, { cookie: s.collab })).body).toEqual({ success: true });
    expect(await names(s.collab)).toEqual(["a:false", "b:false"]);
    expect((await s.t.call("POST", `/api/projects/${a}/unarchive`, { cookie: s.collab })).status).toBe(200);
  });

  test("archive/unarchive: 403 stranger, 404 missing, 400 bad id", async () => {
    s = await team();
    const a = await newProject(s.t, s.owner);
    for (const action of ["archive", "unarchive"]) {
      expect((await s.t.call("POST", `/api/projects/${a}/${action}`, { cookie: s.stranger })).status).toBe(403);
      expect((await s.t.call("POST", `/api/projects/777/${action}`, { cookie: s.owner })).status).toBe(404);
      expect((await s.t.call("POST", `/api/projects/x/${action}`, { cookie: s.owner })).status).toBe(400);
    }
    expect((await s.t.call("GET", "/api/projects/list?archived=true", { cookie: s.stranger })).body).toEqual([]);
  });
});

describe("API docs", () => {
  test("the projects request schemas are representable in the OpenAPI document", async () => {
    s = await team();
    const r = await s.t.call("GET", "/api/openapi.json");
    expect(r.status).toBe(200);
    expect(r.body.paths["/api/projects/{id}"].put.requestBody.content["application/json"].schema.properties).toHaveProperty("restartOnUpdate");
    expect(r.body.paths["/api/projects/reorder"].put.requestBody).toBeDefined();
  });
});
