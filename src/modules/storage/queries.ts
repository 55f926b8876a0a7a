// Storage configs in the platform database. Credentials arrive here sealed (storage/crypto.ts).
import { count, eq, ne, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { statements } from "../../db/prepared";
import { mediaFiles, storageConfigs } from "../../db/schema";

export type StorageConfigRow = typeof storageConfigs.$inferSelect;
export type StorageConfigChanges = Partial<typeof storageConfigs.$inferInsert>;

const id = sql.placeholder("id");

export const storageStatements = statements((db: Db) => ({
  byId: () => db.select().from(storageConfigs).where(eq(storageConfigs.id, id)).prepare(),
  all: () => db.select().from(storageConfigs).orderBy(storageConfigs.createdAt, storageConfigs.id).prepare(),
  exists: () => db.select({ id: storageConfigs.id }).from(storageConfigs).where(eq(storageConfigs.id, id)).prepare(),
  filesCount: () => db.select({ n: count() }).from(mediaFiles).where(eq(mediaFiles.storageConfigId, id)).prepare(),
  remove: () => db.delete(storageConfigs).where(eq(storageConfigs.id, id)).prepare(),
}));

export function insertStorageConfig(db: Db, values: typeof storageConfigs.$inferInsert) {
  db.insert(storageConfigs).values(values).run();
}

/** Changes one config; `activate` makes it the only active one, in the same transaction. */
export function updateStorageConfig(db: Db, configId: string, set: StorageConfigChanges, activate: boolean) {
  db.transaction((tx) => {
    if (activate) tx.update(storageConfigs).set({ isActive: 0 }).where(ne(storageConfigs.id, configId)).run();
    tx.update(storageConfigs).set(set).where(eq(storageConfigs.id, configId)).run();
  });
}
