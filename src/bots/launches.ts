// Launch history rows: one per process start, closed with its final status (DESIGN.md "Details fixed").
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

  /** After an unclean server stop (kill -9), launches left open are closed; their bots died with the server. */
  closeDangling() {
    launchStatements(this.db).closeDangling.run({ stoppedAt: new Date().toISOString() });
  }

  setTokenStatus(tokenId: number, status: string, desired?: "running" | "stopped") {
    setTokenState(this.db, tokenId, { status, updatedAt: new Date().toISOString(), ...(desired && { desiredState: desired }) });
  }
}
