import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { projectCollaborators, projects, users } from "../../src/db/schema";
import { adminLogin, createTestApp, loginAs, patFor, setUp, type TestApp } from "../support/app";

let t: TestApp;
let admin: string;

function seedUser(id: number, firstName: string, lastName: string | null, username: string | null, createdAt: string) {
  t.ctx.auth.upsertUser({ id, firstName, lastName, username });
  t.ctx.db.update(users).set({ createdAt, updatedAt: createdAt }).where(eq(users.id, id)).run();
}

function seedProject(ownerId: number, name: string) {
  return t.ctx.db
    .insert(projects)
    .values({ ownerId, name, data: JSON.stringify({ sheets: [] }), botToken: "123:SECRET-TOKEN", sessionId: "sess-secret" })
    .returning({ id: projects.id })
    .get().id;
}

beforeAll(async () => {
  t = createTestApp();
  await setUp(t);
  admin = await adminLogin(t);
  seedUser(101, "Alice", "Smith", "alice_s", "2026-01-01T00:00:00.000Z");
  seedUser(102, "Bob", "Jones", "bobby", "2026-01-02T00:00:00.000Z");
  seedUser(103, "Иван", "Петров", "ivan_p", "2026-01-03T00:00:00.000Z");
  seedUser(104, "Percent", "50%off", "under_score", "2026-01-04T00:00:00.000Z");
  seedUser(105, "", null, null, "2026-01-05T00:00:00.000Z");
  seedUser(777000, "Numeric", null, "n777", "2026-01-06T00:00:00.000Z");
  const p1 = seedProject(101, "Alice bot");
  seedProject(101, "Alice second");
  const p3 = seedProject(102, "Bob bot");
  const p4 = seedProject(105, "Nameless owner bot");
  t.ctx.db.insert(projectCollaborators).values([
    { projectId: p3, userId: 101, invitedBy: 102 },
    { projectId: p4, userId: 101, invitedBy: 105 },
    { projectId: p1, userId: 102, invitedBy: 101 },
  ]).run();
});
afterAll(() => t.cleanup());

const list = (qs = "") => t.call("GET", `/admin/api/users${qs}`, { cookie: admin });

