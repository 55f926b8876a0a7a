// Bot administrator ids (API.md projects rule 7). The database field wins; when it is empty the
// ADMIN_IDS line of the bot folder's .env is read. Writes go to the database and to every existing
// bot folder of the project (`<botsDir>/<slug>_<projectId>_<tokenId>/.env`), so a running bot
// folder does not disagree with what the editor shows.
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { eq, sql } from "drizzle-orm";
import type { AppContext } from "../../context";
import { botTokens, projects } from "../../db/schema";
import { badRequest, notFound } from "../../http/errors";

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

/** Bot folders of the project, in the order of `tokenIds` (first token first). */
export function botFoldersOf(botsDir: string, projectId: number, tokenIds: number[]): string[] {
  if (tokenIds.length === 0 || !existsSync(botsDir)) return [];
  let names: string[];
  try {
    names = readdirSync(botsDir);
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const tokenId of tokenIds) {
    const suffix = `_${projectId}_${tokenId}`;
    for (const name of names) {
      if (!name.endsWith(suffix) || name.length === suffix.length) continue;
      const dir = join(botsDir, name);
      try {
        if (statSync(dir).isDirectory()) out.push(dir);
      } catch {}
    }
  }
  return out;
}

function unquote(v: string) {
  const t = v.trim();
  return /^(["']).*\1$/.test(t) ? t.slice(1, -1) : t;
}

/** ADMIN_IDS of the first folder whose .env has the line; null when none does. */
export function readEnvAdminIds(folders: string[]): string | null {
  for (const dir of folders) {
    const file = join(dir, ".env");
    if (!existsSync(file)) continue;
    const line = readFileSync(file, "utf8")
      .split(/\r?\n/)
      .find((l) => /^\s*(export\s+)?ADMIN_IDS\s*=/.test(l));
    if (line !== undefined) return unquote(line.slice(line.indexOf("=") + 1));
  }
  return null;
}

/** Replaces (or appends) the ADMIN_IDS line of each folder's .env. */
export function writeEnvAdminIds(folders: string[], list: string) {
  for (const dir of folders) {
    const file = join(dir, ".env");
    const lines = existsSync(file) ? readFileSync(file, "utf8").split("\n") : [];
    const at = lines.findIndex((l) => /^\s*(export\s+)?ADMIN_IDS\s*=/.test(l));
    if (at >= 0) lines[at] = `ADMIN_IDS=${list}`;
    else {
      if (lines.length && lines[lines.length - 1] === "") lines.pop();
      lines.push(`ADMIN_IDS=${list}`, "");
    }
    writeFileSync(file, lines.join("\n"));
  }
}

/** Rule 7 on top of the database and the bot folders. Access is checked by the caller. */
export class AdminIds {
  private readonly q;

  constructor(private readonly ctx: AppContext) {
    this.q = {
      stored: ctx.db.select({ adminIds: projects.adminIds }).from(projects).where(eq(projects.id, sql.placeholder("projectId"))).prepare(),
      tokenIds: ctx.db.select({ id: botTokens.id }).from(botTokens).where(eq(botTokens.projectId, sql.placeholder("projectId"))).orderBy(botTokens.id).prepare(),
    };
  }

  private folders(projectId: number) {
    const tokenIds = this.q.tokenIds.all({ projectId }).map((t) => t.id);
    return botFoldersOf(this.ctx.config.botsDir, projectId, tokenIds);
  }

  read(projectId: number): string {
    const row = this.q.stored.get({ projectId });
    if (!row) throw notFound("Project not found");
    if (row.adminIds && row.adminIds.trim() !== "") return row.adminIds;
    const fromEnv = readEnvAdminIds(this.folders(projectId));
    if (fromEnv === null) return "";
    try {
      return normalizeAdminIds(fromEnv);
    } catch {
      return ""; // a hand-edited .env with junk must not break the endpoint
    }
  }

  /** Replaces the list (already normalised) in the database and in the bot folders. */
  write(projectId: number, list: string) {
    this.ctx.db
      .update(projects)
      .set({ adminIds: list === "" ? null : list, updatedAt: new Date().toISOString() })
      .where(eq(projects.id, projectId))
      .run();
    this.writeFolders(projectId, list);
  }

  writeFolders(projectId: number, list: string) {
    try {
      writeEnvAdminIds(this.folders(projectId), list);
    } catch (err) {
      this.ctx.log.warn(`project ${projectId}: could not write ADMIN_IDS to the bot folder:`, err);
    }
  }

  remove(projectId: number, id: string): string {
    const list = splitAdminIds(this.read(projectId))
      .filter((x) => x !== id)
      .join(",");
    this.write(projectId, list);
    return list;
  }
}
