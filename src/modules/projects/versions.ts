// Version snapshots of a project's data (docs/api.md#project-versions). A snapshot holds the
// data AFTER a change, so the newest version always equals the current data; older ones beyond
// the newest KEEP_VERSIONS are pruned in the same transaction as the write.
import type { Db } from "../../db/client";
import { notFound } from "../../errors";
import { readStored } from "./document";
import { versionStatements } from "./queries";

export const KEEP_VERSIONS = 50;

export interface VersionMeta {
  commitMessage?: string | null;
  authorId?: number | null;
  agentEdit?: boolean;
  agentSessionId?: string | null;
  agentDisplayName?: string | null;
}

export interface VersionItem {
  id: number;
  createdAt: string;
  commitMessage: string | null;
  authorId: number | null;
  agentEdit: number;
  agentDisplayName: string | null;
  nodesCount: number;
}

const statementsOf = versionStatements(KEEP_VERSIONS);

export class ProjectVersions {
  private readonly q;

  constructor(private readonly db: Db) {
    this.q = statementsOf(db);
  }

  /** Call inside the transaction that writes the project's data. */
  snapshot(projectId: number, dataJson: string, nodesCount: number, meta: VersionMeta) {
    this.q.insert.run({
      projectId,
      data: dataJson,
      nodesCount,
      commitMessage: meta.commitMessage ?? null,
      authorId: meta.authorId ?? null,
      agentEdit: meta.agentEdit ? 1 : 0,
      agentSessionId: meta.agentSessionId ?? null,
      agentDisplayName: meta.agentDisplayName ?? null,
    });
    const keepFrom = this.q.keepFrom.get({ projectId });
    if (keepFrom) this.q.prune.run({ projectId, keepFrom: keepFrom.id });
  }

  list(projectId: number, limit: number): VersionItem[] {
    return this.q.list.all({ projectId, limit });
  }

  get(projectId: number, versionId: number): VersionItem & { data: unknown } {
    const row = this.q.get.get({ projectId, id: versionId });
    if (!row) throw notFound("Version not found");
    return { ...row, data: readStored(row.data) };
  }

  /** Raw stored JSON of a version (restore writes it back as is). */
  rawData(projectId: number, versionId: number): string {
    const row = this.q.get.get({ projectId, id: versionId });
    if (!row) throw notFound("Version not found");
    return row.data;
  }
}