describe("GET /admin/api/users", () => {
  test("401 without an admin session, with a user session, with a PAT, with a forged cookie", async () => {
    const userCookie = await loginAs(t, 200);
    for (const opts of [{}, { cookie: userCookie }, { bearer: patFor(t, 200, ["bot_manager"]) }, { cookie: "admin_auth=99999999999999.deadbeef" }]) {
      const r = await t.call("GET", "/admin/api/users", opts);
      expect(r.status).toBe(401);
      expect(r.body.error).toBe("ADMIN_UNAUTHORIZED");
    }
    const card = await t.call("GET", "/admin/api/users/101", { cookie: userCookie });
    expect(card.status).toBe(401);
  });

  test("defaults: page 1, perPage 20, newest first, counts per account", async () => {
    const r = await list();
    expect(r.status).toBe(200);
    expect(r.body.page).toBe(1);
    expect(r.body.perPage).toBe(20);
    expect(r.body.total).toBe(r.body.items.length);
    const ids = r.body.items.map((u: any) => u.id);
    // user 200 logged in during the 401 test: created now, so newest
    expect(ids.slice(-6)).toEqual([777000, 105, 104, 103, 102, 101]);
    const alice = r.body.items.find((u: any) => u.id === 101);
    expect(alice).toEqual({
      id: 101, firstName: "Alice", lastName: "Smith", username: "alice_s", photoUrl: null,
      createdAt: "2026-01-01T00:00:00.000Z", updatedAt: "2026-01-01T00:00:00.000Z", ownedCount: 2, sharedCount: 2,
    });
    expect(r.body.items.find((u: any) => u.id === 102)).toMatchObject({ ownedCount: 1, sharedCount: 1 });
    expect(r.body.items.find((u: any) => u.id === 103)).toMatchObject({ ownedCount: 0, sharedCount: 0 });
  });

  test("search: first name, last name, username with and without @, case-insensitive substrings", async () => {
    const ids = async (s: string) => (await list(`?search=${encodeURIComponent(s)}`)).body.items.map((u: any) => u.id);
    expect(await ids("ali")).toEqual([101]);
    expect(await ids("ALICE")).toEqual([101]);
    expect(await ids("smi")).toEqual([101]);
    expect(await ids("jONes")).toEqual([102]);
    expect(await ids("bobby")).toEqual([102]);
    expect(await ids("@bobby")).toEqual([102]);
    expect(await ids("@BOB")).toEqual([102]);
    expect(await ids("иван")).toEqual([103]);
    expect(await ids("ПЕТР")).toEqual([103]);
    expect(await ids("  alice  ")).toEqual([101]);
    expect(await ids("nobody-like-this")).toEqual([]);
  });

  test("search folds case in every alphabet, across first and last name", async () => {
    seedUser(106, "Анна-Мария", "Ёлкина", null, "2026-01-07T00:00:00.000Z");
    const ids = async (s: string) => (await list(`?search=${encodeURIComponent(s)}`)).body.items.map((u: any) => u.id);
    expect(await ids("на-ма")).toEqual([106]);
    expect(await ids("НА-мА")).toEqual([106]);
    expect(await ids("мария ёлк")).toEqual([106]);
    t.ctx.db.delete(users).where(eq(users.id, 106)).run();
  });

  test("accounts stored before the search column existed are found after the backfill", async () => {
    t.ctx.db.insert(users).values({ id: 107, firstName: "Ölaf", lastName: "Legacy", createdAt: "2026-01-08T00:00:00.000Z" }).run();
    const ids = async (s: string) => (await list(`?search=${encodeURIComponent(s)}`)).body.items.map((u: any) => u.id);
    expect(await ids("ölaf")).toEqual([]);
    t.ctx.auth.backfillSearchText();
    expect(await ids("ÖLAF")).toEqual([107]);
    t.ctx.db.delete(users).where(eq(users.id, 107)).run();
  });

  test("search: exact numeric id (and digits inside names still match as text)", async () => {
    const r = await list("?search=102");
    expect(r.body.items.map((u: any) => u.id)).toEqual([102]);
    expect(r.body.total).toBe(1);
    // "777" is not an exact id, but it is a substring of the username n777
    expect((await list("?search=777")).body.items.map((u: any) => u.id)).toEqual([777000]);
    expect((await list("?search=777000")).body.items.map((u: any) => u.id)).toEqual([777000]);
    expect((await list("?search=10")).body.items).toEqual([]);
  });

  test("search: LIKE wildcards are literal", async () => {
    const ids = async (s: string) => (await list(`?search=${encodeURIComponent(s)}`)).body.items.map((u: any) => u.id);
    expect(await ids("%")).toEqual([104]);
    expect(await ids("50%")).toEqual([104]);
    expect(await ids("_")).toEqual([104, 103, 101]);
    expect(await ids("r_s")).toEqual([104]);
    expect(await ids("\\")).toEqual([]);
    expect(await ids("a%e")).toEqual([]);
  });

  test("paging: total, pages, last partial page, beyond the end", async () => {
    const all = (await list("?perPage=100")).body;
    const p1 = await list("?perPage=2&page=1");
    const p2 = await list("?perPage=2&page=2");
    expect(p1.body.total).toBe(all.total);
    expect(p1.body.items.map((u: any) => u.id)).toEqual(all.items.slice(0, 2).map((u: any) => u.id));
    expect(p2.body.items.map((u: any) => u.id)).toEqual(all.items.slice(2, 4).map((u: any) => u.id));
    const lastPage = Math.ceil(all.total / 2);
    const last = await list(`?perPage=2&page=${lastPage}`);
    expect(last.body.items.length).toBe(all.total - (lastPage - 1) * 2);
    const beyond = await list("?perPage=2&page=999");
    expect(beyond.status).toBe(200);
    expect(beyond.body).toMatchObject({ items: [], total: all.total, page: 999, perPage: 2 });
    const searched = await list("?search=a&perPage=1&page=2");
    expect(searched.body.items.length).toBe(1);
    expect(searched.body.total).toBeGreaterThan(1);
  });

  test("perPage above 100 is clamped to 100", async () => {
    const r = await list("?perPage=1000");
    expect(r.status).toBe(200);
    expect(r.body.perPage).toBe(100);
  });

  test("invalid page, perPage and search are 400 VALIDATION_FAILED", async () => {
    for (const qs of ["?page=0", "?page=-1", "?page=abc", "?page=1.5", "?page=99999999999", "?perPage=0", "?perPage=-5", "?perPage=x", "?perPage=1e3", `?search=${"a".repeat(201)}`]) {
      const r = await list(qs);
      expect([qs, r.status]).toEqual([qs, 400]);
      expect(r.body.error).toBe("VALIDATION_FAILED");
    }
  });
});

