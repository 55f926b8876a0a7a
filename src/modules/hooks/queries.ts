// SQL of inbound webhooks (docs/hooks.md): the hooks table of the platform database, and the two
// facts of a project a request needs (its scenario with its version, its tokens).
import { and, asc, eq, lt } from "drizzle-orm";
import type { Db } from "../../db/client";
import { botTokens, hookDeliveries, hooks, projects } from "../../db/schema";

export type HookRow = typeof hooks.$inferSelect;

export function hookById(db: Db, id: string): HookRow | undefined {
  return db.select().from(hooks).where(eq(hooks.id, id)).get();
}

export function hooksOfProject(db: Db, projectId: number): HookRow[] {
  return db.select().from(hooks).where(eq(hooks.projectId, projectId)).orderBy(asc(hooks.createdAt)).all();
}

export function hookOfNode(db: Db, projectId: number, nodeId: string): HookRow | undefined {
  return db.select().from(hooks).where(and(eq(hooks.projectId, projectId), eq(hooks.nodeId, nodeId))).get();
}

/** The new row, or undefined when the node got its hook meanwhile (two first calls at once). */
export function insertHook(db: Db, row: { id: string; projectId: number; nodeId: string; secretHash: string }): HookRow | undefined {
  return db.insert(hooks).values(row).onConflictDoNothing().returning().get();
}

export function setHookSecret(db: Db, id: string, secretHash: string, at: string) {
  db.update(hooks).set({ secretHash, rotatedAt: at }).where(eq(hooks.id, id)).run();
}

/** When the project's scenario last changed: a cache of its hook nodes holds while this stays. */
export function projectVersionOf(db: Db, projectId: number): string | undefined {
  return db.select({ updatedAt: projects.updatedAt }).from(projects).where(eq(projects.id, projectId)).get()?.updatedAt;
}

export function projectScenarioOf(db: Db, projectId: number): { data: string | null; updatedAt: string } | undefined {
  return db.select({ data: projects.data, updatedAt: projects.updatedAt }).from(projects).where(eq(projects.id, projectId)).get();
}

export function tokenIdsOf(db: Db, projectId: number): number[] {
  return db.select({ id: botTokens.id }).from(botTokens).where(eq(botTokens.projectId, projectId)).orderBy(asc(botTokens.id)).all().map((r) => r.id);
}

/**
 * Takes an idempotency key for a hook (docs/hooks.md "Retries"); false when the key was taken
 * within its day. Expired keys go first, so the table holds one day of keyed deliveries.
 */
export async function claimDelivery(db: Db, hookId: string, key: string, expiresAt: string, nowIso: string): Promise<boolean> {
  return db.transaction((tx) => {
    tx.delete(hookDeliveries).where(lt(hookDeliveries.expiresAt, nowIso)).run();
    return tx.insert(hookDeliveries).values({ hookId, key, expiresAt }).onConflictDoNothing().returning({ key: hookDeliveries.key }).get() !== undefined;
  });
}

/** Gives a key back when its delivery did not reach the bot, so the caller's retry runs. */
export async function releaseDelivery(db: Db, hookId: string, key: string): Promise<void> {
  await db.delete(hookDeliveries).where(and(eq(hookDeliveries.hookId, hookId), eq(hookDeliveries.key, key)));
}
