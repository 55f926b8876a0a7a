// Projects: create, read (as a user sees them), update with version snapshots and events, delete
// with the bot stop and delete hooks, duplicate. Other modules (bot API, templates) call this
// class through `ctx.projects`; it never sees Elysia.
import type { AppContext } from "../../context";
import { changeStamp } from "../../db/change-stamp";
import { badRequest, conflict, forbidden, notFound } from "../../errors";
import { texts } from "../../texts";
import { DEFAULT_DATA, parseDocument, readStored as readJson, type ParsedDocument } from "./document";
import { NAME_MAX, toFlag, type CreateProjectInput, type Flag, type ProjectFull, type ProjectListItem, type ProjectPatch } from "./model";
import { projectStatements, trashStatements, updateProject, type ProjectChanges, type ProjectQueries, type TrashQueries } from "./queries";
import { ProjectTrash, scheduleTrashPurge } from "./trash";
import { ProjectVersions, type VersionMeta } from "./versions";
import { AdminIds, normalizeAdminIds } from "./admin-ids";
import { ProjectTeam } from "./team";
import { storedTexts } from "./stored-texts";

export type { ProjectFull, ProjectListItem, ProjectPatch };

const nowIso = () => new Date().toISOString();

export interface StoredScenario {
  name: string;
  data: string;
  /** `data`'s fingerprint, the program cache's key (scenario/codegen/program-cache.ts) */
  fingerprint: string;
  userDatabaseEnabled: number;
}

export class ProjectsService {
  /** a 2,000-node scenario is about 0.5 MB of text (1 MB counted as UTF-16) */
  private readonly texts = storedTexts<{ text: string; userDatabaseEnabled: number }>({ entries: 8, bytes: 16 * 1024 * 1024 });
  readonly versions: ProjectVersions;
  readonly team: ProjectTeam;
  readonly adminIds: AdminIds;
  readonly trash: ProjectTrash;

  constructor(private readonly ctx: AppContext) {
    this.versions = new ProjectVersions(ctx.db);
    this.team = new ProjectTeam(() => this.q);
    this.adminIds = new AdminIds(ctx);
    this.trash = new ProjectTrash(ctx, () => this.tq, (id) => this.team.memberIds(id), (kind, id, to) => this.changed(kind, id, to));
  }

  private get q(): ProjectQueries {
    return projectStatements(this.ctx.db);
  }

  private get tq(): TrashQueries {
    return trashStatements(this.ctx.db);
  }

  // --- reads ---------------------------------------------------------------------------------

  /** A stamp that moves whenever any project may have changed: lists are cached until it does. */
  changeStamp(): () => string {
    return changeStamp(this.ctx.db);
  }

  /** The hot path of the editor's project list: rows are already in the response shape. */
  listItems(userId: number, archived: boolean): ProjectListItem[] {
    const rows = this.q.listItems({ userId, archived: archived ? 1 : 0 });
    for (const r of rows) r.isArchivedForMe = r.isArchivedForMe === 1;
    return rows as ProjectListItem[];
  }

  listFull(userId: number, archived: boolean, page?: { page: number; perPage: number }): ProjectFull[] {
    const values = { userId, archived: archived ? 1 : 0 };
    const rows = page ? this.q.listFullPage({ ...values, limit: page.perPage, offset: (page.page - 1) * page.perPage }) : this.q.listFull(values);
    for (const r of rows) {
      r.data = readJson(r.data as string);
      r.isArchivedForMe = r.isArchivedForMe === 1;
    }
    return rows as unknown as ProjectFull[];
  }

  /** 404 when the project is missing or the user has no access (docs/api.md#authentication). */
  getFull(projectId: number, userId: number): ProjectFull {
    this.ctx.access.require(projectId, userId, { hideForbidden: true });
    return this.readFull(projectId, userId);
  }

  /** The stored scenario as JSON text, unparsed (a preview hands it to the generator's worker). */
  getStoredScenario(projectId: number, userId: number): StoredScenario {
    this.ctx.access.require(projectId, userId, { hideForbidden: true });
    return this.storedScenario(projectId);
  }

  /** The same for generate and export; access is checked by the caller. */
  storedScenario(projectId: number): StoredScenario {
    const row = this.q.forCode.get({ projectId });
    const doc = row && this.texts.get(projectId, row.bytes, () => this.q.document.get({ projectId }));
    if (!row || !doc) throw notFound("Project not found");
    return { name: row.name, data: doc.text, fingerprint: doc.fingerprint, userDatabaseEnabled: doc.userDatabaseEnabled };
  }

