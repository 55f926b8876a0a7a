// POST/PUT/DELETE /api/templates, /use and /rate: validation, ownership, built-ins read-only.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createTestApp, loginAs, setUp, type TestApp } from "../support/app";

const sheet = (nodes: unknown[]) => ({ sheets: [{ id: "s1", name: "Main", nodes, edges: [] }] });
const msg = (id: string, text: string) => ({ id, type: "message", position: { x: 0, y: 0 }, data: { messageText: text } });
const scenario = sheet([msg("m1", "Hello")]);

let t: TestApp;
let ann: string;
let bob: string;
let systemId: number;

const create = (json: unknown, cookie = ann) => t.call("POST", "/api/templates", { cookie, json });
const get = (id: number, cookie = ann) => t.call("GET", `/api/templates/${id}`, { cookie });

beforeAll(async () => {
  t = createTestApp();
  await setUp(t);
  ann = await loginAs(t, 101, { firstName: "Ann" });
  bob = await loginAs(t, 202, { firstName: "Bob", username: "bobby" });
  systemId = (await t.call("GET", "/api/templates?perPage=1", { cookie: ann })).body.items[0].id;
});
afterAll(() => t.cleanup());

describe("POST /api/templates", () => {
  test("201: owner = caller, defaults, unknown and admin-only fields ignored", async () => {
    const r = await create({ name: "  Mine  ", data: scenario, ownerId: 999, featured: 1, useCount: 50, rating: 5, id: 7 });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({
      ownerId: 101, name: "Mine", description: "", category: "custom", tags: [], isPublic: 0, difficulty: "easy",
      authorName: "Ann", useCount: 0, rating: 0, ratingCount: 0, featured: 0, language: "ru", complexity: 1, estimatedTime: 5,
    });
    expect(r.body.data).toEqual(scenario);
    expect(r.body.flow_data).toEqual(scenario);
    expect(r.body.id).not.toBe(7);
  });

  test("every field given is stored", async () => {
    const r = await create({
      name: "Full", description: "d", data: scenario, category: "games", tags: ["a", "b"], isPublic: true,
      difficulty: "hard", language: "en", complexity: 4, estimatedTime: 30,
    });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ category: "games", tags: ["a", "b"], isPublic: 1, difficulty: "hard", language: "en", complexity: 4, estimatedTime: 30 });
  });

  test("legacy flat scenario and flow_data are accepted and normalised to sheets", async () => {
    const flat = await create({ name: "Flat", data: { nodes: [msg("x1", "Hi")], connections: [] } });
    expect(flat.status).toBe(201);
    expect(flat.body.data.sheets[0].nodes[0].id).toBe("x1");
    expect(flat.body.data.sheets[0].connections).toEqual([]);
    const old = await create({ name: "Old spelling", flow_data: scenario });
    expect(old.status).toBe(201);
    expect(old.body.data).toEqual(scenario);
  });

  test("400 for unusable bodies", async () => {
    const bad: [string, unknown][] = [
      ["no data", { name: "x" }],
      ["no name", { data: scenario }],
      ["blank name", { name: "   ", data: scenario }],
      ["long name", { name: "n".repeat(201), data: scenario }],
      ["data not an object", { name: "x", data: "text" }],
      ["data an array", { name: "x", data: [] }],
      ["sheets not an array", { name: "x", data: { sheets: {} } }],
      ["node without type", { name: "x", data: sheet([{ id: "a", data: {} }]) }],
      ["duplicate node ids", { name: "x", data: sheet([msg("a", "1"), msg("a", "2")]) }],
      ["tags not strings", { name: "x", data: scenario, tags: [1] }],
      ["too many tags", { name: "x", data: scenario, tags: Array.from({ length: 31 }, (_, i) => `t${i}`) }],
      ["isPublic 2", { name: "x", data: scenario, isPublic: 2 }],
      ["bad language", { name: "x", data: scenario, language: "russian!" }],
      ["complexity 0", { name: "x", data: scenario, complexity: 0 }],
      ["name a number", { name: 5, data: scenario }],
      ["body an array", [1, 2]],
    ];
    for (const [why, body] of bad) {
      const r = await create(body);
      expect([why, r.status, r.body?.error]).toEqual([why, 400, "VALIDATION_FAILED"]);
    }
  });

  test("400 malformed JSON; 401 without credentials (whatever the body)", async () => {
    const r = await t.call("POST", "/api/templates", { cookie: ann, body: "{nope", headers: { "content-type": "application/json" } });
    expect(r.status).toBe(400);
    expect(r.body.error).toBe("VALIDATION_FAILED");
    expect((await t.call("POST", "/api/templates", { json: { name: "x", data: scenario } })).status).toBe(401);
    expect((await t.call("POST", "/api/templates", { json: { bogus: true } })).status).toBe(401);
  });
});

