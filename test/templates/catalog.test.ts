// GET /api/templates and /api/templates/{id}: record shape, visibility, filters, search, paging.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { builtInTemplateFiles } from "../../assets/templates";
import { createTestApp, loginAs, patFor, setUp, type TestApp } from "../support/app";

const RECORD_FIELDS = [
  "id", "ownerId", "name", "description", "descriptions", "data", "flow_data", "category", "tags", "isPublic", "difficulty", "authorName",
  "useCount", "rating", "ratingCount", "featured", "language", "complexity", "estimatedTime", "createdAt", "updatedAt",
];
const LIST_FIELDS = RECORD_FIELDS.filter((f) => f !== "data" && f !== "flow_data");
const BUILT_INS = builtInTemplateFiles.length;
const scenario = { sheets: [{ id: "s1", name: "Main", nodes: [{ id: "m1", type: "message", position: { x: 0, y: 0 }, data: { messageText: "Hi" } }], edges: [] }] };

let t: TestApp;
let ann: string;
let bob: string;
let privateId: number;

const list = (query = "", cookie = ann) => t.call("GET", `/api/templates${query}`, { cookie });

beforeAll(async () => {
  t = createTestApp();
  await setUp(t);
  ann = await loginAs(t, 101, { firstName: "Ann", lastName: "Lee" });
  bob = await loginAs(t, 202, { firstName: "Bob" });
  // Ann: one private and one public template, named to exercise search.
  const p = await t.call("POST", "/api/templates", { cookie: ann, json: { name: "Ann's 100% private_bot", description: "Секретный Шаблон", data: scenario, category: "custom", language: "en" } });
  expect(p.status).toBe(201);
  privateId = p.body.id;
  const q = await t.call("POST", "/api/templates", { cookie: ann, json: { name: "Ann public", description: "plain", data: scenario, isPublic: 1, category: "games", language: "de" } });
  expect(q.status).toBe(201);
});
afterAll(() => t.cleanup());

describe("GET /api/templates", () => {
  test("401 without credentials; a PAT works", async () => {
    const r = await t.call("GET", "/api/templates");
    expect(r.status).toBe(401);
    expect(r.body.error).toBe("UNAUTHORIZED");
    const pat = await t.call("GET", "/api/templates", { bearer: patFor(t, 303) });
    expect(pat.status).toBe(200);
  });

  test("page shape: items without data, total, page, perPage (defaults 1 and 20)", async () => {
    const r = await list();
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(["items", "page", "perPage", "total"]);
    expect(r.body.page).toBe(1);
    expect(r.body.perPage).toBe(20);
    expect(r.body.total).toBe(BUILT_INS + 2); // built-ins + Ann's two
    for (const item of r.body.items) {
      expect(Object.keys(item)).toEqual(LIST_FIELDS);
      expect(Array.isArray(item.tags)).toBe(true);
    }
  });

  test("public templates plus the caller's own: Bob does not see Ann's private one", async () => {
    const bobs = await list("?perPage=100", bob);
    expect(bobs.body.total).toBe(BUILT_INS + 1);
    expect(bobs.body.items.some((i: any) => i.id === privateId)).toBe(false);
    const anns = await list("?perPage=100");
    expect(anns.body.items.some((i: any) => i.id === privateId)).toBe(true);
  });

  test("order: featured first, then use count, then newest", async () => {
    const { items } = (await list("?perPage=100")).body;
    const featured = items.map((i: any) => i.featured);
    expect(featured).toEqual([...featured].sort((a: number, b: number) => b - a));
    expect(items[0].name).toBe("FAQ: ответы на частые вопросы"); // first built-in file, featured
    const plain = items.filter((i: any) => i.featured === 0);
    expect(plain[0].name).toBe("Ann public"); // newest of the not featured, unused ones
  });

  test("filters: category, language, featured", async () => {
    const games = await list("?category=games");
    expect(games.body.items.map((i: any) => i.name)).toEqual(["Ann public"]);
    const en = await list("?language=en&perPage=100");
    expect(en.body.items.every((i: any) => i.language === "en")).toBe(true);
    expect(en.body.total).toBe(builtInTemplateFiles.filter((f) => JSON.parse(f.text).language === "en").length + 1);
    const feat = await list("?featured=1&perPage=100");
    expect(feat.body.total).toBeGreaterThan(0);
    expect(feat.body.items.every((i: any) => i.featured === 1)).toBe(true);
    const notFeat = await list("?featured=0&perPage=100");
    expect(notFeat.body.total + feat.body.total).toBe(BUILT_INS + 2);
    expect((await list("?category=nothing-like-this")).body).toEqual({ items: [], total: 0, page: 1, perPage: 20 });
  });

  test("search: name or description, case-insensitive (Cyrillic too)", async () => {
    const names = async (q: string) => (await list(`?perPage=100&search=${encodeURIComponent(q)}`)).body.items.map((i: any) => i.name);
    expect(await names("викторина")).toEqual(["Викторина с подсчётом очков"]);
    expect(await names("ВИКТОРИНА")).toEqual(["Викторина с подсчётом очков"]);
    expect(await names("quiz")).toEqual(["Quiz with a score"]);
    expect(await names("QUIZ WITH")).toEqual(["Quiz with a score"]);
    expect(await names("секретный шаблон")).toEqual(["Ann's 100% private_bot"]); // description
    expect(await names("ПОДСЧЕТОМ")).toEqual(["Викторина с подсчётом очков"]); // ё = е
    expect(await names("  ")).toHaveLength(BUILT_INS + 2); // blank = no filter
  });

  test("search: LIKE wildcards are literal", async () => {
    const names = async (q: string) => (await list(`?perPage=100&search=${encodeURIComponent(q)}`)).body.items.map((i: any) => i.name);
    expect(await names("100%")).toEqual(["Ann's 100% private_bot"]);
    expect(await names("%")).toEqual(["Ann's 100% private_bot"]);
    expect(await names("_b")).toEqual(["Ann's 100% private_bot"]);
    expect(await names("e_b")).toEqual(["Ann's 100% private_bot"]);
    expect(await names("a%b")).toEqual([]);
    expect(await names("\\")).toEqual([]);
  });

  test("search: Bob cannot find Ann's private template", async () => {
    const r = await list(`?search=${encodeURIComponent("private")}`, bob);
    expect(r.body.total).toBe(0);
  });

  test("paging: pages cover the catalog without overlap; past the end is empty", async () => {
    const seen: number[] = [];
    for (let page = 1; page <= 3; page++) {
      const r = await list(`?perPage=5&page=${page}`);
      expect(r.body.page).toBe(page);
      expect(r.body.perPage).toBe(5);
      seen.push(...r.body.items.map((i: any) => i.id));
    }
    expect(new Set(seen).size).toBe(BUILT_INS + 2);
    const far = await list("?perPage=5&page=99");
    expect(far.status).toBe(200);
    expect(far.body.items).toEqual([]);
    expect(far.body.total).toBe(BUILT_INS + 2);
  });

  test("perPage above 100 is clamped to 100", async () => {
    const r = await list("?perPage=1000");
    expect(r.status).toBe(200);
    expect(r.body.perPage).toBe(100);
  });

  test("400 for invalid paging and filters", async () => {
    for (const q of ["?page=0", "?page=-1", "?page=abc", "?page=1.5", "?page=99999999999999999", "?perPage=0", "?perPage=-5", "?perPage=x", "?featured=2", "?featured=yes", `?search=${"a".repeat(201)}`]) {
      const r = await list(q);
      expect([q, r.status, r.body.error]).toEqual([q, 400, "VALIDATION_FAILED"]);
    }
  });
});

