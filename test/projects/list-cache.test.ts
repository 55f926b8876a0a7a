// The project lists are cached per user until the database's change stamp moves. Every kind of
// change — through the API, through the bot API, straight into the database, and from ANOTHER
// connection (a second process) — shows in the very next list.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { OWNER, COLLAB, addCollaborator, newProject, team, type Team } from "./helpers";
import { createTestApp, loginAs, patFor, setUp } from "../support/app";

let s: Team;
beforeAll(async () => {
  s = await team({ env: {} });
});
afterAll(() => s.t.cleanup());

const list = async (cookie: string, archived = false) => (await s.t.call("GET", `/api/projects/list${archived ? "?archived=true" : ""}`, { cookie })).body as { id: number; name: string; nodeCount: number; sortOrder: number }[];

describe("list cache", () => {
  test("every change shows in the next list, for the right user", async () => {
    const a = await newProject(s.t, s.owner, { name: "A" });
    expect((await list(s.owner)).map((p) => p.name)).toEqual(["A"]);
    const again = await s.t.call("GET", "/api/projects/list", { cookie: s.owner });
    expect(again.headers.get("content-type")).toBe("application/json;charset=utf-8");

    await s.t.call("PUT", `/api/projects/${a}`, { cookie: s.owner, json: { name: "A2", data: { sheets: [{ id: "s", name: "S", nodes: [{ id: "n", type: "message", data: {} }], edges: [] }] } } });
    expect((await list(s.owner))[0]).toMatchObject({ name: "A2", nodeCount: 1 });

    const b = await newProject(s.t, s.owner, { name: "B" });
    await s.t.call("PUT", "/api/projects/reorder", { cookie: s.owner, json: { projectIds: [b, a] } });
    expect((await list(s.owner)).map((p) => p.id)).toEqual([b, a]);

    await s.t.call("POST", `/api/projects/${b}/archive`, { cookie: s.owner });
    expect((await list(s.owner)).map((p) => p.id)).toEqual([a]);
    expect((await list(s.owner, true)).map((p) => p.id)).toEqual([b]);

    // The collaborator's own list, before and after he is added.
    expect(await list(s.collab)).toEqual([]);
    addCollaborator(s.t, a, COLLAB);
    expect((await list(s.collab)).map((p) => p.id)).toEqual([a]);

    // The bot API's list, through a bot_manager PAT, after a rename there.
    const pat = patFor(s.t, 9090, ["bot_manager"]);
    const botList = async () => (await s.t.call("GET", `/api/bot/projects?messenger_id=${OWNER}`, { bearer: pat })).body;
    expect((await botList()).items.map((p: { name: string }) => p.name)).toEqual(["A2"]);
    await s.t.call("PATCH", `/api/bot/projects/${a}?messenger_id=${OWNER}`, { bearer: pat, json: { name: "A3" } });
    expect((await botList()).items.map((p: { name: string }) => p.name)).toEqual(["A3"]);
    expect((await list(s.owner))[0]!.name).toBe("A3");

    await s.t.call("DELETE", `/api/projects/${a}`, { cookie: s.owner });
    expect(await list(s.owner)).toEqual([]);
    expect(await list(s.collab)).toEqual([]);
  });

  test("a write by another connection to the same database file shows too", async () => {
    // A file database: a second connection stands for another process writing it.
    const t = createTestApp({ fileDb: true });
    try {
      await setUp(t);
      const cookie = await loginAs(t, OWNER);
      const id = await newProject(t, cookie, { name: "Shared" });
      expect((await t.call("GET", "/api/projects/list", { cookie })).body[0].name).toBe("Shared");
      const other = new Database(t.ctx.config.databasePath);
      other.run("UPDATE projects SET name = 'Renamed elsewhere' WHERE id = ?", [id]);
      other.close();
      expect((await t.call("GET", "/api/projects/list", { cookie })).body[0].name).toBe("Renamed elsewhere");
    } finally {
      t.cleanup();
    }
  });
});
