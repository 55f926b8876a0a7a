// Template rows: prepared statements, the catalog filter, and the row → record conversion.
import { and, desc, eq, or, sql, type SQL } from "drizzle-orm";
import type { Db } from "../../db/client";
import { templateRatings, templates } from "../../db/schema";
import type { TemplateListItem, TemplateListQuery, TemplateRecord } from "./model";
import { preparedOnFirstUse } from "../../db/prepared";

export type TemplateRow = typeof templates.$inferSelect;

export function prepareTemplateQueries(db: Db) {
  const id = sql.placeholder("id");
  return preparedOnFirstUse({
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
  });
}
export type TemplateQueries = ReturnType<typeof prepareTemplateQueries>;

/** Every column but the scenario: list items never carry `data`. */
export const listColumns = {
  id: templates.id,
  ownerId: templates.ownerId,
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

/** Case folding for search: Unicode lower case (SQLite's LIKE folds ASCII only), and ё reads as е. */
export const foldForSearch = (s: string) => s.toLocaleLowerCase().replaceAll("ё", "е");

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

export function toListItem(row: Omit<TemplateRow, "data" | "systemKey" | "contentHash">): TemplateListItem {
  return {
    id: row.id,
    ownerId: row.ownerId,
    name: row.name,
    description: row.description,
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
  const { id, ownerId, name, description, ...rest } = toListItem(row);
  const data = parseJson(row.data, { sheets: [] });
  return { id, ownerId, name, description, data, flow_data: data, ...rest };
}