describe("PUT /api/templates/{id}", () => {
  test("partial update by the owner; featured is ignored", async () => {
    const c = await create({ name: "Editable", description: "one", data: scenario, tags: ["x"] });
    const r = await t.call("PUT", `/api/templates/${c.body.id}`, { cookie: ann, json: { description: "two", featured: 1, isPublic: 1 } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ name: "Editable", description: "two", tags: ["x"], isPublic: 1, featured: 0 });
    expect(r.body.updatedAt >= c.body.updatedAt).toBe(true);
    const data = sheet([msg("m9", "Changed")]);
    const d = await t.call("PUT", `/api/templates/${c.body.id}`, { cookie: ann, json: { data } });
    expect(d.body.data).toEqual(data);
    expect(d.body.flow_data).toEqual(data);
    const onlyFeatured = await t.call("PUT", `/api/templates/${c.body.id}`, { cookie: ann, json: { featured: 1 } });
    expect(onlyFeatured.status).toBe(200);
    expect(onlyFeatured.body.featured).toBe(0);
    expect((await get(c.body.id)).body.featured).toBe(0);
  });

  test("403 for someone else's public template and for a built-in; 404 for a private one", async () => {
    const pub = await create({ name: "Public", data: scenario, isPublic: 1 });
    const priv = await create({ name: "Private", data: scenario });
    const a = await t.call("PUT", `/api/templates/${pub.body.id}`, { cookie: bob, json: { name: "Stolen" } });
    expect([a.status, a.body.error]).toEqual([403, "FORBIDDEN"]);
    const b = await t.call("PUT", `/api/templates/${systemId}`, { cookie: ann, json: { name: "Mine now" } });
    expect([b.status, b.body.error]).toEqual([403, "FORBIDDEN"]);
    const c = await t.call("PUT", `/api/templates/${priv.body.id}`, { cookie: bob, json: { name: "Stolen" } });
    expect(c.status).toBe(404);
    expect((await get(pub.body.id)).body.name).toBe("Public");
  });

  test("400 invalid body or id, 404 unknown, 401 without credentials", async () => {
    const c = await create({ name: "Target", data: scenario });
    const path = `/api/templates/${c.body.id}`;
    for (const json of [{ name: "" }, { data: [] }, { data: { sheets: 1 } }, { tags: "a" }, { isPublic: "yes" }]) {
      const r = await t.call("PUT", path, { cookie: ann, json });
      expect([JSON.stringify(json), r.status]).toEqual([JSON.stringify(json), 400]);
    }
    expect((await t.call("PUT", "/api/templates/abc", { cookie: ann, json: { name: "x" } })).status).toBe(400);
    expect((await t.call("PUT", "/api/templates/999999", { cookie: ann, json: { name: "x" } })).status).toBe(404);
    expect((await t.call("PUT", path, { json: { name: "x" } })).status).toBe(401);
    expect((await get(c.body.id)).body.name).toBe("Target");
  });
});

describe("DELETE /api/templates/{id}", () => {
  test("the owner deletes; others 403 (public) or 404 (private); built-ins 403", async () => {
    const pub = await create({ name: "Doomed", data: scenario, isPublic: 1 });
    const del = (id: number | string, cookie?: string) => t.call("DELETE", `/api/templates/${id}`, { cookie });
    expect((await del(pub.body.id, bob)).status).toBe(403);
    expect((await del(systemId, ann)).status).toBe(403);
    expect((await del(pub.body.id)).status).toBe(401);
    const ok = await del(pub.body.id, ann);
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ success: true });
    expect((await get(pub.body.id)).status).toBe(404);
    expect((await del(pub.body.id, ann)).status).toBe(404);
    expect((await del("x1", ann)).status).toBe(400);
    const priv = await create({ name: "Hidden", data: scenario });
    expect((await del(priv.body.id, bob)).status).toBe(404);
    expect((await get(systemId)).status).toBe(200);
  });
});