  /** Summary as the given user sees it (templates "use" and duplicate answer with this). */
  getItem(projectId: number, userId: number): ProjectListItem {
    this.ctx.access.require(projectId, userId, { hideForbidden: true });
    const row = this.q.item.get({ projectId, userId });
    if (!row) throw notFound("Project not found");
    return toListItem(row);
  }

  private readFull(projectId: number, userId: number): ProjectFull {
    const row = this.q.full.get({ projectId, userId });
    if (!row) throw notFound("Project not found");
    return toFull(row);
  }

  // --- create / duplicate --------------------------------------------------------------------

  create(ownerId: number, input: CreateProjectInput): ProjectFull {
    const name = checkName(input.name);
    const doc = parseDocument(input.data === undefined || input.data === null ? DEFAULT_DATA() : input.data);
    const id = this.insert(ownerId, {
      name,
      description: input.description ?? "",
      doc,
      userDatabaseEnabled: input.userDatabaseEnabled === undefined ? undefined : toFlag(input.userDatabaseEnabled as Flag),
      sortOrder: input.sortOrder,
      adminIds: null,
    });
    this.changed("created", id, [ownerId]);
    return this.readFull(id, ownerId);
  }

  /** A copy owned by the caller: same scenario and settings, no botToken, no collaborators. */
  duplicate(projectId: number, userId: number, name?: string): ProjectListItem {
    this.ctx.access.require(projectId, userId);
    const src = this.q.full.get({ projectId, userId });
    if (!src) throw notFound("Project not found");
    const doc = parseDocument(readJson(src.data));
    const id = this.insert(userId, {
      name: checkName(name ?? texts().copyOf(src.name).slice(0, NAME_MAX)),
      description: src.description,
      doc,
      userDatabaseEnabled: src.userDatabaseEnabled,
      adminIds: src.adminIds,
      commitMessage: `Copy of project ${projectId}`,
    });
    this.changed("created", id, [userId]);
    return this.getItem(id, userId);
  }

  private insert(
    ownerId: number,
    p: { name: string; description: string; doc: ParsedDocument; userDatabaseEnabled?: number; sortOrder?: number; adminIds: string | null; commitMessage?: string },
  ): number {
    return this.ctx.db.transaction(() => {
      // Per-user cap (config.limits): checked in the transaction that inserts, so parallel creates cannot pass it together.
      const owned = this.q.ownedCount.get({ ownerId })?.n ?? 0;
      const cap = this.ctx.config.limits.maxProjectsPerUser;
      if (owned >= cap) throw conflict(`You already own ${owned} projects (at most ${cap} per user); delete one first`);
      const sortOrder = p.sortOrder ?? (this.q.maxPosition.get({ userId: ownerId })?.max ?? -1) + 1;
      const row = this.q.insert.get({
        ownerId,
        name: p.name,
        description: p.description,
        data: p.doc.json,
        nodeCount: p.doc.nodeCount,
        sheetsCount: p.doc.sheetsCount,
        userDatabaseEnabled: p.userDatabaseEnabled ?? 1,
        sortOrder,
        adminIds: p.adminIds,
      })!;
      // The first version is the starting point, so even the original data can be restored.
      this.versions.snapshot(row.id, p.doc.json, p.doc.nodeCount, { authorId: ownerId, commitMessage: p.commitMessage ?? "Project created" });
      return row.id;
    });
  }

  // --- update --------------------------------------------------------------------------------

