// Launch history rows: one per process start, closed with its final status (DESIGN.md "Details fixed").
import { and, eq, isNull, lte, max } from "drizzle-orm";
import type { Db } from "../db/client";
import { botLaunches, botTokens } from "../db/schema";

export class LaunchHistory {
  constructor(private readonly db: Db) {}

  open(projectId: number, tokenId: number, pid: number | null): number {
    return this.db.insert(botLaunches).values({ projectId, tokenId, status: "running", pid, startedAt: new Date().toISOString() }).returning({ id: botLaunches.id }).get().id;
  }

  close(launchId: number, status: "stopped" | "error", errorMessage: string | null = null) {
    this.db.update(botLaunches).set({ status, stoppedAt: new Date().toISOString(), errorMessage }).where(eq(botLaunches.id, launchId)).run();
  }

  /** The newest launch so far: read before this server opens any, it separates an earlier server's launches from ours. */
  lastId(): number {
    return this.db.select({ id: max(botLaunches.id) }).from(botLaunches).get()?.id ?? 0;
  }

  /**
   * After an unclean server stop (kill -9), launches an earlier server left open are closed; their
   * bots died with it. `upToId` (lastId before this server started): never a launch of this one.
   */
  closeDangling(upToId: number) {
    this.db
      .update(botLaunches)
      .set({ status: "stopped", stoppedAt: new Date().toISOString(), errorMessage: "server stopped unexpectedly" })
      .where(and(eq(botLaunches.status, "running"), isNull(botLaunches.stoppedAt), lte(botLaunches.id, upToId)))
      .run();
  }

  setTokenStatus(tokenId: number, status: string, desired?: "running" | "stopped") {
    const set: Record<string, string> = { status, updatedAt: new Date().toISOString() };
    if (desired) set.desiredState = desired;
    this.db.update(botTokens).set(set).where(eq(botTokens.id, tokenId)).run();
  }
}