describe("POST /api/templates/{id}/use", () => {
  test("201 ProjectListItem of a new project with the template's scenario; useCount + 1", async () => {
    const before = (await get(systemId, bob)).body;
    const r = await t.call("POST", `/api/templates/${systemId}/use`, { cookie: bob });
    expect(r.status).toBe(201);
    expect(Object.keys(r.body).sort()).toEqual(
      ["adminIds", "createdAt", "description", "id", "isArchivedForMe", "name", "nodeCount", "ownerId", "sheetsCount", "sortOrder", "updatedAt", "userDatabaseEnabled"].sort(),
    );
    expect(r.body).toMatchObject({ ownerId: 202, name: before.name, description: before.description, sheetsCount: 1, isArchivedForMe: false });
    expect(r.body.nodeCount).toBe(before.data.sheets[0].nodes.length);
    const project = await t.call("GET", `/api/projects/${r.body.id}`, { cookie: bob });
    expect(project.status).toBe(200);
    expect(project.body.data).toEqual(before.data);
    expect((await get(systemId, bob)).body.useCount).toBe(before.useCount + 1);
  });

  test("a name may be given; a private template of its owner works; others get 404", async () => {
    const priv = await create({ name: "Private start", data: scenario });
    const r = await t.call("POST", `/api/templates/${priv.body.id}/use`, { cookie: ann, json: { name: "My bot" } });
    expect(r.status).toBe(201);
    expect(r.body.name).toBe("My bot");
    expect((await t.call("POST", `/api/templates/${priv.body.id}/use`, { cookie: bob })).status).toBe(404);
  });

  test("400 bad id or name, 404 unknown, 401 without credentials", async () => {
    expect((await t.call("POST", "/api/templates/zero/use", { cookie: ann })).status).toBe(400);
    expect((await t.call("POST", `/api/templates/${systemId}/use`, { cookie: ann, json: { name: "" } })).status).toBe(400);
    expect((await t.call("POST", `/api/templates/${systemId}/use`, { cookie: ann, json: { name: 12 } })).status).toBe(400);
    expect((await t.call("POST", "/api/templates/999999/use", { cookie: ann })).status).toBe(404);
    expect((await t.call("POST", `/api/templates/${systemId}/use`)).status).toBe(401);
  });
});

describe("POST /api/templates/{id}/rate", () => {
  test("one vote per user, re-voting replaces; average with one decimal", async () => {
    const c = await create({ name: "Rated", data: scenario, isPublic: 1 });
    const rate = (rating: unknown, cookie: string) => t.call("POST", `/api/templates/${c.body.id}/rate`, { cookie, json: { rating } });
    expect((await rate(5, ann)).body).toEqual({ rating: 5, ratingCount: 1 });
    expect((await rate(4, bob)).body).toEqual({ rating: 4.5, ratingCount: 2 });
    expect((await rate(2, bob)).body).toEqual({ rating: 3.5, ratingCount: 2 }); // Bob's vote replaced
    const carl = await loginAs(t, 303);
    expect((await rate(3, carl)).body).toEqual({ rating: 3.3, ratingCount: 3 }); // 10 / 3
    const record = (await get(c.body.id)).body;
    expect([record.rating, record.ratingCount]).toEqual([3.3, 3]);
  });

  test("built-ins can be rated; a private template of someone else cannot (404)", async () => {
    const r = await t.call("POST", `/api/templates/${systemId}/rate`, { cookie: bob, json: { rating: 1 } });
    expect(r.status).toBe(200);
    expect(r.body.ratingCount).toBe(1);
    const priv = await create({ name: "Private rated", data: scenario });
    expect((await t.call("POST", `/api/templates/${priv.body.id}/rate`, { cookie: bob, json: { rating: 5 } })).status).toBe(404);
  });

  test("400 for ratings outside 1..5 or not integers; 401; 404", async () => {
    for (const body of [{ rating: 0 }, { rating: 6 }, { rating: 2.5 }, { rating: "5" }, {}, { rating: 5, extra: 1 }]) {
      const r = await t.call("POST", `/api/templates/${systemId}/rate`, { cookie: ann, json: body });
      expect([JSON.stringify(body), r.status]).toEqual([JSON.stringify(body), 400]);
    }
    expect((await t.call("POST", `/api/templates/${systemId}/rate`, { json: { rating: 5 } })).status).toBe(401);
    expect((await t.call("POST", "/api/templates/999999/rate", { cookie: ann, json: { rating: 5 } })).status).toBe(404);
    expect((await t.call("POST", "/api/templates/-3/rate", { cookie: ann, json: { rating: 5 } })).status).toBe(400);
  });
});
