import { afterEach, describe, expect, test } from "bun:test";
import { addCollaborator, COLLAB, newProject, scenario, team, type Team } from "./helpers";

let s: Team;
afterEach(() => s?.t.cleanup());

describe("PUT /api/projects/{id} optimistic concurrency", () => {
  test("baseUpdatedAt matching saves; a stale one answers 409 with the current record and changes nothing", async () => {
    s = await team();
    const id = await newProject(s.t, s.owner);
    addCollaborator(s.t, id, COLLAB);
    const read = (await s.t.call("GET", `/api/projects/${id}`, { cookie: s.owner })).body;

    const first = await s.t.call("PUT", `/api/projects/${id}`, { cookie: s.collab, json: { data: scenario([2]), baseUpdatedAt: read.updatedAt } });
    expect(first.status).toBe(200);
    expect(first.body.updatedAt).not.toBe(read.updatedAt);

    // the owner still holds the old copy
    const stale = await s.t.call("PUT", `/api/projects/${id}`, { cookie: s.owner, json: { data: scenario([5]), name: "Mine", baseUpdatedAt: read.updatedAt } });
    expect(stale.status).toBe(409);
    expect(stale.body.error).toBe("CONFLICT");
    expect(typeof stale.body.message).toBe("string");
    expect(stale.body.current).toMatchObject({ id, updatedAt: first.body.updatedAt, data: scenario([2]) });
    expect(stale.body.current.name).not.toBe("Mine");
    const after = (await s.t.call("GET", `/api/projects/${id}`, { cookie: s.owner })).body;
    expect(after.data).toEqual(scenario([2]));
    expect(after.updatedAt).toBe(first.body.updatedAt);

    // keeping theirs means saving again on the current record
    const keep = await s.t.call("PUT", `/api/projects/${id}`, { cookie: s.owner, json: { data: scenario([5]), baseUpdatedAt: stale.body.current.updatedAt } });
    expect(keep.status).toBe(200);
    expect(keep.body.data).toEqual(scenario([5]));
  });

  test("If-Match header works like baseUpdatedAt (quoted, weak, *); the body field wins", async () => {
    s = await team();
    const id = await newProject(s.t, s.owner);
    const v0 = (await s.t.call("GET", `/api/projects/${id}`, { cookie: s.owner })).body.updatedAt;
    const ok = await s.t.call("PUT", `/api/projects/${id}`, { cookie: s.owner, json: { name: "A" }, headers: { "if-match": `"${v0}"` } });
    expect(ok.status).toBe(200);
    const v1 = ok.body.updatedAt;
    expect((await s.t.call("PUT", `/api/projects/${id}`, { cookie: s.owner, json: { name: "B" }, headers: { "if-match": `"${v0}"` } })).status).toBe(409);
    expect((await s.t.call("PUT", `/api/projects/${id}`, { cookie: s.owner, json: { name: "B" }, headers: { "if-match": `W/"${v0}"` } })).status).toBe(409);
    // the body's baseUpdatedAt is the one that counts
    expect((await s.t.call("PUT", `/api/projects/${id}`, { cookie: s.owner, json: { name: "B", baseUpdatedAt: v1 }, headers: { "if-match": `"${v0}"` } })).status).toBe(200);
    expect((await s.t.call("PUT", `/api/projects/${id}`, { cookie: s.owner, json: { name: "C" }, headers: { "if-match": "*" } })).status).toBe(200);
  });

  test("without the field the last write wins (existing clients); wrong types are 400; strangers still 403", async () => {
    s = await team();
    const id = await newProject(s.t, s.owner);
    expect((await s.t.call("PUT", `/api/projects/${id}`, { cookie: s.owner, json: { name: "X" } })).status).toBe(200);
    expect((await s.t.call("PUT", `/api/projects/${id}`, { cookie: s.owner, json: { name: "Y" } })).status).toBe(200);
    expect((await s.t.call("PUT", `/api/projects/${id}`, { cookie: s.owner, json: { baseUpdatedAt: 5 } })).status).toBe(400);
    expect((await s.t.call("PUT", `/api/projects/${id}`, { cookie: s.owner, json: { baseUpdatedAt: "x".repeat(101) } })).status).toBe(400);
    // a stranger learns nothing from a conflict: access is checked first
    const r = await s.t.call("PUT", `/api/projects/${id}`, { cookie: s.stranger, json: { name: "Z", baseUpdatedAt: "1999" } });
    expect(r.status).toBe(403);
    expect(r.body.current).toBeUndefined();
  });
});
