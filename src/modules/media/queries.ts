// Media files of projects in the platform database (rows; the bytes are in a storage backend).
import { and, desc, eq, isNull, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { statements } from "../../db/prepared";
import { mediaFiles } from "../../db/schema";

export type MediaRow = typeof mediaFiles.$inferSelect;

const servedColumns = { fileName: mediaFiles.fileName, mimeType: mediaFiles.mimeType, size: mediaFiles.size };

export const mediaStatements = statements((db: Db) => ({
  list: () => db
    .select()
    .from(mediaFiles)
    .where(eq(mediaFiles.projectId, sql.placeholder("projectId")))
    .orderBy(desc(mediaFiles.createdAt), desc(mediaFiles.id))
    .prepare(),
  one: () => db
    .select()
    .from(mediaFiles)
    .where(and(eq(mediaFiles.id, sql.placeholder("id")), eq(mediaFiles.projectId, sql.placeholder("projectId"))))
    .prepare(),
  // The /uploads server's lookups (hot path).
  byKey: () => db
    .select(servedColumns)
    .from(mediaFiles)
    .where(and(eq(mediaFiles.storageConfigId, sql.placeholder("configId")), eq(mediaFiles.objectKey, sql.placeholder("key"))))
    .limit(1)
    .prepare(),
  byBuiltinKey: () => db
    .select(servedColumns)
    .from(mediaFiles)
    .where(and(isNull(mediaFiles.storageConfigId), eq(mediaFiles.objectKey, sql.placeholder("key"))))
    .limit(1)
    .prepare(),
  remove: () => db.delete(mediaFiles).where(eq(mediaFiles.id, sql.placeholder("id"))).prepare(),
}));

export function insertMedia(db: Db, values: typeof mediaFiles.$inferInsert): MediaRow {
  return db.insert(mediaFiles).values(values).returning().get();
}
