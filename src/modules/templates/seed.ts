// Built-in templates (assets/templates/*.json, embedded in the binary) → catalog rows. A system
// template has no owner and `system_key` = its file name; `content_hash` = SHA-256 of the file.
// At start a row is inserted when missing and rewritten when its file changed; `refresh` (admin
// rule 4) rewrites every row whatever the hash. Usage and votes are never reset.
import { and, eq, isNotNull, notInArray } from "drizzle-orm";
import type { Db } from "../../db/client";
import { templates } from "../../db/schema";
import { sha256Hex } from "../../lib/crypto";
import type { Logger } from "../../log";
import { parseDocument } from "../projects/document";
import { templateFileSchema } from "./model";
import { builtInTemplateFiles, type BuiltInTemplateFile } from "../../../assets/templates";
import type { AppContext } from "../../context";

export const SYSTEM_AUTHOR = "Botloom";

export interface SeedResult {
  inserted: number;
  updated: number;
  unchanged: number;
  removed: number;
  /** files that could not be read (logged); their rows are left as they are */
  failed: string[];
}

/** The row fields a file defines. `featured` is separate: at start a changed file keeps the admin's choice. */
function rowOf(file: BuiltInTemplateFile) {
  const parsed = templateFileSchema.safeParse(JSON.parse(file.text));
  if (!parsed.success) throw new Error(parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; "));
  const t = parsed.data;
  const fields = {
    ownerId: null,
    systemKey: file.file,
    contentHash: sha256Hex(file.text),
    name: t.name,
    description: t.description,
    data: parseDocument(t.data).json,
    category: t.category,
    tags: JSON.stringify(t.tags),
    isPublic: 1,
    difficulty: t.difficulty,
    authorName: t.authorName ?? SYSTEM_AUTHOR,
    language: t.language,
    complexity: t.complexity,
    estimatedTime: t.estimatedTime,
  };
  return { fields, featured: t.featured };
}

/**
 * Seeds the catalog from the built-in files. `force` (refresh) rewrites every built-in row from its
 * file, `featured` included; otherwise only missing rows and rows whose file changed are written.
 * Rows of built-ins that this version no longer ships are removed (projects made from them stay).
 */
export function seedBuiltInTemplates(db: Db, files: BuiltInTemplateFile[], opts: { force?: boolean; log?: Logger } = {}): SeedResult {
  const result: SeedResult = { inserted: 0, updated: 0, unchanged: 0, removed: 0, failed: [] };
  // Hashes first: a restart on existing data parses no file whose row is current (cold start).
  const storedHash = new Map(
    db
      .select({ systemKey: templates.systemKey, contentHash: templates.contentHash })
      .from(templates)
      .where(isNotNull(templates.systemKey))
      .all()
      .map((r) => [r.systemKey!, r.contentHash]),
  );
  const rows: { file: string; row: ReturnType<typeof rowOf> }[] = [];
  for (const file of files) {
    if (!opts.force && storedHash.get(file.file) === sha256Hex(file.text)) {
      result.unchanged++;
      continue;
    }
    try {
      rows.push({ file: file.file, row: rowOf(file) });
    } catch (e) {
      result.failed.push(file.file);
      opts.log?.error(`Built-in template ${file.file} is invalid and was not loaded: ${(e as Error).message}`);
    }
  }
  // The usual restart: every row current and nothing left over. No write transaction then.
  const shippedKeys = new Set(files.map((f) => f.file));
  if (rows.length === 0 && [...storedHash.keys()].every((key) => shippedKeys.has(key))) return result;
  const now = new Date().toISOString();
  db.transaction((tx) => {
    // Last file first: the catalog lists the newest first, so a fresh catalog shows the file order.
    for (const { file, row } of [...rows].reverse()) {
      const stored = tx.select({ id: templates.id, contentHash: templates.contentHash }).from(templates).where(eq(templates.systemKey, file)).get();
      if (!stored) {
        tx.insert(templates).values({ ...row.fields, featured: row.featured }).run();
        result.inserted++;
      } else if (opts.force || stored.contentHash !== row.fields.contentHash) {
        const set = opts.force ? { ...row.fields, featured: row.featured } : row.fields;
        tx.update(templates).set({ ...set, updatedAt: now }).where(eq(templates.id, stored.id)).run();
        result.updated++;
      } else {
        result.unchanged++;
      }
    }
    // A file that failed to parse keeps its row: removal is only for built-ins no longer shipped.
    const shipped = [...shippedKeys];
    const gone = tx
      .delete(templates)
      .where(and(isNotNull(templates.systemKey), shipped.length ? notInArray(templates.systemKey, shipped) : undefined))
      .returning({ id: templates.id })
      .all();
    result.removed = gone.length;
  });
  return result;
}

/** Seeds the built-ins (once per context, from buildContext); a failure leaves health.templates false but the server up. */
export function loadBuiltInTemplates(ctx: AppContext, files = builtInTemplateFiles) {
  try {
    const r = seedBuiltInTemplates(ctx.db, files, { log: ctx.log });
    if (r.failed.length === 0) ctx.state.templatesLoaded = true;
    if (r.inserted + r.updated + r.removed > 0) ctx.log.info(`Built-in templates: ${r.inserted} added, ${r.updated} updated, ${r.removed} removed`);
  } catch (e) {
    ctx.log.error("Loading the built-in templates failed:", e);
  }
}
