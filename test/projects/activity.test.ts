import { afterEach, describe, expect, test } from "bun:test";
import { botLaunches, botLogs } from "../../src/db/schema";
import { addCollaborator, COLLAB, newProject, team, type Team } from "./helpers";

let s: Team;
afterEach(() => s?.t.cleanup());

const iso = (i: number) => new Date(Date.UTC(2024, 0, 1, 0, 0, i)).toISOString();

describe("launch history (rule 8)", () => {
  test("≤ 100 entries over all tokens, newest startedAt first, errorMessage cut to 100 chars", async () => {
    s = await team();
    const id = await newProject(s.t, s.owner);
    const other = await newProject(s.t, s.owner);
    addCollaborator(s.t, id, COLLAB);
    const db = s.t.ctx.db;
    // inserted out of order on purpose: ordering is by startedAt, not by insert
    for (let i = 0; i < 120; i++) {
      const at = (i * 37) % 120;
      db.insert(botLaunches).values({ projectId: id, tokenId: (i % 3) + 1, status: i % 2 ? "stopped" : "error", startedAt: iso(at), stoppedAt: iso(at + 1), errorMessage: i % 2 ? null : `${"é".repeat(120)}${at}` }).run();
    }
    db.insert(botLaunches).values({ projectId: other, tokenId: 9, status: "running", startedAt: iso(500) }).run();

    const r = await s.t.call("GET", `/api/projects/${id}/launches/all?tokenId=1`, { cookie: s.collab });
    expect(r.status).toBe(200);
    expect(r.body).toHaveLength(100);
    expect(r.body[0].startedAt).toBe(iso(119));
    expect(r.body[99].startedAt).toBe(iso(20));
    for (let i = 1; i < r.body.length; i++) expect(r.body[i - 1].startedAt > r.body[i].startedAt).toBe(true);
    expect(Object.keys(r.body[0]).sort()).toEqual(["errorMessage", "startedAt", "status", "stoppedAt"]);
    const withError = r.body.find((e: any) => e.errorMessage !== null);
    expect(withError.errorMessage).toBe("é".repeat(100));
    expect(r.body.some((e: any) => e.status === "running")).toBe(false);
  });

  test("403 stranger, 404 missing, 400 bad id; empty list without launches", async () => {
    s = await team();
    const id = await newProject(s.t, s.owner);
    expect((await s.t.call("GET", `/api/projects/${id}/launches/all`, { cookie: s.owner })).body).toEqual([]);
    expect((await s.t.call("GET", `/api/projects/${id}/launches/all`, { cookie: s.stranger })).status).toBe(403);
    expect((await s.t.call("GET", "/api/projects/999/launches/all", { cookie: s.owner })).status).toBe(404);
    expect((await s.t.call("GET", "/api/projects/x/launches/all", { cookie: s.owner })).status).toBe(400);
  });

  test("a database error answers 200 []", async () => {
    s = await team();
    const id = await newProject(s.t, s.owner);
    s.t.ctx.db.insert(botLaunches).values({ projectId: id, tokenId: 1, status: "stopped" }).run();
    expect((await s.t.call("GET", `/api/projects/${id}/launches/all`, { cookie: s.owner })).body).toHaveLength(1);
    s.t.ctx.db.$client.exec("ALTER TABLE bot_launches RENAME TO bot_launches_gone");
    const r = await s.t.call("GET", `/api/projects/${id}/launches/all`, { cookie: s.owner });
    expect([r.status, r.body]).toEqual([200, []]);
    expect(s.t.logs.some((l) => l.startsWith("error") && l.includes("launch history"))).toBe(true);
    // repaired table → read again
    s.t.ctx.db.$client.exec("ALTER TABLE bot_launches_gone RENAME TO bot_launches");
    expect((await s.t.call("GET", `/api/projects/${id}/launches/all`, { cookie: s.owner })).body).toHaveLength(1);
  });
});

describe("logs (rule 9)", () => {
  function seedLogs(s: Team, projectId: number, n: number) {
    for (let i = 0; i < n; i++) {
      s.t.ctx.db.insert(botLogs).values({ projectId, tokenId: i % 2 ? 2 : 1, level: i % 3 ? "stdout" : "stderr", message: `m${i} ${"x".repeat(i === 0 ? 300 : 5)}`, createdAt: iso(i) }).run();
    }
  }

  test("newest first, default limit 200, message cut to 150 chars, tokenId filter", async () => {
    s = await team();
    const id = await newProject(s.t, s.owner);
    const other = await newProject(s.t, s.owner);
    seedLogs(s, id, 250);
    seedLogs(s, other, 3);
    const r = await s.t.call("GET", `/api/projects/${id}/logs/all`, { cookie: s.owner });
    expect(r.status).toBe(200);
    expect(r.body).toHaveLength(200);
    expect(r.body[0]).toEqual({ level: "stderr", message: "m249 xxxxx", createdAt: iso(249) });
    expect(r.body[199].createdAt).toBe(iso(50));

    const small = (await s.t.call("GET", `/api/projects/${id}/logs/all?limit=3&tokenId=1`, { cookie: s.owner })).body;
    expect(small.map((l: any) => l.message.split(" ")[0])).toEqual(["m248", "m246", "m244"]);
    const prefixed = (await s.t.call("GET", `/api/projects/${id}/logs/all?limit=2&tokenId=token_2`, { cookie: s.owner })).body;
    expect(prefixed.map((l: any) => l.message.split(" ")[0])).toEqual(["m249", "m247"]);

    const all = (await s.t.call("GET", `/api/projects/${id}/logs/all?limit=5000`, { cookie: s.owner })).body;
    expect(all).toHaveLength(250); // clamped to 1000, and there are only 250
    const first = all[all.length - 1];
    expect(first.message).toHaveLength(150);
    expect(first.level).toBe("stderr");
  });

  test("400 bad limit or tokenId, 403 stranger, 404 missing", async () => {
    s = await team();
    const id = await newProject(s.t, s.owner);
    for (const q of ["limit=0", "limit=-5", "limit=abc", "limit=1.5", "tokenId=abc", "tokenId=0"]) {
      expect([q, (await s.t.call("GET", `/api/projects/${id}/logs/all?${q}`, { cookie: s.owner })).status]).toEqual([q, 400]);
    }
    expect((await s.t.call("GET", `/api/projects/${id}/logs/all`, { cookie: s.stranger })).status).toBe(403);
    expect((await s.t.call("GET", "/api/projects/999/logs/all", { cookie: s.owner })).status).toBe(404);
  });

  test("a database error answers 200 []", async () => {
    s = await team();
    const id = await newProject(s.t, s.owner);
    seedLogs(s, id, 2);
    expect((await s.t.call("GET", `/api/projects/${id}/logs/all`, { cookie: s.owner })).body).toHaveLength(2);
    s.t.ctx.db.$client.exec("DROP TABLE bot_logs");
    for (const q of ["", "?tokenId=1"]) {
      const r = await s.t.call("GET", `/api/projects/${id}/logs/all${q}`, { cookie: s.owner });
      expect([r.status, r.body]).toEqual([200, []]);
    }
  });
});
