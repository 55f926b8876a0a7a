// Version snapshots of a project's data (EXTENSIONS.md "Project versions"). A snapshot holds the
// data AFTER a change, so the newest version always equals the current data; older ones beyond
// the newest KEEP_VERSIONS are pruned in the same transaction as the write.
import { and, desc, eq, lt, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { projectVersions } from "../../db/schema";
import { notFound } from "../../errors";
import { readStored } from "./document";
import { preparedOnFirstUse } from "../../db/prepared";

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

const itemColumns = {
  id: projectVersions.id,
  createdAt: projectVersions.createdAt,
  commitMessage: projectVersions.commitMessage,
  authorId: projectVersions.authorId,
  agentEdit: projectVersions.agentEdit,
  agentDisplayName: projectVersions.agentDisplayName,
  nodesCount: projectVersions.nodesCount,
};

function prepare(db: Db) {
  return preparedOnFirstUse({
    list: () => db
      .select(itemColumns)
      .from(projectVersions)
      .where(eq(projectVersions.projectId, sql.placeholder("projectId")))
      .orderBy(desc(projectVersions.id))
      .limit(sql.placeholder("limit"))
      .prepare(),
    get: () => db
      .select({ ...itemColumns, data: projectVersions.data })
      .from(projectVersions)
      .where(and(eq(projectVersions.projectId, sql.placeholder("projectId")), eq(projectVersions.id, sql.placeholder("id"))))
      .prepare(),
    // id of the oldest version still kept; everything below it goes
    keepFrom: () => db
      .select({ id: projectVersions.id })
      .from(projectVersions)
      .where(eq(projectVersions.projectId, sql.placeholder("projectId")))
      .orderBy(desc(projectVersions.id))
      .limit(1)
      .offset(KEEP_VERSIONS - 1)
      .prepare(),
    insert: () => db
      .insert(projectVersions)
      .values({
        projectId: sql.placeholder("projectId"),
        data: sql.placeholder("data"),
        nodesCount: sql.placeholder("nodesCount"),
        commitMessage: sql.placeholder("commitMessage"),
        authorId: sql.placeholder("authorId"),
        agentEdit: sql.placeholder("agentEdit"),
        agentSessionId: sql.placeholder("agentSessionId"),
        agentDisplayName: sql.placeholder("agentDisplayName"),
      })
      .prepare(),
    prune: () => db
      .delete(projectVersions)
      .where(and(eq(projectVersions.projectId, sql.placeholder("projectId")), lt(projectVersions.id, sql.placeholder("keepFrom"))))
      .prepare(),
  });
}

export class ProjectVersions {
  private readonly q: ReturnType<typeof prepare>;

  constructor(private readonly db: Db) {
    this.q = prepare(db);
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
