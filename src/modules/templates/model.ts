// Shapes of the template catalog (docs/api.md#templates):
// request bodies (zod, shared by routes and services), the built-in file format and the records.
import { z } from "zod";

export const NAME_MAX = 200;
export const DESCRIPTION_MAX = 5000;
export const TAGS_MAX = 30;
export const TAG_MAX = 50;
export const SEARCH_MAX = 200;
export const PER_PAGE_DEFAULT = 20;
export const PER_PAGE_MAX = 100;

const flag = z.union([z.literal(0), z.literal(1), z.boolean()]).transform((v) => (v === true || v === 1 ? 1 : 0));
const name = z.string().trim().min(1, "name is required").max(NAME_MAX);
const description = z.string().max(DESCRIPTION_MAX);
const category = z.string().trim().min(1).max(50);
const tags = z.array(z.string().trim().min(1).max(TAG_MAX)).max(TAGS_MAX);
const difficulty = z.string().trim().min(1).max(30);
const language = z.string().regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})?$/, "language must be a language code such as ru or en");
const complexity = z.number().int().min(1).max(10);
const estimatedTime = z.number().int().min(0).max(100_000);

/**
 * POST /api/templates. Unknown fields are dropped (`ownerId`, `featured`, `useCount`, ... are never
 * the caller's to set). `flow_data` is accepted as the older spelling of `data`.
 */
export const createTemplateSchema = z.object({
  name,
  description: description.optional(),
  data: z.unknown().optional(),
  flow_data: z.unknown().optional(),
  category: category.optional(),
  tags: tags.optional(),
  isPublic: flag.optional(),
  difficulty: difficulty.optional(),
  language: language.optional(),
  complexity: complexity.optional(),
  estimatedTime: estimatedTime.optional(),
});

/** PUT /api/templates/{id}: the same fields, all optional; `featured` is ignored (admin rule 4). */
export const updateTemplateSchema = createTemplateSchema.partial();

export const useTemplateSchema = z.object({ name: name.optional() }).optional();
export const rateTemplateSchema = z.strictObject({ rating: z.number().int().min(1).max(5) });
export const featuredSchema = z.strictObject({ featured: z.union([z.literal(0), z.literal(1)]) });

export type CreateTemplateInput = z.output<typeof createTemplateSchema>;
export type UpdateTemplateInput = z.output<typeof updateTemplateSchema>;

/**
 * A built-in template file in assets/templates/. Its description is plain words (no node types)
 * in English and Russian; the row's `description` is the one in the template's own language.
 */
export const templateFileSchema = z.object({
  name,
  descriptions: z.object({ en: description.min(1), ru: description.min(1) }),
  category,
  tags: tags.default([]),
  difficulty,
  language,
  complexity: complexity.default(1),
  estimatedTime: estimatedTime.default(5),
  featured: flag.default(0),
  authorName: z.string().max(NAME_MAX).optional(),
  data: z.unknown(),
});

export interface TemplateListQuery {
  category?: string;
  search?: string;
  featured?: 0 | 1;
  language?: string;
  page: number;
  perPage: number;
}

/** A template as lists show it: the record without its scenario. */
export const templateListItemSchema = z.object({
  id: z.number().int(),
  ownerId: z.number().int().nullable(),
  name: z.string(),
  description: z.string(),
  /** built-ins only: the description in every language of the Studio (null for user templates) */
  descriptions: z.record(z.string(), z.string()).nullable(),
  category: z.string(),
  tags: z.array(z.string()),
  isPublic: z.number().int(),
  difficulty: z.string(),
  authorName: z.string().nullable(),
  useCount: z.number().int(),
  rating: z.number(),
  ratingCount: z.number().int(),
  featured: z.number().int(),
  language: z.string(),
  complexity: z.number(),
  estimatedTime: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type TemplateListItem = z.output<typeof templateListItemSchema>;

/** docs/api.md#templates, field for field: the list fields plus the scenario twice. */
export const templateRecordSchema = templateListItemSchema.extend({ data: z.unknown(), flow_data: z.unknown() });
export type TemplateRecord = z.output<typeof templateRecordSchema>;

export const templatePageSchema = z.object({ items: z.array(templateListItemSchema), total: z.number().int(), page: z.number().int(), perPage: z.number().int() });
export type TemplatePage = z.output<typeof templatePageSchema>;
