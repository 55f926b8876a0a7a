import { afterEach, describe, expect, test } from "bun:test";
import type { EventMap } from "../../src/events";
import { projects } from "../../src/db/schema";
import { addCollaborator, COLLAB, newProject, OWNER, scenario, team, type Team } from "./helpers";

let s: Team;
afterEach(() => s?.t.cleanup());

function record(s: Team) {
  const tableUpdated: EventMap["bot:table_updated"][] = [];
  const changed: EventMap["projects-changed"][] = [];
  s.t.ctx.events.on("bot:table_updated", (e) => tableUpdated.push(e));
  s.t.ctx.events.on("projects-changed", (e) => changed.push(e));
  return { tableUpdated, changed };
}

const stored = (s: Team, id: number) => s.t.ctx.db.select().from(projects).all().find((p) => p.id === id)!;

describe("PUT /api/projects/{id}", () => {
  test("partial update of each updatable field; others stay", async () => {
    s = await team();
    const id = await newProject(s.t, s.owner, { name: "Old", description: "keep" });
    const before = (await s.t.call("GET", `/api/projects/${id}`, { cookie: s.owner })).body;
    const r = await s.t.call("PUT", `/api/projects/${id}`, { cookie: s.owner, json: { name: "New" } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ id, name: "New", description: "keep", ownerId: OWNER, data: before.data });
    expect(r.body.updatedAt >= before.updatedAt).toBe(true);

    const all = await s.t.call("PUT", `/api/projects/${id}`, {
      cookie: s.owner,
      json: { description: "", userDatabaseEnabled: 0, sortOrder: 9, adminIds: " 5, 6,5 " },
    });
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ name: "New", description: "", userDatabaseEnabled: 0, sortOrder: 9, adminIds: "5,6" });
    const flag = await s.t.call("PUT", `/api/projects/${id}`, { cookie: s.owner, json: { userDatabaseEnabled: true, adminIds: null } });
    expect(flag.body).toMatchObject({ userDatabaseEnabled: 1, adminIds: null });
    // empty body: nothing changes, still 200
    expect((await s.t.call("PUT", `/api/projects/${id}`, { cookie: s.owner, json: {} })).status).toBe(200);
  });

  test("data change: cached counts, a version with the metadata, bot:table_updated with restartOnUpdate", async () => {
    s = await team();
    const id = await newProject(s.t, s.owner);
    const ev = record(s);
    const r = await s.t.call("PUT", `/api/projects/${id}`, {
      cookie: s.owner,
      json: { data: scenario([4, 1]), commitMessage: "add nodes", agentEdit: true, agentSessionId: "sess-1", agentDisplayName: "Helper", restartOnUpdate: true },
    });
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual(scenario([4, 1]));
    expect([stored(s, id).nodeCount, stored(s, id).sheetsCount]).toEqual([5, 2]);
    const list = (await s.t.call("GET", "/api/projects/list", { cookie: s.owner })).body;
    expect([list[0].nodeCount, list[0].sheetsCount]).toEqual([5, 2]);
    expect(ev.tableUpdated).toEqual([{ projectId: id, restartOnUpdate: true }]);
    expect(ev.changed).toEqual([{ kind: "updated", projectId: id, recipients: [OWNER] }]);

    const versions = (await s.t.call("GET", `/api/projects/${id}/versions`, { cookie: s.owner })).body;
    expect(versions[0]).toMatchObject({ commitMessage: "add nodes", authorId: OWNER, agentEdit: 1, agentDisplayName: "Helper", nodesCount: 5 });
    const full = (await s.t.call("GET", `/api/projects/${id}/versions/${versions[0].id}`, { cookie: s.owner })).body;
    expect(full.data).toEqual(scenario([4, 1]));

    // the legacy flat form is normalised on PUT too; restartOnUpdate defaults to false
    await s.t.call("PUT", `/api/projects/${id}`, { cookie: s.owner, json: { data: { nodes: [{ id: "a", type: "start" }], connections: [] } } });
    expect(ev.tableUpdated[1]).toEqual({ projectId: id, restartOnUpdate: false });
    expect([stored(s, id).nodeCount, stored(s, id).sheetsCount]).toEqual([1, 1]);
  });

  test("no data change → no version and no bot:table_updated; same data again → none either", async () => {
    s = await team();
    const id = await newProject(s.t, s.owner, { data: scenario([2]) });
    const ev = record(s);
    const count = async () => (await s.t.call("GET", `/api/projects/${id}/versions`, { cookie: s.owner })).body.length;
    const v0 = await count();
    await s.t.call("PUT", `/api/projects/${id}`, { cookie: s.owner, json: { name: "renamed" } });
    await s.t.call("PUT", `/api/projects/${id}`, { cookie: s.owner, json: { data: scenario([2]) } });
    expect(await count()).toBe(v0);
    expect(ev.tableUpdated).toEqual([]);
    expect(ev.changed.map((e) => e.kind)).toEqual(["updated"]);
  });

  test("updated event goes to every team member", async () => {
    s = await team();
    const id = await newProject(s.t, s.owner);
    addCollaborator(s.t, id, COLLAB);
    const ev = record(s);
    expect((await s.t.call("PUT", `/api/projects/${id}`, { cookie: s.collab, json: { data: scenario([1]) } })).status).toBe(200);
    expect(ev.changed).toEqual([{ kind: "updated", projectId: id, recipients: [OWNER, COLLAB] }]);
    const v = (await s.t.call("GET", `/api/projects/${id}/versions`, { cookie: s.owner })).body[0];
    expect(v.authorId).toBe(COLLAB);
  });

  test("400 invalid id or body (unknown fields, wrong types, bad data), 403 stranger, 404 missing", async () => {
    s = await team();
    const id = await newProject(s.t, s.owner, { name: "Keep" });
    const bad: unknown[] = [
      { unknown: 1 },
      { name: "" },
      { name: 3 },
      { userDatabaseEnabled: 5 },
      { sortOrder: "1" },
      { adminIds: "1,abc" },
      { adminIds: 7 },
      { data: "x" },
      { data: { sheets: "no" } },
      { data: null },
      { agentEdit: "yes" },
      { restartOnUpdate: 2 },
      [],
    ];
    for (const json of bad) {
      const r = await s.t.call("PUT", `/api/projects/${id}`, { cookie: s.owner, json });
      expect([JSON.stringify(json), r.status, r.body.error]).toEqual([JSON.stringify(json), 400, "VALIDATION_FAILED"]);
    }
    expect((await s.t.call("PUT", `/api/projects/${id}`, { cookie: s.owner, body: "{", headers: { "content-type": "application/json" } })).status).toBe(400);
    expect((await s.t.call("PUT", "/api/projects/abc", { cookie: s.owner, json: { name: "x" } })).status).toBe(400);
    const st = await s.t.call("PUT", `/api/projects/${id}`, { cookie: s.stranger, json: { name: "Hacked" } });
    expect([st.status, st.body.error]).toEqual([403, "FORBIDDEN"]);
    expect((await s.t.call("PUT", "/api/projects/4242", { cookie: s.owner, json: { name: "x" } })).status).toBe(404);
    expect((await s.t.call("GET", `/api/projects/${id}`, { cookie: s.owner })).body.name).toBe("Keep");
  });

  test("sortOrder is the caller's own position", async () => {
    s = await team();
    const a = await newProject(s.t, s.owner, { name: "a" });
    const b = await newProject(s.t, s.owner, { name: "b" });
    addCollaborator(s.t, a, COLLAB);
    addCollaborator(s.t, b, COLLAB);
    await s.t.call("PUT", `/api/projects/${a}`, { cookie: s.collab, json: { sortOrder: 100 } });
    const order = async (cookie: string) => (await s.t.call("GET", "/api/projects/list", { cookie })).body.map((p: any) => p.name);
    expect(await order(s.collab)).toEqual(["b", "a"]);
    expect(await order(s.owner)).toEqual(["a", "b"]);
  });
});

