// Admin side of the catalog: PATCH featured, refresh/recreate (admin rule 4), the admin list.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { builtInTemplateFiles } from "../../assets/templates";
import { templates } from "../../src/db/schema";
import { adminLogin, createTestApp, loginAs, setUp, type TestApp } from "../support/app";

const scenario = { sheets: [{ id: "s1", name: "Main", nodes: [], edges: [] }] };

let t: TestApp;
let admin: string;
let ann: string;
let faqId: number;

const featured = (id: number | string, json: unknown, cookie = admin) => t.call("PATCH", `/admin/api/templates/${id}/featured`, { cookie, json });
const row = (id: number) => t.ctx.db.select().from(templates).where(eq(templates.id, id)).get()!;

beforeAll(async () => {
  t = createTestApp();
  await setUp(t);
  admin = await adminLogin(t);
  ann = await loginAs(t, 101);
  faqId = t.ctx.db.select({ id: templates.id }).from(templates).where(eq(templates.systemKey, "faq-ru.json")).get()!.id;
});
afterAll(() => t.cleanup());

describe("PATCH /admin/api/templates/{id}/featured", () => {
  test("0 and 1 toggle the flag and answer with the template record", async () => {
    const off = await featured(faqId, { featured: 0 });
    expect(off.status).toBe(200);
    expect(off.body.id).toBe(faqId);
    expect(off.body.featured).toBe(0);
    expect(off.body.data.sheets).toBeDefined();
    expect(off.body.flow_data).toEqual(off.body.data);
    expect((await t.call("GET", `/api/templates/${faqId}`, { cookie: ann })).body.featured).toBe(0);
    const on = await featured(faqId, { featured: 1 });
    expect(on.body.featured).toBe(1);
    const list = await t.call("GET", "/api/templates?featured=1&perPage=100", { cookie: ann });
    expect(list.body.items.some((i: any) => i.id === faqId)).toBe(true);
  });

  test("works for a user's template too", async () => {
    const c = await t.call("POST", "/api/templates", { cookie: ann, json: { name: "User's", data: scenario, isPublic: 1 } });
    expect((await featured(c.body.id, { featured: 1 })).body.featured).toBe(1);
  });

  test("the user PUT cannot change featured", async () => {
    const c = await t.call("POST", "/api/templates", { cookie: ann, json: { name: "Own", data: scenario } });
    await featured(c.body.id, { featured: 1 });
    const put = await t.call("PUT", `/api/templates/${c.body.id}`, { cookie: ann, json: { featured: 0, name: "Own 2" } });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ name: "Own 2", featured: 1 });
  });

  test("400 bad id or featured value; 404 unknown; 401 without admin session", async () => {
    for (const body of [{ featured: 2 }, { featured: true }, { featured: "1" }, {}, { featured: 1, other: 1 }, [1]]) {
      const r = await featured(faqId, body);
      expect([JSON.stringify(body), r.status, r.body.error]).toEqual([JSON.stringify(body), 400, "VALIDATION_FAILED"]);
    }
    for (const id of ["abc", "0", "-2", "1e3"]) expect((await featured(id, { featured: 1 })).status).toBe(400);
    const missing = await featured(999999, { featured: 1 });
    expect([missing.status, missing.body.error]).toEqual([404, "NOT_FOUND"]);
    const anon = await featured(faqId, { featured: 1 }, "");
    expect([anon.status, anon.body.error]).toEqual([401, "ADMIN_UNAUTHORIZED"]);
    const asUser = await featured(faqId, { featured: 1 }, ann); // a user session is not an admin session
    expect(asUser.status).toBe(401);
    const badBodyNoAdmin = await featured(faqId, { featured: 7 }, "");
    expect(badBodyNoAdmin.status).toBe(401);
  });
});

