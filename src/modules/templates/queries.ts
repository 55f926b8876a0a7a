// Template rows: prepared statements, the catalog filter, the seeding writes, and the row → record
// conversion.
import { and, count, desc, eq, isNotNull, notInArray, or, sql, type SQL } from "drizzle-orm";
import type { Db } from "../../db/client";
import { templateRatings, templates } from "../../db/schema";
import { builtInDescriptions } from "./descriptions";
import type { TemplateListItem, TemplateListQuery, TemplateRecord } from "./model";
import { statements } from "../../db/prepared";

export type TemplateRow = typeof templates.$inferSelect;
export type TemplateInsert = typeof templates.$inferInsert;
export type TemplateChanges = Partial<TemplateInsert>;

const id = sql.placeholder("id");

export const templateStatements = statements((db: Db) => ({
  byId: () => db.select().from(templates).where(eq(templates.id, id)).prepare(),
  ratingStats: () => db
    .select({ avg: sql<number | null>`avg(${templateRatings.rating})`, n: sql<number>`count(*)` })
    .from(templateRatings)
    .where(eq(templateRatings.templateId, id))
    .prepare(),
  bumpUseCount: () => db
    .update(templates)
    .set({ useCount: sql`${templates.useCount} + 1` })
    .where(eq(templates.id, id))
    .prepare(),
  remove: () => db.delete(templates).where(eq(templates.id, id)).prepare(),
  setFeatured: () => db.update(templates).set({ featured: sql`${sql.placeholder("featured")}` }).where(eq(templates.id, id)).prepare(),
}));

/** Every column but the scenario: list items never carry `data`. */
export const listColumns = {
  id: templates.id,
  ownerId: templates.ownerId,
  systemKey: templates.systemKey,
  name: templates.name,
  description: templates.description,
  category: templates.category,
  tags: templates.tags,
  isPublic: templates.isPublic,
  difficulty: templates.difficulty,
  authorName: templates.authorName,
  useCount: templates.useCount,
  rating: templates.rating,
  ratingCount: templates.ratingCount,
  featured: templates.featured,
  language: templates.language,
  complexity: templates.complexity,
  estimatedTime: templates.estimatedTime,
  createdAt: templates.createdAt,
  updatedAt: templates.updatedAt,
};

/** Featured first, then the most used, then the newest (id breaks ties of one seeding pass). */
export const catalogOrder = [desc(templates.featured), desc(templates.useCount), desc(templates.createdAt), desc(templates.id)];

/**
 * The WHERE clause of a catalog page without the text search. `viewer` null = the admin (every
 * template); otherwise the public templates plus the viewer's own.
 */
export function catalogFilter(viewer: number | null, q: TemplateListQuery): SQL | undefined {
  const conditions: (SQL | undefined)[] = [];
  if (viewer !== null) conditions.push(or(eq(templates.isPublic, 1), eq(templates.ownerId, viewer)));
  if (q.category !== undefined) conditions.push(eq(templates.category, q.category));
  if (q.language !== undefined) conditions.push(eq(templates.language, q.language));
  if (q.featured !== undefined) conditions.push(eq(templates.featured, q.featured));
  return and(...conditions);
}

/** Every matching list item, in catalog order (the text search filters them in code). */
export function catalogRows(db: Db, where: SQL | undefined) {
  return db.select(listColumns).from(templates).where(where).orderBy(...catalogOrder).all();
}

/** One page of matching list items, and how many match in all. */
export function catalogPage(db: Db, where: SQL | undefined, limit: number, offset: number) {
  const total = db.select({ n: count() }).from(templates).where(where).get()?.n ?? 0;
  const rows = db.select(listColumns).from(templates).where(where).orderBy(...catalogOrder).limit(limit).offset(offset).all();
  return { total, rows };
}

export function insertTemplate(db: Db, values: TemplateInsert): TemplateRow {
  return db.insert(templates).values(values).returning().get();
}

