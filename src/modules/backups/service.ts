// Backups in DATA_DIR/backups: create (scheduled, from the hub or the CLI), list, find for a
// download, prune to BACKUP_KEEP, and optionally copy to the active object-store config.
import type { Database } from "bun:sqlite";
import { existsSync, readdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import type { Config } from "../../config";
import type { Logger } from "../../log";
import type { StorageRegistry } from "../storage/registry";
import { ObjectStoreBackend } from "../storage/backends/objstore";
import { writeArchive } from "./archive";
import { BACKUP_STAGING, PARTIAL_ARCHIVE, removeDeadLeftovers, RESTORE_STAGING, stagingName } from "./leftovers";

/** Names Botloom gives its archives; nothing else in the folder is listed, served or pruned. */
export const BACKUP_NAME = /^botloom-\d{8}-\d{6}(?:-\d{1,3})?\.tar\.gz$/;
/** Where uploaded copies go in the bucket (media keys start with a project id, so they never meet). */
export const UPLOAD_PREFIX = "botloom-backups/";

export interface BackupInfo {
  name: string;
  size: number;
  createdAt: string;
}

export interface CreatedBackup extends BackupInfo {
  projects: number;
  /** The storage config the archive was copied to, when BACKUP_UPLOAD=on and that worked. */
  uploadedTo: string | null;
}

const pad = (n: number, w = 2) => String(n).padStart(w, "0");
/** Local time, like the schedule: botloom-YYYYMMDD-HHMMSS. */
export const stampOf = (d: Date) => `${d.getFullYear()}${pad(d.getMonth() + 1)}${pad(d.getDate())}-${pad(d.getHours())}${pad(d.getMinutes())}${pad(d.getSeconds())}`;

export class BackupService {
  /** One backup at a time: a scheduled run and a click in the hub queue instead of racing for a name. */
  private queue: Promise<unknown> = Promise.resolve();
  /** The last name given out: a suffix is never reused within a second, even after pruning. */
  private last = { stamp: "", suffix: 0 };

  constructor(
    private readonly config: Pick<Config, "dataDir" | "backupsDir" | "projectsDir" | "backupKeep" | "backupUpload">,
    private readonly platform: () => Database,
    private readonly log: Logger,
    private readonly storage?: StorageRegistry,
  ) {}

  list(): BackupInfo[] {
    const dir = this.config.backupsDir;
    if (!existsSync(dir)) return [];
    const out: BackupInfo[] = [];
    for (const name of readdirSync(dir)) {
      if (!BACKUP_NAME.test(name)) continue;
      try {
        const st = statSync(join(dir, name));
        if (st.isFile()) out.push({ name, size: st.size, createdAt: st.mtime.toISOString() });
      } catch {}
    }
    // Names carry the time; the suffix orders backups made within the same second.
    const key = (n: string) => {
      const m = /^botloom-(\d{8}-\d{6})(?:-(\d+))?\./.exec(n)!;
      return `${m[1]}-${(m[2] ?? "1").padStart(4, "0")}`;
    };
    return out.sort((a, b) => (key(a.name) < key(b.name) ? 1 : key(a.name) > key(b.name) ? -1 : 0));
  }

  /** The archive's path for a download, or null for an unknown or malformed name. */
  pathOf(name: string): string | null {
    if (!BACKUP_NAME.test(name)) return null;
    const path = join(this.config.backupsDir, name);
    return existsSync(path) ? path : null;
  }

  /** Makes a backup in DATA_DIR/backups, then prunes to BACKUP_KEEP. */
  create(now = new Date()): Promise<CreatedBackup> {
    const run = this.queue.then(() => this.createNow(now));
    this.queue = run.catch(() => {});
    return run;
  }

  /** Writes an archive to a path of the caller's choice (`botloom backup FILE`); no pruning, no upload. */
  async writeTo(target: string) {
    return writeArchive(this.platform(), this.config.projectsDir, target);
  }

  /**
   * Removes what backups and restores interrupted by kill -9, the OOM killer or a power cut left: a
   * backup's staging folder and half-written archive in the backups folder, a restore's staging
   * folder in DATA_DIR (copies of every database, bot tokens included), which no listing shows and
   * no pruning removed. Those of a process still running (a `botloom backup`, named by its pid)
   * are kept. Returns the names removed.
   */
  removeLeftovers(): string[] {
    const backups = removeDeadLeftovers(this.config.backupsDir, [stagingName(BACKUP_STAGING), PARTIAL_ARCHIVE]);
    if (backups.length) this.log.info(`backups: removed what ${backups.length} interrupted backup(s) left behind: ${backups.join(", ")}`);
    const restores = removeDeadLeftovers(this.config.dataDir, [stagingName(RESTORE_STAGING)]);
    if (restores.length) this.log.info(`restore: removed what ${restores.length} interrupted restore(s) left behind: ${restores.join(", ")}`);
    return [...backups, ...restores];
  }

  /** Deletes the oldest archives beyond `keep`; returns the deleted names. */
  prune(keep = this.config.backupKeep): string[] {
    const doomed = this.list().slice(keep);
    for (const b of doomed) rmSync(join(this.config.backupsDir, b.name), { force: true });
    if (doomed.length) this.log.info(`backups: deleted ${doomed.length} old backup(s) (BACKUP_KEEP=${keep})`);
    return doomed.map((b) => b.name);
  }

  private async createNow(now: Date): Promise<CreatedBackup> {
    const stamp = stampOf(now);
    let suffix = this.last.stamp === stamp ? this.last.suffix + 1 : 1;
    const nameOf = (n: number) => `botloom-${stamp}${n > 1 ? `-${n}` : ""}.tar.gz`;
    while (existsSync(join(this.config.backupsDir, nameOf(suffix)))) suffix++;
    this.last = { stamp, suffix };
    const name = nameOf(suffix);
    const path = join(this.config.backupsDir, name);
    const manifest = await writeArchive(this.platform(), this.config.projectsDir, path, now);
    const { size, mtime } = statSync(path);
    this.log.info(`backups: wrote ${name} (${size} bytes, ${manifest.projects.length} project database(s))`);
    const uploadedTo = this.config.backupUpload ? await this.upload(name, path) : null;
    this.prune();
    return { name, size, createdAt: mtime.toISOString(), projects: manifest.projects.length, uploadedTo };
  }

  /**
   * Copies the archive to the active object-store config. A config with a public URL base is a
   * public bucket: the archive holds bot tokens, so it is never put there.
   */
  private async upload(name: string, path: string): Promise<string | null> {
    try {
      const target = this.storage?.uploadTarget();
      if (!target || target.configId === null || !(target.backend instanceof ObjectStoreBackend)) {
        this.log.warn("backups: BACKUP_UPLOAD=on but no object-store storage config is active; the backup stays local only");
        return null;
      }
      if (target.backend.publicUrl(`${UPLOAD_PREFIX}${name}`) !== null) {
        this.log.warn(`backups: storage config "${target.configId}" has a public URL base; backups hold bot tokens and are not uploaded to a public bucket`);
        return null;
      }
      await target.backend.putFile(`${UPLOAD_PREFIX}${name}`, path, "application/gzip");
      this.log.info(`backups: copied ${name} to storage config "${target.configId}"`);
      return target.configId;
    } catch (e) {
      this.log.warn(`backups: upload of ${name} failed: ${e instanceof Error ? e.message : String(e)}`);
      return null;
    }
  }
}