describe("POST /admin/api/templates/refresh and /recreate", () => {
  for (const path of ["refresh", "recreate"]) {
    test(`${path}: rewrites a modified built-in from its file, keeps votes and use count`, async () => {
      await t.call("POST", `/api/templates/${faqId}/rate`, { cookie: ann, json: { rating: 4 } });
      await t.call("POST", `/api/templates/${faqId}/use`, { cookie: ann });
      const before = row(faqId);
      t.ctx.db.update(templates).set({ name: "Tampered", data: JSON.stringify(scenario), tags: "[]", featured: 0, category: "x" }).where(eq(templates.id, faqId)).run();
      const r = await t.call("POST", `/admin/api/templates/${path}`, { cookie: admin });
      expect(r.status).toBe(200);
      expect(Object.keys(r.body).sort()).toEqual(["message", "timestamp"]);
      expect(typeof r.body.message).toBe("string");
      expect(r.body.timestamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/);
      const after = row(faqId);
      const file = JSON.parse(builtInTemplateFiles.find((f) => f.file === "faq-ru.json")!.text);
      expect(after.name).toBe(file.name);
      expect(after.category).toBe(file.category);
      expect(JSON.parse(after.tags)).toEqual(file.tags);
      expect(JSON.parse(after.data)).toEqual(file.data);
      expect(after.featured).toBe(1); // reset from the file
      expect([after.rating, after.ratingCount, after.useCount]).toEqual([before.rating, before.ratingCount, before.useCount]);
      expect(after.id).toBe(faqId);
      expect(t.ctx.state.templatesLoaded).toBe(true);
    });
  }

  test("user templates are untouched; a deleted built-in comes back", async () => {
    const c = await t.call("POST", "/api/templates", { cookie: ann, json: { name: "Keep me", data: scenario } });
    t.ctx.db.delete(templates).where(eq(templates.systemKey, "quiz-en.json")).run();
    const r = await t.call("POST", "/admin/api/templates/refresh", { cookie: admin });
    expect(r.status).toBe(200);
    expect(t.ctx.db.select().from(templates).where(eq(templates.systemKey, "quiz-en.json")).get()).toBeDefined();
    expect((await t.call("GET", `/api/templates/${c.body.id}`, { cookie: ann })).body.name).toBe("Keep me");
    const systemRows = t.ctx.db.select({ k: templates.systemKey }).from(templates).all().filter((x) => x.k !== null);
    expect(systemRows).toHaveLength(builtInTemplateFiles.length);
  });

  test("401 without an admin session", async () => {
    for (const path of ["refresh", "recreate"]) {
      const r = await t.call("POST", `/admin/api/templates/${path}`, { cookie: ann });
      expect([r.status, r.body.error]).toEqual([401, "ADMIN_UNAUTHORIZED"]);
    }
  });
});

describe("GET /admin/api/templates", () => {
  test("every template, private ones included, in the catalog page shape; 401 without admin", async () => {
    const c = await t.call("POST", "/api/templates", { cookie: ann, json: { name: "Secret one", data: scenario } });
    const r = await t.call("GET", "/admin/api/templates?perPage=100", { cookie: admin });
    expect(r.status).toBe(200);
    expect(r.body.items.some((i: any) => i.id === c.body.id)).toBe(true);
    expect(r.body.items[0].data).toBeUndefined();
    expect((await t.call("GET", "/admin/api/templates?page=0", { cookie: admin })).status).toBe(400);
    expect((await t.call("GET", "/admin/api/templates", { cookie: ann })).status).toBe(401);
  });
});

test("no admin area in production without a key: the admin template paths do not exist", async () => {
  const prod = createTestApp({ env: { NODE_ENV: "production", ADMIN_KEY: "" } });
  try {
    expect(prod.ctx.config.adminKey).toBeNull();
    const r = await prod.call("POST", "/admin/api/templates/refresh");
    expect(r.status).toBe(404);
    expect(prod.ctx.state.templatesLoaded).toBe(true); // the user catalog is still seeded
  } finally {
    prod.cleanup();
  }
});