  /**
   * Partial update. A real data change (the normalised JSON differs) is stored with its cached
   * counts, snapshotted as a version and published as `bot:table_updated`.
   */
  update(projectId: number, userId: number, patch: ProjectPatch, opts: { alwaysVersion?: boolean } = {}): ProjectFull {
    this.ctx.access.require(projectId, userId);
    const doc = patch.data === undefined ? undefined : parseDocument(patch.data);
    const adminIds = patch.adminIds === undefined ? undefined : patch.adminIds === null ? null : normalizeAdminIds(patch.adminIds) || null;
    const name = patch.name === undefined ? undefined : checkName(patch.name);
    let dataChanged = false;
    // What bots see now (the row, or a bot folder's .env when the row is empty): the folders are
    // rewritten only when the list really changes, since an editor sends the whole record back.
    const adminIdsBefore = adminIds === undefined ? undefined : this.adminIds.read(projectId);
    let touched = false;
    this.ctx.db.transaction(() => {
      const current = this.q.stored.get({ projectId });
      if (!current) throw notFound("Project not found");
      if (patch.baseUpdatedAt !== undefined && patch.baseUpdatedAt !== current.updatedAt) {
        throw conflict("The project was saved by someone else since you loaded it", { current: this.readFull(projectId, userId) });
      }
      const set: ProjectChanges = {};
      if (name !== undefined) set.name = name;
      if (patch.description !== undefined) set.description = patch.description;
      if (patch.userDatabaseEnabled !== undefined) set.userDatabaseEnabled = toFlag(patch.userDatabaseEnabled);
      if (adminIds !== undefined && adminIds !== current.adminIds) set.adminIds = adminIds;
      if (doc && doc.json !== current.data) {
        dataChanged = true;
        Object.assign(set, { data: doc.json, nodeCount: doc.nodeCount, sheetsCount: doc.sheetsCount });
      }
      if (Object.keys(set).length > 0) {
        touched = true;
        set.updatedAt = nowIso();
        updateProject(this.ctx.db, projectId, set);
        // the one writer of a project's row (stored-texts.ts): its kept text goes with the old row
        this.texts.forget(projectId);
      }
      if (patch.sortOrder !== undefined) {
        touched = true;
        this.setPosition(projectId, userId, patch.sortOrder);
      }
      // a commit message names a version even when an autosave already stored this data
      const named = !!patch.commitMessage?.trim();
      if (dataChanged || (doc && (opts.alwaysVersion || named))) {
        const meta: VersionMeta = {
          commitMessage: patch.commitMessage,
          authorId: userId,
          agentEdit: patch.agentEdit === undefined ? undefined : toFlag(patch.agentEdit) === 1,
          agentSessionId: patch.agentSessionId,
          agentDisplayName: patch.agentDisplayName,
        };
        this.versions.snapshot(projectId, doc!.json, doc!.nodeCount, meta, dataChanged || !!opts.alwaysVersion);
      }
    });
    if (adminIds !== undefined && (adminIds ?? "") !== adminIdsBefore) this.adminIds.writeFolders(projectId, adminIds ?? "");
    if (dataChanged) this.ctx.events.emit("bot:table_updated", { projectId, restartOnUpdate: patch.restartOnUpdate === undefined ? false : toFlag(patch.restartOnUpdate) === 1 });
    if (touched) this.changed("updated", projectId, this.team.memberIds(projectId));
    return this.readFull(projectId, userId);
  }

  /** PUT /api/bot/projects/{id}/data: body `{ sheets }` or `{ json_data }` replaces the data. */
  replaceData(projectId: number, userId: number, data: unknown, meta: { commitMessage?: string } = {}): ProjectFull {
    return this.update(projectId, userId, { data, commitMessage: meta.commitMessage });
  }

  rename(projectId: number, userId: number, name: string): { id: number; name: string } {
    const p = this.update(projectId, userId, { name });
    return { id: p.id, name: p.name };
  }

  /** Restoring writes the version's data back as a new version, with the usual side effects. */
  restoreVersion(projectId: number, versionId: number, userId: number): ProjectFull {
    this.ctx.access.require(projectId, userId);
    const data = readJson(this.versions.rawData(projectId, versionId));
    // docs/api.md: the restore is itself a version, even when the data equals the current one.
    return this.update(projectId, userId, { data, commitMessage: `Restored version ${versionId}` }, { alwaysVersion: true });
  }

  // --- delete --------------------------------------------------------------------------------

  /** The stored scenario and its time, for the copy in the project's own database file. */
  contentOf(projectId: number): { data: string; updatedAt: string } | undefined {
    return this.q.content.get({ projectId });
  }

  /**
   * Every deletion goes to the trash (docs/api.md "Trash"): the owner's alone here, the owner's
   * or a collaborator's through /api/bot/projects/{id}. Only the owner restores.
   */
  async delete(projectId: number, userId: number, opts: { allowCollaborator?: boolean } = {}): Promise<void> {
    this.ctx.access.require(projectId, userId, { ownerOnly: !opts.allowCollaborator });
    await this.trash.put(projectId, userId);
  }

  /**
   * A project in the trash, gone for good (docs/api.md#project-rules rule 3): bots stop first (they write into the project's rows),
   * then the delete hooks (files outside the database), then the row; dependent rows go by FK
   * cascade. Checked again once the bots are stopped: a restore meanwhile wins (false).
   */
  async purge(projectId: number): Promise<boolean> {
    let purged = false;
    await this.ctx.bots.stopProject(projectId, async () => {
      if (!this.tq.trashedOwner.get({ projectId })) return;
      for (const hook of this.ctx.projectDeleteHooks) {
        try {
          await hook(projectId);
        } catch (err) {
          // Leftover files can be cleaned later (bot folder cleanup); a stuck hook must not keep the project alive.
          this.ctx.log.warn(`project ${projectId}: delete hook failed:`, err);
        }
      }
      this.q.remove.run({ projectId });
      purged = true;
    });
    return purged;
  }