export function updateTemplate(db: Db, templateId: number, set: TemplateChanges) {
  db.update(templates).set(set).where(eq(templates.id, templateId)).run();
}

/** The user's vote (re-voting replaces it), then the template's average and count recomputed by `round`. */
export function voteAndRecount(db: Db, templateId: number, userId: number, rating: number, round: (avg: number) => number) {
  return db.transaction((tx) => {
    tx.insert(templateRatings)
      .values({ templateId, userId, rating })
      .onConflictDoUpdate({ target: [templateRatings.templateId, templateRatings.userId], set: { rating } })
      .run();
    const stats = templateStatements(db).ratingStats.get({ id: templateId });
    const result = { rating: round(stats?.avg ?? 0), ratingCount: stats?.n ?? 0 };
    tx.update(templates).set(result).where(eq(templates.id, templateId)).run();
    return result;
  });
}

/** system_key → content_hash of every built-in row. */
export function builtInHashes(db: Db): Map<string, string> {
  const rows = db.select({ systemKey: templates.systemKey, contentHash: templates.contentHash }).from(templates).where(isNotNull(templates.systemKey)).all();
  return new Map(rows.map((r) => [r.systemKey!, r.contentHash ?? ""]));
}

export interface BuiltInRow {
  file: string;
  fields: TemplateInsert & { contentHash: string };
  featured: TemplateInsert["featured"];
}

/**
 * Writes built-in rows in one transaction, last first (the catalog lists the newest first, so a
 * fresh catalog shows the file order): a missing row is inserted, a changed one (or every one with
 * `force`, `featured` included) rewritten. Rows of built-ins not in `shipped` are removed.
 */
export function writeBuiltIns(db: Db, rows: BuiltInRow[], shipped: string[], force: boolean, now: string) {
  const counts = { inserted: 0, updated: 0, unchanged: 0, removed: 0 };
  db.transaction((tx) => {
    for (const { file, fields, featured } of [...rows].reverse()) {
      const stored = tx.select({ id: templates.id, contentHash: templates.contentHash }).from(templates).where(eq(templates.systemKey, file)).get();
      if (!stored) {
        tx.insert(templates).values({ ...fields, featured }).run();
        counts.inserted++;
      } else if (force || stored.contentHash !== fields.contentHash) {
        const set = force ? { ...fields, featured } : fields;
        tx.update(templates).set({ ...set, updatedAt: now }).where(eq(templates.id, stored.id)).run();
        counts.updated++;
      } else {
        counts.unchanged++;
      }
    }
    const gone = tx
      .delete(templates)
      .where(and(isNotNull(templates.systemKey), shipped.length ? notInArray(templates.systemKey, shipped) : undefined))
      .returning({ id: templates.id })
      .all();
    counts.removed = gone.length;
  });
  return counts;
}


function parseJson(text: string, fallback: unknown): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return fallback;
  }
}

function tagList(text: string): string[] {
  const v = parseJson(text, []);
  return Array.isArray(v) ? v.filter((t): t is string => typeof t === "string") : [];
}

export function toListItem(row: Omit<TemplateRow, "data" | "contentHash">): TemplateListItem {
  return {
    id: row.id,
    ownerId: row.ownerId,
    name: row.name,
    description: row.description,
    descriptions: builtInDescriptions(row.systemKey),
    category: row.category,
    tags: tagList(row.tags),
    isPublic: row.isPublic,
    difficulty: row.difficulty,
    authorName: row.authorName,
    useCount: row.useCount,
    rating: row.rating,
    ratingCount: row.ratingCount,
    featured: row.featured,
    language: row.language,
    complexity: row.complexity,
    estimatedTime: row.estimatedTime,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/** The full record in docs/api.md's field order; `flow_data` is the same document as `data`. */
export function toRecord(row: TemplateRow): TemplateRecord {
  const { id, ownerId, name, description, descriptions, ...rest } = toListItem(row);
  const data = parseJson(row.data, { sheets: [] });
  return { id, ownerId, name, description, descriptions, data, flow_data: data, ...rest };
}
