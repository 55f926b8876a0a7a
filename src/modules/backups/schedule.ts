// Scheduled backups (BACKUP_SCHEDULE, a cron expression in the server's local time).
import { Cron } from "../../lib/cron";
import type { Logger } from "../../log";
import type { BackupService } from "./service";

export interface BackupSchedule {
  /** When the next scheduled backup runs, or null when scheduling is off. */
  nextRun(): Date | null;
  stop(): void;
}

export function scheduleBackups(pattern: string | null, backups: BackupService, log: Logger): BackupSchedule {
  if (!pattern) return { nextRun: () => null, stop() {} };
  // protect: a run that is still writing when the next is due is skipped, never doubled.
  const job = new Cron(pattern, { protect: true }, async () => {
    try {
      await backups.create();
    } catch (e) {
      log.error(`backups: scheduled backup failed: ${e instanceof Error ? e.message : String(e)}`);
    }
  });
  return { nextRun: () => job.nextRun(), stop: () => job.stop() };
}

/** When `pattern` next fires (for the hub), whether or not this process runs the schedule. */
export function nextScheduledRun(pattern: string | null): Date | null {
  if (!pattern) return null;
  const probe = new Cron(pattern, { paused: true });
  const next = probe.nextRun();
  probe.stop();
  return next;
}