  /** Purges what has been in the trash longer than PROJECT_TRASH_DAYS (main.ts runs it hourly). */
  purgeExpiredTrash(now = Date.now()): Promise<number> {
    return this.trash.purgeExpired((id) => this.purge(id), now);
  }

  /** The owner deletes a project in their trash for good (404 for anyone else). */
  async purgeFromTrash(projectId: number, userId: number): Promise<void> {
    await this.trash.purgeNow(projectId, userId, (id) => this.purge(id));
  }

  /** `serve` only: purges expired trash now and hourly until stopped. */
  scheduleTrashPurge(): { stop(): void } {
    return scheduleTrashPurge(() => this.purgeExpiredTrash(), this.ctx.log);
  }

  /** A collaborator leaves a project they were added to; the owner cannot (409). */
  leave(projectId: number, userId: number) {
    const role = this.ctx.access.require(projectId, userId);
    if (role === "owner") throw conflict("The owner cannot leave their own project");
    const recipients = this.team.memberIds(projectId);
    this.ctx.db.transaction(() => {
      this.tq.leave.run({ projectId, userId });
      this.q.unarchive.run({ projectId, userId });
      this.tq.forgetOrder.run({ projectId, userId });
    });
    // The leaver's list loses it ("deleted" for them); the rest of the team sees a changed team.
    this.changed("deleted", projectId, [userId]);
    this.changed("updated", projectId, recipients.filter((id) => id !== userId));
  }

  // --- per-user view -------------------------------------------------------------------------

  setArchived(projectId: number, userId: number, archived: boolean) {
    this.ctx.access.require(projectId, userId);
    if (archived) this.q.archive.run({ projectId, userId });
    else this.q.unarchive.run({ projectId, userId });
  }

  /** docs/api.md#project-rules rule 10: all ids accessible or nothing changes (403). */
  reorder(userId: number, projectIds: number[]) {
    if (projectIds.length === 0) throw badRequest("projectIds must not be empty");
    if (new Set(projectIds).size !== projectIds.length) throw badRequest("projectIds must not repeat an id");
    this.ctx.db.transaction(() => {
      projectIds.forEach((projectId, index) => {
        // a missing id is "not accessible" too: 403, never a hint about which ids exist
        if (!this.ctx.access.roleOf(projectId, userId)) throw forbidden(`Project ${projectId} is not accessible`);
        this.setPosition(projectId, userId, index);
      });
    });
    this.changed("reordered", projectIds[0], [userId]);
  }

  private setPosition(projectId: number, userId: number, sortOrder: number) {
    this.q.setPosition.run({ projectId, userId, sortOrder });
  }

  private changed(kind: "created" | "deleted" | "reordered" | "updated", projectId: number, recipients: number[]) {
    this.ctx.events.emit("projects-changed", { kind, projectId, recipients: [...new Set(recipients)] });
  }
}

function checkName(raw: string): string {
  const name = raw.trim();
  if (name === "") throw badRequest("name is required");
  if (name.length > NAME_MAX) throw badRequest(`name must be at most ${NAME_MAX} characters`);
  return name;
}

type Archived = { archived: number };

function toListItem<R extends Omit<ProjectListItem, "isArchivedForMe"> & Archived>(r: R): ProjectListItem {
  return {
    id: r.id,
    ownerId: r.ownerId,
    name: r.name,
    description: r.description,
    userDatabaseEnabled: r.userDatabaseEnabled,
    sortOrder: r.sortOrder,
    adminIds: r.adminIds,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
    nodeCount: r.nodeCount,
    sheetsCount: r.sheetsCount,
    isArchivedForMe: r.archived === 1,
  };
}

function toFull<R extends Omit<ProjectFull, "isArchivedForMe" | "data"> & Archived & { data: string }>(r: R): ProjectFull {
  return {
    id: r.id,
    ownerId: r.ownerId,
    name: r.name,
    description: r.description,
    data: readJson(r.data),
    botToken: r.botToken,
    sessionId: r.sessionId,
    userDatabaseEnabled: r.userDatabaseEnabled,
    sortOrder: r.sortOrder,
    adminIds: r.adminIds,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
    isArchivedForMe: r.archived === 1,
  };
}
