// The template catalog: browsing (public templates plus the caller's own), the owner's edits,
// making a project from a template, votes, and the admin's featured flag. Never sees Elysia.
import type { AppContext } from "../../context";
import { foldForSearch } from "../../db/like";
import { badRequest, forbidden, notFound } from "../../errors";
import { parseDocument } from "../projects/document";
import type { ProjectListItem } from "../projects/model";
import type { CreateTemplateInput, TemplateListQuery, TemplatePage, TemplateRecord, UpdateTemplateInput } from "./model";
import {
  catalogFilter,
  catalogPage,
  catalogRows,
  insertTemplate,
  templateStatements,
  toListItem,
  toRecord,
  updateTemplate,
  voteAndRecount,
  type TemplateChanges,
  type TemplateRow,
} from "./queries";

const nowIso = () => new Date().toISOString();

/** docs/studio.md#templates: the average of the votes with one decimal. */
export const roundRating = (avg: number) => Math.round(avg * 10) / 10;

/** The scenario of a create/PUT body: `data` (or the older `flow_data`), validated like a project's. */
function scenarioJson(input: { data?: unknown; flow_data?: unknown }): string | undefined {
  const raw = input.data !== undefined ? input.data : input.flow_data;
  if (raw === undefined) return undefined;
  return parseDocument(raw).json;
}

export class TemplatesService {
  private readonly q;

  constructor(private readonly ctx: AppContext) {
    this.q = templateStatements(ctx.db);
  }

  // --- reads ---------------------------------------------------------------------------------

  /**
   * One catalog page. `viewer` null = the admin's view of every template. The text search runs
   * here rather than in SQL: SQLite folds case for ASCII only and most templates are Russian; a
   * self-hosted catalog is small enough to scan (the other filters still narrow it in SQL).
   */
  list(viewer: number | null, query: TemplateListQuery): TemplatePage {
    const where = catalogFilter(viewer, query);
    const offset = (query.page - 1) * query.perPage;
    const needle = foldForSearch(query.search?.trim() ?? "");
    if (needle !== "") {
      const rows = catalogRows(this.ctx.db, where);
      const hits = rows.filter((r) => foldForSearch(r.name).includes(needle) || foldForSearch(r.description).includes(needle));
      return { items: hits.slice(offset, offset + query.perPage).map(toListItem), total: hits.length, page: query.page, perPage: query.perPage };
    }
    const { total, rows } = catalogPage(this.ctx.db, where, query.perPage, offset);
    return { items: rows.map(toListItem), total, page: query.page, perPage: query.perPage };
  }

  get(id: number, userId: number): TemplateRecord {
    return toRecord(this.visible(id, userId));
  }

  /** A private template of someone else is 404, exactly like a missing one. */
  private visible(id: number, userId: number): TemplateRow {
    const row = this.q.byId.get({ id });
    if (!row || (row.isPublic !== 1 && row.ownerId !== userId)) throw notFound("Template not found");
    return row;
  }

  /** Built-in templates are read-only for users; others' public templates too. */
  private owned(id: number, userId: number): TemplateRow {
    const row = this.visible(id, userId);
    if (row.systemKey !== null || row.ownerId === null) throw forbidden("Built-in templates are read-only");
    if (row.ownerId !== userId) throw forbidden("Only the template's owner may change it");
    return row;
  }

  // --- the owner's edits ---------------------------------------------------------------------

  create(userId: number, input: CreateTemplateInput): TemplateRecord {
    const data = scenarioJson(input);
    if (data === undefined) throw badRequest("data is required: a scenario document with a sheets array");
    const row = insertTemplate(this.ctx.db, {
        ownerId: userId,
        name: input.name,
        description: input.description ?? "",
        data,
        category: input.category ?? "custom",
        tags: JSON.stringify(input.tags ?? []),
        isPublic: input.isPublic ?? 0,
        difficulty: input.difficulty ?? "easy",
        authorName: this.authorName(userId),
        language: input.language ?? "ru",
        complexity: input.complexity ?? 1,
        estimatedTime: input.estimatedTime ?? 5,
      });
    return toRecord(row);
  }

  update(id: number, userId: number, patch: UpdateTemplateInput): TemplateRecord {
    this.owned(id, userId);
    const data = scenarioJson(patch);
    const set: TemplateChanges = {};
    if (patch.name !== undefined) set.name = patch.name;
    if (patch.description !== undefined) set.description = patch.description;
    if (data !== undefined) set.data = data;
    if (patch.category !== undefined) set.category = patch.category;
    if (patch.tags !== undefined) set.tags = JSON.stringify(patch.tags);
    if (patch.isPublic !== undefined) set.isPublic = patch.isPublic;
    if (patch.difficulty !== undefined) set.difficulty = patch.difficulty;
    if (patch.language !== undefined) set.language = patch.language;
    if (patch.complexity !== undefined) set.complexity = patch.complexity;
    if (patch.estimatedTime !== undefined) set.estimatedTime = patch.estimatedTime;
    if (Object.keys(set).length > 0) {
      set.updatedAt = nowIso();
      updateTemplate(this.ctx.db, id, set);
    }
    return toRecord(this.q.byId.get({ id })!);
  }

  delete(id: number, userId: number): void {
    this.owned(id, userId);
    this.q.remove.run({ id }); // votes go by FK cascade
  }

  private authorName(userId: number): string | null {
    const u = this.ctx.auth.getUser(userId);
    if (!u) return null;
    const full = [u.firstName, u.lastName].filter((s) => s && s.trim() !== "").join(" ").trim();
    return full || u.username || null;
  }

  // --- use and rate --------------------------------------------------------------------------

  /** A new project of the caller with the template's scenario; the template's useCount + 1. */
  use(id: number, userId: number, name?: string): ProjectListItem {
    const row = this.visible(id, userId);
    const project = this.ctx.projects.create(userId, { name: name ?? row.name, description: row.description, data: JSON.parse(row.data) });
    this.q.bumpUseCount.run({ id });
    return this.ctx.projects.getItem(project.id, userId);
  }

  /** One vote per user (re-voting replaces it); the template's average and count are recomputed. */
  rate(id: number, userId: number, rating: number): { rating: number; ratingCount: number } {
    this.visible(id, userId);
    return voteAndRecount(this.ctx.db, id, userId, rating, roundRating);
  }

  // --- admin ---------------------------------------------------------------------------------

  setFeatured(id: number, featured: 0 | 1): TemplateRecord {
    const row = this.q.byId.get({ id });
    if (!row) throw notFound("Template not found");
    this.q.setFeatured.run({ id, featured });
    return toRecord({ ...row, featured });
  }
}
