// The projects' trash (docs/api.md "Trash"): every deletion puts a project here first. Its bots
// are stopped and it is hidden from everyone; the owner may restore it for PROJECT_TRASH_DAYS,
// then it is purged (bot folders, media, project file, rows). Restoring never starts its bots.
import { z } from "zod";
import type { AppContext } from "../../context";
import { notFound } from "../../errors";
import type { Logger } from "../../log";
import type { TrashQueries } from "./queries";

const DAY_MS = 24 * 3600 * 1000;

/** GET /api/projects/trash: the caller's own deleted projects (described for OpenAPI and the Studio's types). */
export const trashListSchema = z.object({
  items: z.array(
    z.object({
      id: z.number(),
      name: z.string(),
      description: z.string(),
      nodeCount: z.number(),
      updatedAt: z.string(),
      deletedAt: z.string(),
      /** When the purge takes it: deletedAt + PROJECT_TRASH_DAYS. */
      purgeAt: z.string(),
      deletedBy: z.object({ userId: z.number(), name: z.string() }),
    }),
  ),
  count: z.number(),
  retentionDays: z.number(),
});

export type TrashItem = z.output<typeof trashListSchema>["items"][number];

type Changed = (kind: "created" | "deleted", projectId: number, recipients: number[]) => void;

export class ProjectTrash {
  constructor(
    private readonly ctx: AppContext,
    private readonly q: () => TrashQueries,
    private readonly members: (projectId: number) => number[],
    private readonly changed: Changed,
  ) {}

  private get days() {
    return this.ctx.config.projectTrashDays;
  }

  /** Moves a project the caller may delete (checked by the caller) to the trash, its bots stopped for good. */
  async put(projectId: number, deletedBy: number): Promise<void> {
    const recipients = this.members(projectId);
    // No bot of the project may start again before the trash row hides it (a start meanwhile finds no project).
    await this.ctx.bots.stopProject(projectId, async () => {
      this.q().put.run({ projectId, deletedBy });
    });
    this.changed("deleted", projectId, recipients);
  }

  list(ownerId: number): TrashItem[] {
    return this.q()
      .listOwned.all({ userId: ownerId })
      .map((r) => ({
        id: r.id,
        name: r.name,
        description: r.description,
        nodeCount: r.nodeCount,
        updatedAt: r.updatedAt,
        deletedAt: r.deletedAt,
        purgeAt: new Date(Date.parse(r.deletedAt) + this.days * DAY_MS).toISOString(),
        deletedBy: { userId: r.deletedBy, name: personName(r.deletedBy, r.deletedByFirstName, r.deletedByLastName, r.deletedByUsername) },
      }));
  }

  /** 404 unless the project is in `userId`'s own trash: to anyone else it does not exist. */
  private requireOwnTrashed(projectId: number, userId: number) {
    const row = this.q().trashedOwner.get({ projectId });
    if (!row || row.ownerId !== userId) throw notFound("Project not found in your trash");
  }

  /** The owner takes a project back (it still counted towards their cap, so no check is due). */
  restore(projectId: number, userId: number): void {
    this.requireOwnTrashed(projectId, userId);
    if (this.q().take.all({ projectId }).length === 0) throw notFound("Project not found in your trash");
    this.changed("created", projectId, this.members(projectId));
  }

  /** The owner's "delete forever": purged now instead of after PROJECT_TRASH_DAYS. */
  async purgeNow(projectId: number, userId: number, purge: (projectId: number) => Promise<boolean>): Promise<void> {
    this.requireOwnTrashed(projectId, userId);
    if (!(await purge(projectId))) throw notFound("Project not found in your trash");
  }

  /** Projects deleted more than PROJECT_TRASH_DAYS ago, purged one by one; the count purged. */
  async purgeExpired(purge: (projectId: number) => Promise<boolean>, now = Date.now()): Promise<number> {
    const cutoff = new Date(now - this.days * DAY_MS).toISOString();
    let n = 0;
    for (const { projectId } of this.q().expired.all({ cutoff })) {
      try {
        if (await purge(projectId)) n++;
      } catch (err) {
        this.ctx.log.warn(`project ${projectId}: purge from the trash failed:`, err);
      }
    }
    if (n > 0) this.ctx.log.info(`trash: purged ${n} project(s) deleted over ${this.days} days ago`);
    return n;
  }
}

function personName(id: number, first: string | null, last: string | null, username: string | null): string {
  const full = [first, last].filter((s) => s && s.trim()).join(" ").trim();
  return full || (username ? `@${username}` : String(id));
}

/** How often `serve` looks for projects due for purging; a purge is a day-scale deadline. */
export const TRASH_PURGE_INTERVAL_MS = 3600_000;

/** Purges expired trash now and then hourly (main.ts, in `serve` only); stop() ends it. */
export function scheduleTrashPurge(purge: () => Promise<number>, log: Logger): { stop(): void } {
  const run = () => void purge().catch((err) => log.warn("trash purge failed:", err));
  run();
  const timer = setInterval(run, TRASH_PURGE_INTERVAL_MS);
  timer.unref?.();
  return { stop: () => clearInterval(timer) };
}