describe("versions", () => {
  test("list newest first with limit (default 50, max 200), get with data, 404 foreign version", async () => {
    s = await team();
    const id = await newProject(s.t, s.owner);
    const other = await newProject(s.t, s.owner);
    for (let i = 1; i <= 3; i++) await s.t.call("PUT", `/api/projects/${id}`, { cookie: s.owner, json: { data: scenario([i]), commitMessage: `v${i}` } });
    const list = await s.t.call("GET", `/api/projects/${id}/versions`, { cookie: s.owner });
    expect(list.status).toBe(200);
    expect(list.body.map((v: any) => v.commitMessage)).toEqual(["v3", "v2", "v1", "Project created"]);
    expect(Object.keys(list.body[0]).sort()).toEqual(["agentDisplayName", "agentEdit", "authorId", "authorName", "commitMessage", "createdAt", "id", "nodesCount"]);
    expect((await s.t.call("GET", `/api/projects/${id}/versions?limit=2`, { cookie: s.owner })).body).toHaveLength(2);
    expect((await s.t.call("GET", `/api/projects/${id}/versions?limit=100000`, { cookie: s.owner })).status).toBe(200);
    for (const bad of ["0", "-1", "abc"]) expect((await s.t.call("GET", `/api/projects/${id}/versions?limit=${bad}`, { cookie: s.owner })).status).toBe(400);

    const v1 = list.body[2];
    const got = await s.t.call("GET", `/api/projects/${id}/versions/${v1.id}`, { cookie: s.owner });
    expect(got.body).toMatchObject({ id: v1.id, commitMessage: "v1", nodesCount: 1, data: scenario([1]) });
    expect((await s.t.call("GET", `/api/projects/${other}/versions/${v1.id}`, { cookie: s.owner })).status).toBe(404);
    expect((await s.t.call("GET", `/api/projects/${id}/versions/x`, { cookie: s.owner })).status).toBe(400);
    expect((await s.t.call("GET", `/api/projects/${id}/versions`, { cookie: s.stranger })).status).toBe(403);
    expect((await s.t.call("GET", `/api/projects/${id}/versions/${v1.id}`, { cookie: s.stranger })).status).toBe(403);
    expect((await s.t.call("GET", "/api/projects/999/versions", { cookie: s.owner })).status).toBe(404);
  });

  test("restore writes the old data back as a new version, with the data-change side effects", async () => {
    s = await team();
    const id = await newProject(s.t, s.owner, { data: scenario([1]) });
    addCollaborator(s.t, id, COLLAB);
    await s.t.call("PUT", `/api/projects/${id}`, { cookie: s.owner, json: { data: scenario([3]) } });
    const [, first] = (await s.t.call("GET", `/api/projects/${id}/versions`, { cookie: s.owner })).body;
    const ev = record(s);
    const r = await s.t.call("POST", `/api/projects/${id}/versions/${first.id}/restore`, { cookie: s.collab });
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual(scenario([1]));
    expect(stored(s, id).nodeCount).toBe(1);
    const list = (await s.t.call("GET", `/api/projects/${id}/versions`, { cookie: s.owner })).body;
    expect(list).toHaveLength(3);
    expect(list[0]).toMatchObject({ commitMessage: `Restored version ${first.id}`, authorId: COLLAB, nodesCount: 1 });
    expect(ev.tableUpdated).toEqual([{ projectId: id, restartOnUpdate: false }]);
    expect(ev.changed).toEqual([{ kind: "updated", projectId: id, recipients: [OWNER, COLLAB] }]);

    expect((await s.t.call("POST", `/api/projects/${id}/versions/${first.id}/restore`, { cookie: s.stranger })).status).toBe(403);
    expect((await s.t.call("POST", `/api/projects/${id}/versions/99999/restore`, { cookie: s.owner })).status).toBe(404);
    expect((await s.t.call("POST", `/api/projects/${id}/versions/abc/restore`, { cookie: s.owner })).status).toBe(400);
  });
});