describe("GET /api/templates/{id}", () => {
  test("the full record: docs/api.md fields, data and flow_data the same scenario", async () => {
    const first = (await list("?perPage=1")).body.items[0];
    const r = await t.call("GET", `/api/templates/${first.id}`, { cookie: bob });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body)).toEqual(RECORD_FIELDS);
    expect(Array.isArray(r.body.data.sheets)).toBe(true);
    expect(r.body.flow_data).toEqual(r.body.data);
    expect(r.body.ownerId).toBeNull();
    expect(r.body.authorName).toBe("Botloom");
    expect(r.body.isPublic).toBe(1);
  });

  test("own private template: 200 for the owner, 404 for anyone else", async () => {
    const mine = await t.call("GET", `/api/templates/${privateId}`, { cookie: ann });
    expect(mine.status).toBe(200);
    expect(mine.body.ownerId).toBe(101);
    expect(mine.body.authorName).toBe("Ann Lee");
    expect(mine.body.isPublic).toBe(0);
    const other = await t.call("GET", `/api/templates/${privateId}`, { cookie: bob });
    expect(other.status).toBe(404);
    expect(other.body.error).toBe("NOT_FOUND");
  });

  test("400 bad id, 404 unknown id, 401 without credentials", async () => {
    for (const id of ["abc", "0", "-1", "1.5", "99999999999999999999"]) {
      const r = await t.call("GET", `/api/templates/${id}`, { cookie: ann });
      expect([id, r.status]).toEqual([id, 400]);
    }
    expect((await t.call("GET", "/api/templates/999999", { cookie: ann })).status).toBe(404);
    expect((await t.call("GET", `/api/templates/${privateId}`)).status).toBe(401);
  });
});

describe("descriptions in the reader's language", () => {
  test("a built-in carries its description in English and Russian; the row's own is the one in its language; user templates have none", async () => {
    const r = await list("?perPage=100");
    const builtIns = r.body.items.filter((x: any) => x.ownerId === null);
    expect(builtIns.length).toBe(BUILT_INS);
    for (const x of builtIns) {
      expect(Object.keys(x.descriptions).sort()).toEqual(["en", "ru"]);
      expect(x.description).toBe(x.descriptions[x.language]);
    }
    const mine = r.body.items.find((x: any) => x.name === "Ann public");
    expect(mine.descriptions).toBeNull();
    const one = await t.call("GET", `/api/templates/${builtIns[0].id}`, { cookie: ann });
    expect(one.body.descriptions).toEqual(builtIns[0].descriptions);
  });
});
