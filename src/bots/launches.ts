// Launch history rows: one per process start, closed with its final status (docs/bots.md#running-bots).
import type { Db } from "../db/client";
import { launchStatements, setTokenState } from "./queries";

export class LaunchHistory {
  constructor(private readonly db: Db) {}

  open(projectId: number, tokenId: number, pid: number | null): number {
    return launchStatements(this.db).open.get({ projectId, tokenId, pid, startedAt: new Date().toISOString() })!.id;
  }

  close(launchId: number, status: "stopped" | "error", errorMessage: string | null = null) {
    launchStatements(this.db).close.run({ id: launchId, status, stoppedAt: new Date().toISOString(), errorMessage });
  }

  /** The newest launch so far: read before this server opens any, it separates an earlier server's launches from ours. */
  lastId(): number {
    return launchStatements(this.db).lastId.get()?.id ?? 0;
  }

  /**
   * After an unclean server stop (kill -9), launches an earlier server left open are closed; their
   * bots died with it. `upToId` (lastId before this server started): never a launch of this one.
   */
  closeDangling(upToId: number) {
    launchStatements(this.db).closeDangling.run({ stoppedAt: new Date().toISOString(), upToId });
  }

  setTokenStatus(tokenId: number, status: string, desired?: "running" | "stopped") {
    setTokenState(this.db, tokenId, { status, updatedAt: new Date().toISOString(), ...(desired && { desiredState: desired }) });
  }
}
