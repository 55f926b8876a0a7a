// Built-in templates (assets/templates/*.json, embedded in the binary) → catalog rows. A system
// template has no owner and `system_key` = its file name; `content_hash` = SHA-256 of the file.
// At start a row is inserted when missing and rewritten when its file changed; `refresh` (admin
// rule 4) rewrites every row whatever the hash. Usage and votes are never reset.
import type { Db } from "../../db/client";
import { sha256Hex } from "../../lib/crypto";
import type { Logger } from "../../log";
import { parseDocument } from "../projects/document";
import { templateFileSchema } from "./model";
import { builtInTemplateFiles, type BuiltInTemplateFile } from "../../../assets/templates";
import type { AppContext } from "../../context";
import { builtInHashes, writeBuiltIns, type BuiltInRow } from "./queries";

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
    description: t.descriptions[t.language as keyof typeof t.descriptions] ?? t.descriptions.en,
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
  const storedHash = builtInHashes(db);
  const rows: BuiltInRow[] = [];
  for (const file of files) {
    if (!opts.force && storedHash.get(file.file) === sha256Hex(file.text)) {
      result.unchanged++;
      continue;
    }
    try {
      rows.push({ file: file.file, ...rowOf(file) });
    } catch (e) {
      result.failed.push(file.file);
      opts.log?.error(`Built-in template ${file.file} is invalid and was not loaded: ${(e as Error).message}`);
    }
  }
  // The usual restart: every row current and nothing left over. No write transaction then.
  const shippedKeys = new Set(files.map((f) => f.file));
  if (rows.length === 0 && [...storedHash.keys()].every((key) => shippedKeys.has(key))) return result;
  // A file that failed to parse keeps its row: removal is only for built-ins no longer shipped.
  const counts = writeBuiltIns(db, rows, [...shippedKeys], opts.force === true, new Date().toISOString());
  result.inserted = counts.inserted;
  result.updated = counts.updated;
  result.unchanged += counts.unchanged;
  result.removed = counts.removed;
  return result;
}

/** The admin's refresh (admin rule 4): every built-in row rewritten from its file. */
export function refreshBuiltInTemplates(ctx: AppContext, files = builtInTemplateFiles): SeedResult {
  return seedBuiltInTemplates(ctx.db, files, { force: true, log: ctx.log });
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
