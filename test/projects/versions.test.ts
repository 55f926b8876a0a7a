// Versions a person can find their way in (docs/editor.md "Versions"): autosaves share one version
// per author and window, a save with a message is always a named version (also right after an
// autosave stored the same data), named versions and "Project created" outlive the autosaves, and
// each version says who saved it by name.
import { afterEach, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { projectVersions } from "../../src/db/schema";
import { AUTOSAVE_WINDOW_MS, KEEP_NAMED_VERSIONS, KEEP_VERSIONS } from "../../src/modules/projects/versions";
import { addCollaborator, COLLAB, newProject, OWNER, scenario, team, type Team } from "./helpers";

let s: Team;
afterEach(() => s?.t.cleanup());

const list = async (id: number) => (await s.t.call("GET", `/api/projects/${id}/versions?limit=200`, { cookie: s.owner })).body as { id: number; commitMessage: string | null; authorId: number; authorName: string | null; nodesCount: number }[];
const put = (id: number, cookie: string, json: Record<string, unknown>) => s.t.call("PUT", `/api/projects/${id}`, { cookie, json });
/** moves a version's start back in time, as if it had been taken that long ago */
const age = (versionId: number, ms: number) =>
  s.t.ctx.db.update(projectVersions).set({ createdAt: new Date(Date.now() - ms).toISOString() }).where(eq(projectVersions.id, versionId)).run();

describe("autosaves", () => {
  test("a person's saves without a message share one version per window; the newest data is in it", async () => {
    s = await team();
    const id = await newProject(s.t, s.owner);
    for (const n of [1, 2, 3]) expect((await put(id, s.owner, { data: scenario([n]) })).status).toBe(200);
    const after = await list(id);
    expect(after.map((v) => v.commitMessage)).toEqual([null, "Project created"]);
    expect(after[0]).toMatchObject({ authorId: OWNER, nodesCount: 3 });
    const got = await s.t.call("GET", `/api/projects/${id}/versions/${after[0]!.id}`, { cookie: s.owner });
    expect(got.body.data).toEqual(scenario([3]));
  });

  test("another author, a named save in between, or the window's end start a new autosave version", async () => {
    s = await team();
    const id = await newProject(s.t, s.owner);
    addCollaborator(s.t, id, COLLAB);
    await put(id, s.owner, { data: scenario([1]) });
    await put(id, s.collab, { data: scenario([2]) });
    await put(id, s.owner, { data: scenario([3]) });
    expect((await list(id)).map((v) => v.authorId)).toEqual([OWNER, COLLAB, OWNER, OWNER]);

    await put(id, s.owner, { data: scenario([4]), commitMessage: "checkpoint" });
    await put(id, s.owner, { data: scenario([5]) });
    expect((await list(id)).map((v) => v.commitMessage)).toEqual([null, "checkpoint", null, null, null, "Project created"]);

    age((await list(id))[0]!.id, AUTOSAVE_WINDOW_MS + 60_000);
    await put(id, s.owner, { data: scenario([6]) });
    const now = await list(id);
    expect(now).toHaveLength(7);
    expect(now.slice(0, 2).map((v) => v.nodesCount)).toEqual([6, 5]);
  });

  test("an agent's saves are never merged", async () => {
    s = await team();
    const id = await newProject(s.t, s.owner);
    for (const n of [1, 2]) await put(id, s.owner, { data: scenario([n]), agentEdit: true, agentDisplayName: "Helper" });
    expect(await list(id)).toHaveLength(3);
  });
});

describe("named versions", () => {
  test("saving with a message after an autosave names that version (same data: no copy)", async () => {
    s = await team();
    const id = await newProject(s.t, s.owner);
    await put(id, s.owner, { data: scenario([2]) });
    const r = await put(id, s.owner, { data: scenario([2]), commitMessage: "  first draft " });
    expect(r.status).toBe(200);
    const after = await list(id);
    expect(after.map((v) => v.commitMessage)).toEqual(["first draft", "Project created"]);
    // the same words on the same data again: nothing new
    await put(id, s.owner, { data: scenario([2]), commitMessage: "first draft" });
    expect(await list(id)).toHaveLength(2);
    // a second message on the same data is a version of its own: a name is never overwritten
    await put(id, s.owner, { data: scenario([2]), commitMessage: "same, again" });
    expect((await list(id)).map((v) => v.commitMessage)).toEqual(["same, again", "first draft", "Project created"]);
    // and an autosave after it starts a new version instead of taking the named one over
    await put(id, s.owner, { data: scenario([3]) });
    expect((await list(id)).map((v) => v.commitMessage)).toEqual([null, "same, again", "first draft", "Project created"]);
  });

  test("a message on data someone else autosaved is a new version, not a rename of theirs", async () => {
    s = await team();
    const id = await newProject(s.t, s.owner);
    addCollaborator(s.t, id, COLLAB);
    await put(id, s.collab, { data: scenario([2]) });
    await put(id, s.owner, { data: scenario([2]), commitMessage: "reviewed" });
    const after = await list(id);
    expect(after.map((v) => [v.commitMessage, v.authorId])).toEqual([["reviewed", OWNER], [null, COLLAB], ["Project created", OWNER]]);
  });

  test("no data and no message: still no version", async () => {
    s = await team();
    const id = await newProject(s.t, s.owner, { data: scenario([1]) });
    await put(id, s.owner, { data: scenario([1]) });
    await put(id, s.owner, { data: scenario([1]), commitMessage: "   " });
    expect(await list(id)).toHaveLength(1);
  });
});

describe("what is kept", () => {
  test(`unnamed versions beyond the newest ${KEEP_VERSIONS} go; named ones and "Project created" stay`, async () => {
    s = await team();
    const id = await newProject(s.t, s.owner);
    for (let i = 1; i <= 3; i++) s.t.ctx.projects.update(id, OWNER, { data: scenario([i]), commitMessage: `named ${i}` });
    for (let i = 1; i <= KEEP_VERSIONS + 10; i++) s.t.ctx.projects.update(id, OWNER, { data: scenario([i % 7, 1]), agentEdit: true });
    const all = await list(id);
    expect(all).toHaveLength(KEEP_VERSIONS + 4);
    expect(all.slice(-4).map((v) => v.commitMessage)).toEqual(["named 3", "named 2", "named 1", "Project created"]);
  });

  test(`named versions beyond the newest ${KEEP_NAMED_VERSIONS} go, but never the first`, async () => {
    s = await team();
    const id = await newProject(s.t, s.owner);
    for (let i = 1; i <= KEEP_NAMED_VERSIONS + 5; i++) s.t.ctx.projects.update(id, OWNER, { data: scenario([i % 5, i % 3]), commitMessage: `v${i}` });
    const all = (await s.t.call("GET", `/api/projects/${id}/versions?limit=1000`, { cookie: s.owner })).body as { commitMessage: string }[];
    expect(all).toHaveLength(KEEP_NAMED_VERSIONS + 1);
    expect(all[0]!.commitMessage).toBe(`v${KEEP_NAMED_VERSIONS + 5}`);
    expect(all.at(-2)!.commitMessage).toBe("v6");
    expect(all.at(-1)!.commitMessage).toBe("Project created");
  });
});

describe("authors", () => {
  test("a version names its author (first and last name; @username when no name is known)", async () => {
    s = await team();
    const id = await newProject(s.t, s.owner);
    addCollaborator(s.t, id, COLLAB);
    await put(id, s.collab, { data: scenario([1]) });
    const [mine, created] = await list(id);
    expect(mine!.authorName).toBe("Carl");
    expect(created!.authorName).toBe("Olga Owner");
  });
});
