// The built-in template files and their seeding: every file listed and valid, rows inserted at
// start, rewritten when the file's hash changes (usage, votes and featured kept), health.templates.
import { afterEach, describe, expect, test } from "bun:test";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { builtInTemplateFiles } from "../../assets/templates";
import { templates } from "../../src/db/schema";
import { sha256Hex } from "../../src/lib/crypto";
import { generateBot, validateScenario } from "../../src/scenario";
import { isRunnableType } from "../../src/scenario/model";
import { templateFileSchema } from "../../src/modules/templates/model";
import { loadBuiltInTemplates } from "../../src/modules/templates/seed";
import { seedBuiltInTemplates } from "../../src/modules/templates/seed";
import { createTestApp, type TestApp } from "../support/app";

const ASSETS = join(import.meta.dir, "..", "..", "assets", "templates");
const NODE_TYPES = [...new Set(builtInTemplateFiles.flatMap((f) => JSON.parse(f.text).data.sheets.flatMap((s: any) => s.nodes.map((n: any) => n.type as string))))];
const parsed = builtInTemplateFiles.map((f) => ({ file: f.file, t: JSON.parse(f.text) }));

const apps: TestApp[] = [];
const app = (opts: Parameters<typeof createTestApp>[0] = {}) => {
  const t = createTestApp(opts);
  apps.push(t);
  return t;
};
afterEach(() => {
  for (const t of apps.splice(0)) t.cleanup();
});

describe("the built-in files", () => {
  test("assets/templates/index.ts embeds every .json file of the folder, once", () => {
    const onDisk = readdirSync(ASSETS).filter((n) => n.endsWith(".json")).sort();
    expect(builtInTemplateFiles.map((f) => f.file).sort()).toEqual(onDisk);
    expect(new Set(builtInTemplateFiles.map((f) => f.file)).size).toBe(onDisk.length);
  });

  test("at least 8, in Russian and English, with distinct names", () => {
    expect(parsed.length).toBeGreaterThanOrEqual(8);
    expect(parsed.filter((p) => p.t.language === "ru").length).toBeGreaterThanOrEqual(8);
    expect(parsed.filter((p) => p.t.language === "en").length).toBeGreaterThanOrEqual(1);
    expect(new Set(parsed.map((p) => p.t.name)).size).toBe(parsed.length);
  });

  for (const { file, t } of parsed) {
    test(`${file}: catalog fields, a valid scenario of runnable types with /start, generates without warnings`, () => {
      const meta = templateFileSchema.safeParse(t);
      expect(meta.success).toBe(true);
      expect(Object.keys(t).sort()).toEqual(
        ["category", "complexity", "data", "descriptions", "difficulty", "estimatedTime", "language", "name", "tags", ...(t.featured !== undefined ? ["featured"] : [])].sort(),
      );
      expect(["ru", "en"]).toContain(t.language);
      expect(Object.keys(t.descriptions).sort()).toEqual(["en", "ru"]);
      for (const text of Object.values<string>(t.descriptions)) {
        expect(text.length).toBeGreaterThan(20);
        // plain words for people: no node types, keyboard kinds or modes of the editor
        const internal = [...NODE_TYPES, "inline", "reply", "increment", "condition", "keyboard", "set_variable"].filter((w) => new RegExp(`(^|[^\\p{L}_])${w}($|[^\\p{L}_])`, "iu").test(text));
        expect(internal).toEqual([]);
      }
      expect([/^[A-Z]/.test(t.descriptions.en), /^[А-ЯЁ]/.test(t.descriptions.ru)]).toEqual([true, true]);
      expect(t.tags.length).toBeGreaterThan(0);
      const { errors, warnings } = validateScenario(t.data);
      expect(errors).toEqual([]);
      expect(warnings).toEqual([]);
      const nodes = t.data.sheets.flatMap((s: any) => s.nodes);
      expect(nodes.filter((n: any) => !isRunnableType(n.type)).map((n: any) => n.type)).toEqual([]);
      expect(nodes.some((n: any) => n.type === "command_trigger" && n.data.command === "/start")).toBe(true);
      const bot = generateBot(t.data, { projectName: t.name, userDatabaseEnabled: true });
      expect(bot.warnings).toEqual([]);
    });
  }

  test("the quizzes count points with set_variable increment and branch on them with a condition", () => {
    for (const { t } of parsed.filter((p) => p.file.startsWith("quiz-"))) {
      const nodes = t.data.sheets.flatMap((s: any) => s.nodes);
      expect(nodes.some((n: any) => n.type === "set_variable" && n.data.assignments.some((a: any) => a.mode === "increment"))).toBe(true);
      expect(nodes.some((n: any) => n.type === "condition" && n.data.variable === "score")).toBe(true);
    }
  });
});

