// Environment variables of bot tokens in the platform database.
import { and, asc, eq, ne, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { statements } from "../../db/prepared";
import { botTokens, tokenEnvVars } from "../../db/schema";

export type EnvRow = typeof tokenEnvVars.$inferSelect;
export type EnvChanges = Partial<typeof tokenEnvVars.$inferInsert>;

export const envStatements = statements((db: Db) => ({
  list: () => db.select().from(tokenEnvVars).where(eq(tokenEnvVars.tokenId, sql.placeholder("tokenId"))).orderBy(asc(tokenEnvVars.key)).prepare(),
  withProject: () => db
    .select({ env: tokenEnvVars, projectId: botTokens.projectId })
    .from(tokenEnvVars)
    .innerJoin(botTokens, eq(botTokens.id, tokenEnvVars.tokenId))
    .where(eq(tokenEnvVars.id, sql.placeholder("id")))
    .prepare(),
  keyTaken: () => db
    .select({ id: tokenEnvVars.id })
    .from(tokenEnvVars)
    .where(and(eq(tokenEnvVars.tokenId, sql.placeholder("tokenId")), eq(tokenEnvVars.key, sql.placeholder("key")), ne(tokenEnvVars.id, sql.placeholder("exceptId"))))
    .prepare(),
  insert: () => db
    .insert(tokenEnvVars)
    .values({ tokenId: sql.placeholder("tokenId"), key: sql.placeholder("key"), value: sql.placeholder("value"), isSecret: sql.placeholder("isSecret") })
    .returning()
    .prepare(),
  remove: () => db.delete(tokenEnvVars).where(eq(tokenEnvVars.id, sql.placeholder("id"))).prepare(),
}));

export function updateEnvVar(db: Db, id: number, set: EnvChanges): EnvRow | undefined {
  return db.update(tokenEnvVars).set(set).where(eq(tokenEnvVars.id, id)).returning().get();
}