describe("GET /admin/api/users/{id}", () => {
  test("card: user, owned and shared projects, never data, tokens or session ids", async () => {
    const r = await t.call("GET", "/admin/api/users/101", { cookie: admin });
    expect(r.status).toBe(200);
    expect(r.body.user).toEqual({ id: 101, firstName: "Alice", lastName: "Smith", username: "alice_s", photoUrl: null, createdAt: "2026-01-01T00:00:00.000Z", updatedAt: "2026-01-01T00:00:00.000Z" });
    expect(r.body.ownedProjects.map((p: any) => p.name)).toEqual(["Alice bot", "Alice second"]);
    expect(Object.keys(r.body.ownedProjects[0]).sort()).toEqual(["createdAt", "id", "name", "updatedAt"]);
    expect(r.body.sharedProjects).toHaveLength(2);
    expect(r.body.sharedProjects[0]).toMatchObject({ name: "Bob bot", ownerId: 102, ownerDisplayName: "Bob Jones" });
    expect(r.body.sharedProjects[1]).toMatchObject({ name: "Nameless owner bot", ownerId: 105, ownerDisplayName: "User 105" });
    expect(Object.keys(r.body.sharedProjects[0]).sort()).toEqual(["createdAt", "id", "name", "ownerDisplayName", "ownerId", "updatedAt"]);
    expect(r.text).not.toContain("SECRET-TOKEN");
    expect(r.text).not.toContain("sess-secret");
    expect(r.text).not.toContain("sheets");
  });

  test("owner display name falls back to @username", async () => {
    seedUser(106, "", null, "handle_only", "2026-01-07T00:00:00.000Z");
    const pid = seedProject(106, "Handle bot");
    t.ctx.db.insert(projectCollaborators).values({ projectId: pid, userId: 103, invitedBy: 106 }).run();
    const r = await t.call("GET", "/admin/api/users/103", { cookie: admin });
    expect(r.body.sharedProjects).toEqual([expect.objectContaining({ name: "Handle bot", ownerDisplayName: "@handle_only" })]);
    expect(r.body.ownedProjects).toEqual([]);
  });

  test("400 bad id, 404 unknown user", async () => {
    for (const id of ["abc", "0", "-1", "1.5", "99999999999999999999", "project_1"]) {
      const r = await t.call("GET", `/admin/api/users/${id}`, { cookie: admin });
      expect([id, r.status, r.body.error]).toEqual([id, 400, "VALIDATION_FAILED"]);
    }
    const r = await t.call("GET", "/admin/api/users/424242", { cookie: admin });
    expect(r.status).toBe(404);
    expect(r.body.error).toBe("NOT_FOUND");
  });
});
