// Version snapshots of a project's data (docs/api.md#project-versions, docs/editor.md "Versions").
// A snapshot holds the data AFTER a change, so the newest version always equals the current data.
// Saves without a commit message by a person (the editor's autosave) share one version per author
// and AUTOSAVE_WINDOW_MS; a save with a message is always a named version. Pruning, in the same
// transaction as the write, drops unnamed versions beyond the newest KEEP_VERSIONS and named ones
// beyond KEEP_NAMED_VERSIONS; the project's first version ("Project created") always stays.
import type { Db } from "../../db/client";
import { notFound } from "../../errors";
import { readStored } from "./document";
import { versionStatements } from "./queries";

export const KEEP_VERSIONS = 50;
/** every kept version fits one list page (at most 200) */
export const KEEP_NAMED_VERSIONS = 150;
/** how long one autosave version keeps taking the next autosaves of its author */
export const AUTOSAVE_WINDOW_MS = 10 * 60_000;

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
  /** the author's name on the platform (first and last name, else @username), null when unknown */
  authorName: string | null;
  agentEdit: number;
  agentDisplayName: string | null;
  nodesCount: number;
}

const statementsOf = versionStatements(KEEP_VERSIONS, KEEP_NAMED_VERSIONS);

const isNamed = (message: string | null | undefined) => !!message && message.trim() !== "";

export class ProjectVersions {
  private readonly q;

  constructor(private readonly db: Db) {
    this.q = statementsOf(db);
  }

  /**
   * Call inside the transaction that writes the project's data (`changed`: whether it differs from
   * what was stored). An unchanged save is a version only when it names one.
   */
  snapshot(projectId: number, dataJson: string, nodesCount: number, meta: VersionMeta, changed = true) {
    const newest = this.q.newest.get({ projectId });
    const person = !meta.agentEdit && meta.authorId != null;
    const newestIsAutosave = !!newest && !isNamed(newest.commitMessage) && !newest.agentEdit && newest.authorId === meta.authorId;
    if (isNamed(meta.commitMessage)) {
      // Save pressed again on the same data with the same words: that version exists already
      if (!changed && newest?.data === dataJson && newest.commitMessage?.trim() === meta.commitMessage!.trim()) return;
      // naming what the author's autosave already holds: that version gets the name
      if (!changed && person && newestIsAutosave && newest!.data === dataJson) return this.q.rename.run({ id: newest!.id, commitMessage: meta.commitMessage!.trim() });
    } else {
      if (!changed) return;
      const fresh = newest && Date.parse(newest.createdAt) > Date.now() - AUTOSAVE_WINDOW_MS;
      if (person && newestIsAutosave && fresh) return this.q.replaceData.run({ id: newest!.id, data: dataJson, nodesCount });
    }
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
    if (keepFrom) this.q.pruneUnnamed.run({ projectId, keepFrom: keepFrom.id });
    const keepNamedFrom = this.q.keepNamedFrom.get({ projectId });
    if (keepNamedFrom) this.q.pruneNamed.run({ projectId, keepFrom: keepNamedFrom.id });
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
