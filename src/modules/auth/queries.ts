// SQL of the auth module's one-time widget payloads (docs/security.md "Login").
import { lt } from "drizzle-orm";
import type { Db } from "../../db/client";
import { usedLoginPayloads } from "../../db/schema";

/**
 * Records a payload's hash as used; false when it already was. Expired entries go first: a
 * payload past its expiry is refused for its age anyway, so the table holds one day of logins.
 */
export function markPayloadUsed(db: Db, hash: string, expiresAt: string, nowIso: string): boolean {
  return db.transaction(() => {
    db.delete(usedLoginPayloads).where(lt(usedLoginPayloads.expiresAt, nowIso)).run();
    const row = db.insert(usedLoginPayloads).values({ hash, expiresAt }).onConflictDoNothing().returning({ hash: usedLoginPayloads.hash }).get();
    return row !== undefined;
  });
}

