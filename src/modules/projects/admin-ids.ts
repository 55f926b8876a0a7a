// Bot administrator ids (docs/api.md#project-rules rule 7). The database field wins; when it is empty the
// ADMIN_IDS line of the bot folder's .env is read. Writes go to the database and to every existing
// bot folder of the project (`<botsDir>/<slug>_<projectId>_<tokenId>/.env`), so a bot folder does
// not disagree with what the editor shows. The .env is read and written only through
// src/bots/folders.ts, so it has one format (`KEY="json string"`) whoever writes it.
import { existsSync, lstatSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { parseFolderName, readEnvValue, setEnvValue } from "../../bots/folders";
import type { AppContext } from "../../context";
import { badRequest, notFound } from "../../errors";
import { projectStatements } from "./queries";

/** "1, 2,,3" → "1,2,3" (order kept, duplicates dropped); 400 for anything but numeric ids. */
export function normalizeAdminIds(raw: string): string {
  const out: string[] = [];
  for (const part of raw.split(",")) {
    const id = part.trim();
    if (id === "") continue;
    if (!/^-?\d{1,20}$/.test(id)) throw badRequest(`adminIds: "${id.slice(0, 40)}" is not a numeric messenger user id`);
    if (!out.includes(id)) out.push(id);
  }
  return out.join(",");
}

/** `123` or the legacy `del_admin_123` form of POST .../admin-ids/remove. */
export function parseAdminIdToRemove(raw: string | number): string {
  const s = String(raw).trim().replace(/^del_admin_/, "");
  if (!/^-?\d{1,20}$/.test(s)) throw badRequest("adminId must be a numeric id or del_admin_<id>");
  return s;
}

export const splitAdminIds = (list: string) => (list === "" ? [] : list.split(","));

/** Rule 7 on top of the database and the bot folders. Access is checked by the caller. */
export class AdminIds {
  private readonly q;

  constructor(private readonly ctx: AppContext) {
    this.q = projectStatements(ctx.db);
  }

  /** Bot folders of the project's tokens, first token first (one read of BOTS_DIR); real directories only (a symlink is never written through). */
  private folders(projectId: number): string[] {
    const botsDir = this.ctx.config.botsDir;
    if (!existsSync(botsDir)) return [];
    const order = new Map(this.q.tokenIds.all({ projectId }).map(({ id }, i) => [id, i]));
    return readdirSync(botsDir)
      .map((name) => ({ name, ids: parseFolderName(name) }))
      .filter((f) => f.ids !== null && f.ids.projectId === projectId && order.has(f.ids.tokenId))
      .sort((a, b) => order.get(a.ids!.tokenId)! - order.get(b.ids!.tokenId)! || a.name.localeCompare(b.name))
      .map((f) => join(botsDir, f.name))
      .filter((dir) => lstatSync(dir, { throwIfNoEntry: false })?.isDirectory());
  }

  read(projectId: number): string {
    const row = this.q.adminIds.get({ projectId });
    if (!row) throw notFound("Project not found");
    if (row.adminIds && row.adminIds.trim() !== "") return row.adminIds;
    try {
      for (const dir of this.folders(projectId)) {
        const fromEnv = readEnvValue(join(dir, ".env"), "ADMIN_IDS");
        if (fromEnv !== null) return normalizeAdminIds(fromEnv);
      }
    } catch {
      // an unreadable folder or a hand-edited .env with junk must not break the endpoint
    }
    return "";
  }

  writeFolders(projectId: number, list: string) {
    try {
      for (const dir of this.folders(projectId)) setEnvValue(join(dir, ".env"), "ADMIN_IDS", list);
    } catch (err) {
      this.ctx.log.warn(`project ${projectId}: could not write ADMIN_IDS to the bot folder:`, err);
    }
  }

  /** The list without `id` (writing it is ProjectsService.update's job, like every other change). */
  without(projectId: number, id: string): string {
    return splitAdminIds(this.read(projectId))
      .filter((x) => x !== id)
      .join(",");
  }
}