describe("seeding at start", () => {
  test("a fresh database gets every built-in as a public system template; health.templates true", async () => {
    const t = app();
    expect(t.ctx.state.templatesLoaded).toBe(true);
    const health = await t.call("GET", "/api/health");
    expect(health.body.templates).toBe(true);
    const rows = t.ctx.db.select().from(templates).all();
    expect(rows).toHaveLength(builtInTemplateFiles.length);
    for (const f of builtInTemplateFiles) {
      const r = rows.find((x) => x.systemKey === f.file)!;
      const file = JSON.parse(f.text);
      expect(r).toMatchObject({ ownerId: null, contentHash: sha256Hex(f.text), isPublic: 1, name: file.name, language: file.language, featured: file.featured ?? 0, authorName: "Botloom" });
      expect(JSON.parse(r.data)).toEqual(file.data);
    }
  });

  test("restart: a changed file hash rewrites its row (usage, votes, featured kept); an unchanged hash leaves the row alone", () => {
    const first = app({ fileDb: true });
    const db = first.ctx.db;
    const byKey = (k: string) => db.select().from(templates).where(eq(templates.systemKey, k)).get()!;
    // faq-ru: the stored hash no longer matches its file → rewritten at the next start.
    db.update(templates)
      .set({ contentHash: "0".repeat(64), name: "Old name", description: "old", useCount: 7, rating: 4.5, ratingCount: 2, featured: 0 })
      .where(eq(templates.systemKey, "faq-ru.json"))
      .run();
    // quiz-ru: same hash, locally edited → kept as is (only the hash says whether a file changed).
    db.update(templates).set({ name: "Edited in place" }).where(eq(templates.systemKey, "quiz-ru.json")).run();
    // support: missing → inserted again; a built-in this version no longer ships → removed.
    db.delete(templates).where(eq(templates.systemKey, "support-contacts-ru.json")).run();
    db.insert(templates).values({ systemKey: "retired.json", contentHash: "x", name: "Retired", data: "{}" }).run();
    const faqId = byKey("faq-ru.json").id;
    const path = first.ctx.config.databasePath;
    first.ctx.db.$client.close();

    const second = app({ dbPath: path });
    const again = (k: string) => second.ctx.db.select().from(templates).where(eq(templates.systemKey, k)).get();
    const faq = again("faq-ru.json")!;
    const file = builtInTemplateFiles.find((f) => f.file === "faq-ru.json")!;
    expect(faq.id).toBe(faqId);
    expect(faq.contentHash).toBe(sha256Hex(file.text));
    expect(faq.name).toBe(JSON.parse(file.text).name);
    expect(faq.description).toBe(JSON.parse(file.text).descriptions.ru);
    expect([faq.useCount, faq.rating, faq.ratingCount, faq.featured]).toEqual([7, 4.5, 2, 0]);
    expect(again("quiz-ru.json")!.name).toBe("Edited in place");
    expect(again("support-contacts-ru.json")).toBeDefined();
    expect(again("retired.json")).toBeUndefined();
    expect(second.ctx.state.templatesLoaded).toBe(true);
  });

  test("seeding twice changes nothing", () => {
    const t = app();
    const before = t.ctx.db.select().from(templates).all();
    const r = seedBuiltInTemplates(t.ctx.db, builtInTemplateFiles);
    expect(r).toEqual({ inserted: 0, updated: 0, unchanged: builtInTemplateFiles.length, removed: 0, failed: [] });
    expect(t.ctx.db.select().from(templates).all()).toEqual(before);
  });

  test("an invalid file is logged and skipped, its row kept, and health.templates stays false", async () => {
    const t = app();
    t.ctx.state.templatesLoaded = false;
    const broken = [...builtInTemplateFiles.filter((f) => f.file !== "faq-en.json"), { file: "faq-en.json", text: '{"name": "no data"' }];
    const before = t.ctx.db.select().from(templates).where(eq(templates.systemKey, "faq-en.json")).get();
    loadBuiltInTemplates(t.ctx, broken);
    expect(t.ctx.state.templatesLoaded).toBe(false);
    expect((await t.call("GET", "/api/health")).body.templates).toBe(false);
    expect(t.logs.some((l) => l.startsWith("error") && l.includes("faq-en.json"))).toBe(true);
    expect(t.ctx.db.select().from(templates).where(eq(templates.systemKey, "faq-en.json")).get()).toEqual(before);
    const bad = seedBuiltInTemplates(t.ctx.db, [{ file: "x.json", text: JSON.stringify({ name: "x", category: "c", difficulty: "easy", language: "ru", data: { sheets: 5 } }) }, ...builtInTemplateFiles]);
    expect(bad.failed).toEqual(["x.json"]);
  });
});
