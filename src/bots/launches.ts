// Launch history rows: one per process start, closed with its final status (docs/bots.md#running-bots).
import { and, eq, isNull } from "drizzle-orm";
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

  /** After an unclean server stop (kill -9), launches left open are closed; their bots died with the server. */
  closeDangling() {
    this.db
      .update(botLaunches)
      .set({ status: "stopped", stoppedAt: new Date().toISOString(), errorMessage: "server stopped unexpectedly" })
      .where(and(eq(botLaunches.status, "running"), isNull(botLaunches.stoppedAt)))
      .run();
  }

  setTokenStatus(tokenId: number, status: string, desired?: "running" | "stopped") {
    const set: Record<string, string> = { status, updatedAt: new Date().toISOString() };
    if (desired) set.desiredState = desired;
    this.db.update(botTokens).set(set).where(eq(botTokens.id, tokenId)).run();
  }
}
